public import Raster

/// A line of text the frame's canvas shows, as it was drawn: for a display that writes text as
/// characters (a terminal) instead of showing the pixels of its glyphs.
///
/// Every coordinate is in the canvas's pixels. The text is the one drawn on the canvas, fitted
/// to its pixels; `fitted(to:measure:)` fits the text the widget asked for again, by the same
/// rules (a label shortened, a number never cut), into other units.
public struct DisplayText {
  /// What the text is for, least important first: where two lines of text meet, the more
  /// important one is kept.
  public enum Role: Int, Comparable, Sendable {
    /// Words: a state's name, a line of facts, an axis's caption.
    case label
    /// A card's or the board's title.
    case title
    /// A number that matters (a count, the clock, a percentage) with the words kept beside it.
    case number

    public static func < (a: Role, b: Role) -> Bool { a.rawValue < b.rawValue }
  }

  /// Where the text sits across its box.
  public enum Align: Sendable { case left, center, right }

  /// The text as drawn on the canvas.
  public var text: String
  /// The box it was fitted into and aligned in.
  public var box: Rect
  /// Where its glyphs are: the drawn advance across, the face's ascender to its descender down.
  public var ink: Rect
  /// The baseline's y.
  public var baseline: Double
  /// Its colour, and the colour of the box it was drawn on.
  public var color: RGBA
  public var background: RGBA
  /// Whether it was drawn in the bold face.
  public var bold: Bool
  public var align: Align
  public var role: Role
  /// The text fitted anew into `width` units of `measure` by the text's own rules (the one
  /// drawn may be shortened for pixels a terminal does not have, or have room to spare); ""
  /// when nothing of it fits.
  public var fitted: (_ width: Int, _ measure: (String) -> Int) -> String

  public init(
    text: String, box: Rect, ink: Rect, baseline: Double, color: RGBA, background: RGBA, bold: Bool = false,
    align: Align = .left, role: Role = .label, fitted: @escaping (_ width: Int, _ measure: (String) -> Int) -> String
  ) {
    self.text = text
    self.box = box
    self.ink = ink
    self.baseline = baseline
    self.color = color
    self.background = background
    self.bold = bold
    self.align = align
    self.role = role
    self.fitted = fitted
  }

  /// This text moved by (`dx`, `dy`) pixels.
  public func moved(dx: Double, dy: Double) -> DisplayText {
    var t = self
    t.box = Rect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
    t.ink = Rect(x: ink.x + dx, y: ink.y + dy, width: ink.width, height: ink.height)
    t.baseline += dy
    return t
  }
}

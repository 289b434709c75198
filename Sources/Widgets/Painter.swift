public import Glyphs
public import Raster

/// Draws text for widgets: fits it into its box (with an ellipsis), aligns it, and records what
/// it drew so tests can check sizes, contrast and overflow.
public struct Painter {
  public enum Align: Sendable { case left, center, right }

  /// What a piece of text is for: legibility rules differ.
  public enum Role: Sendable, Hashable {
    /// Carries information: ≥ 1.6 % of the frame height, ≥ 4.5:1 contrast.
    case info
    /// A number that matters (remaining, done %, counts): ≥ 4 % of the frame height as well.
    case key
  }

  /// One piece of text drawn.
  public struct Record: Sendable, Hashable {
    /// The text drawn (fitted).
    public var text: String
    public var box: Rect
    /// Where the drawn text starts (its left edge) and how wide it is.
    public var x: Double
    public var size: Double
    public var width: Double
    public var color: RGBA
    public var background: RGBA
    public var role: Role
    /// The text the widget asked for, before fitting.
    public var requested: [TextPiece]
    /// The pieces drawn: each whole or, a label, shortened.
    public var pieces: [TextPiece]
    /// Even its fixed pieces were wider than the box at the smallest legible size: drawn whole
    /// past the box (clipped by the widget's cell).
    public var overflows: Bool
    /// How it was drawn: the face, the alignment in `box`, the baseline, and the face's
    /// ascender and descender at `size` (positive), so its glyphs lie between
    /// `baseline - ascender` and `baseline + descender`.
    public var bold: Bool = false
    public var align: Align = .left
    public var baseline: Double = 0
    public var ascender: Double = 0
    public var descender: Double = 0
    /// Whether it is a title (a card's, the board's), drawn with `title: true`.
    public var title: Bool = false
  }

  /// The smallest sizes text may shrink to when its fixed pieces (numbers) do not fit.
  public struct Floors: Sendable, Hashable {
    public var info: Double
    public var key: Double
    public init(info: Double, key: Double) {
      self.info = info
      self.key = key
    }
  }

  public let text: TextRenderer
  /// Everything drawn so far, when recording.
  public var records: [Record] = []
  public var recording = false
  /// When set, text whose fixed pieces do not fit at its size is drawn smaller, down to these;
  /// `BoardRenderer` sets them from the style's legibility rules.
  public var floors: Floors?

  public init(text: TextRenderer) { self.text = text }

  /// Draws `string` in `box`, vertically centred, fitted with an ellipsis (keeping its start, or
  /// with `keep: .end` its end; never cutting a number). A `.key` string is a number: it is kept
  /// whole. Returns the width drawn.
  @discardableResult
  public mutating func draw(
    _ string: String, in box: Rect, size: Double, color: RGBA, background: RGBA, align: Align = .left,
    bold: Bool = false, tabular: Bool = false, role: Role = .info, keep: TextRenderer.Keep = .start,
    title: Bool = false, canvas: inout Canvas
  ) -> Double {
    draw(
      [role == .key ? .fixed(string) : .label(string, keep: keep)], in: box, size: size, color: color,
      background: background, align: align, bold: bold, tabular: tabular, role: role, title: title, canvas: &canvas)
  }

  /// Draws a line of `pieces` in `box`, vertically centred and fitted (`TextRenderer.fit`):
  /// secondary pieces dropped first, then labels shortened, fixed pieces kept whole. When the
  /// fixed pieces alone do not fit, the text is drawn smaller, down to `floors`. Returns the
  /// width drawn. `title` only marks the record (a title, for a display that writes text).
  @discardableResult
  public mutating func draw(
    _ pieces: [TextPiece], in box: Rect, size: Double, color: RGBA, background: RGBA, align: Align = .left,
    bold: Bool = false, tabular: Bool = false, role: Role = .info, title: Bool = false, canvas: inout Canvas
  ) -> Double {
    guard box.width > 0, box.height > 0, pieces.contains(where: { !$0.text.isEmpty }) else { return 0 }
    let weight: Weight = bold ? .bold : .regular
    var size = size
    var fitted = text.fit(pieces, width: box.width, size: size, weight: weight, tabular: tabular)
    if !fitted.fits, let floors {
      let floor = Swift.min(size, role == .key ? floors.key : floors.info)
      while !fitted.fits && size > floor {
        size = Swift.max(floor, size * 0.92)
        fitted = text.fit(pieces, width: box.width, size: size, weight: weight, tabular: tabular)
      }
    }
    let s = fitted.text
    guard !s.isEmpty else {
      // Nothing of it fits: said in the records, for the layout check (`LayoutFit`).
      if recording {
        records.append(
          Record(
            text: "", box: box, x: box.minX, size: size, width: 0, color: color, background: background, role: role,
            requested: pieces, pieces: [], overflows: false, bold: bold, align: align, title: title))
      }
      return 0
    }
    let m = text.measure(s, size: size, weight: weight, tabular: tabular)
    let x: Double
    switch align {
    case .left: x = box.minX
    case .center: x = box.midX - m.width / 2
    case .right: x = box.maxX - m.width
    }
    // Centre the face's ascender-to-descender box on the box's middle.
    let baseline = (box.midY + (m.ascender - m.descender) / 2).rounded()
    text.draw(
      s, at: Point(x.rounded(), baseline), size: size, weight: weight, color: color, tabular: tabular, into: &canvas)
    if recording {
      records.append(
        Record(
          text: s, box: box, x: x.rounded(), size: size, width: m.width, color: color, background: background,
          role: role, requested: pieces, pieces: fitted.pieces, overflows: !fitted.fits, bold: bold, align: align,
          baseline: baseline, ascender: m.ascender, descender: m.descender, title: title))
    }
    return m.width
  }

  /// The first of `candidates` that fits `width`, else the last (to be shortened when drawn):
  /// a long form and shorter ones, most informative first.
  public func firstFitting(
    _ candidates: [String], width: Double, size: Double, bold: Bool = false, tabular: Bool = false
  ) -> String {
    candidates.first { self.width($0, size: size, bold: bold, tabular: tabular) <= width } ?? candidates.last ?? ""
  }

  /// The width `string` would take.
  public func width(_ string: String, size: Double, bold: Bool = false, tabular: Bool = false) -> Double {
    text.measure(string, size: size, weight: bold ? .bold : .regular, tabular: tabular).width
  }
}

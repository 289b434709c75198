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
    public var text: String
    public var box: Rect
    /// Where the drawn text starts (its left edge) and how wide it is.
    public var x: Double
    public var size: Double
    public var width: Double
    public var color: RGBA
    public var background: RGBA
    public var role: Role
  }

  public let text: TextRenderer
  /// Everything drawn so far, when recording.
  public var records: [Record] = []
  public var recording = false

  public init(text: TextRenderer) { self.text = text }

  /// Draws `string` in `box`, vertically centred, fitted with an ellipsis (keeping its start, or
  /// with `keep: .end` its end). Returns the width drawn.
  @discardableResult
  public mutating func draw(
    _ string: String, in box: Rect, size: Double, color: RGBA, background: RGBA, align: Align = .left,
    bold: Bool = false, tabular: Bool = false, role: Role = .info, keep: TextRenderer.Keep = .start,
    canvas: inout Canvas
  ) -> Double {
    guard box.width > 0, box.height > 0, !string.isEmpty else { return 0 }
    let weight: Weight = bold ? .bold : .regular
    var s = string
    var m = text.measure(s, size: size, weight: weight, tabular: tabular)
    if m.width > box.width {
      s = text.fit(string, width: box.width, size: size, weight: weight, tabular: tabular, keep: keep)
      m = text.measure(s, size: size, weight: weight, tabular: tabular)
    }
    guard !s.isEmpty else { return 0 }
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
          role: role))
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

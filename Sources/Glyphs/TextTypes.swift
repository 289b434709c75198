/// Which face text is drawn in.
public enum Weight: UInt8, CaseIterable, Sendable {
  case regular
  case bold
}

/// Where a line of text sits across a rectangle.
public enum TextAlignment: Sendable {
  case left
  case center
  case right
}

/// The box a line of text occupies, in pixels.
public struct TextSize: Hashable, Sendable {
  /// The sum of the glyphs' advances and kerning: where the next text would start.
  public var width: Double
  /// From the baseline up to the face's ascender (positive).
  public var ascender: Double
  /// From the baseline down to the face's descender (positive).
  public var descender: Double
  /// `ascender + descender`.
  public var height: Double { ascender + descender }

  public init(width: Double, ascender: Double, descender: Double) {
    self.width = width
    self.ascender = ascender
    self.descender = descender
  }
}

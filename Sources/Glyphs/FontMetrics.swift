/// A face's vertical metrics at one pixel size, in pixels (from the face's `hhea` values).
public struct FontMetrics: Hashable, Sendable {
  /// How far the tallest glyphs reach above the baseline (positive).
  public var ascender: Double
  /// How far the deepest glyphs reach below the baseline (positive, unlike FreeType's).
  public var descender: Double
  /// The baseline-to-baseline distance the font designer recommends.
  public var lineHeight: Double

  public init(ascender: Double, descender: Double, lineHeight: Double) {
    self.ascender = ascender
    self.descender = descender
    self.lineHeight = lineHeight
  }
}

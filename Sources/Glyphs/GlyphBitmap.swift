/// One rendered glyph: an 8-bit coverage mask, where it sits relative to the pen, and how far it
/// moves the pen.
struct GlyphBitmap {
  /// Mask width in pixels; rows are exactly this many bytes apart.
  let width: Int
  /// Mask height in pixels.
  let height: Int
  /// From the pen position to the mask's left edge (FreeType's `bitmap_left`).
  let left: Int
  /// From the baseline up to the mask's top edge (FreeType's `bitmap_top`).
  let top: Int
  /// How far the pen moves, in pixels (hinted: whole pixels with light hinting).
  let advance: Double
  /// Coverage, 0…255, row by row from the top.
  let pixels: [UInt8]

  /// Nothing to draw and no advance.
  static let blank = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, advance: 0, pixels: [])

  /// What the cache counts this glyph as: its pixels plus a fixed allowance for the entry itself.
  var cost: Int { pixels.count + 96 }
}

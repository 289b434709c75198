/// A pixel size as the glyph cache keys it: rounded to the nearest quarter pixel, kept within
/// 1…1024 px.
///
/// Quarter pixels rather than whole ones because layouts scale text with the frame height and
/// FreeType scales outlines by the fractional size (20 and 20.5 px render differently); four
/// steps per pixel bound how many sizes a resizing window can put in the cache.
struct PixelSize: Hashable {
  static let minimum = 1.0
  static let maximum = 1024.0

  /// The size in quarter pixels.
  let quarters: Int32

  init(_ size: Double) {
    // Total: a size computed from odd data (NaN, an infinity, zero) draws at the nearest bound
    // rather than stopping the board.
    let clamped = size.isNaN ? PixelSize.minimum : min(max(size, PixelSize.minimum), PixelSize.maximum)
    quarters = Int32((clamped * 4).rounded())
  }

  /// The size in pixels.
  var pixels: Double { Double(quarters) / 4 }
}

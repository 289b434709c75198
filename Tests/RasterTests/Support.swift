import Raster

/// Helpers for measuring what the primitives drew.
enum Measure {
  static let black = RGBA(r: 0, g: 0, b: 0)
  static let white = RGBA(r: 255, g: 255, b: 255)

  /// A black canvas with `draw` applied.
  static func draw(width: Int = 96, height: Int = 64, _ draw: (inout Canvas) -> Void) -> Canvas {
    var c = Canvas(width: width, height: height, background: black)
    draw(&c)
    return c
  }

  /// The coverage at (x, y) of white drawn on black, 0…1.
  static func coverage(_ c: Canvas, _ x: Int, _ y: Int) -> Double { Double(c.pixel(x, y).g) / 255 }

  /// The total coverage (area in pixels) of white drawn on black, optionally where `include` holds.
  static func area(_ c: Canvas, where include: (Int, Int) -> Bool = { _, _ in true }) -> Double {
    var sum = 0.0
    for y in 0..<c.height {
      for x in 0..<c.width where include(x, y) { sum += coverage(c, x, y) }
    }
    return sum
  }
}

import FramebufferDisplay
import Raster

/// Canvases and an independent decoder for device pixels.
enum TestPixels {
  /// A canvas in which each row of at least 256 pixels holds every value of every channel:
  /// red `x + y`, green `3x + y`, blue `(255 - x) xor y` (mod 256).
  static func gradient(width: Int, height: Int, stride: Int? = nil) -> Canvas {
    var canvas = Canvas(width: width, height: height, stride: stride)
    for y in 0..<height {
      for x in 0..<width {
        let r = UInt32((x + y) & 0xFF)
        let g = UInt32((3 * x + y) & 0xFF)
        let b = UInt32(((255 - x) & 0xFF) ^ (y & 0xFF))
        canvas[x: x, y: y] = 0xFF00_0000 | r << 16 | g << 8 | b
      }
    }
    return canvas
  }

  /// A canvas of one colour.
  static func solid(width: Int, height: Int, _ rgb: UInt32) -> Canvas {
    var canvas = Canvas(width: width, height: height)
    canvas.fill(canvas.bounds, Canvas.unpack(rgb))
    return canvas
  }

  /// The little-endian pixel of `bytes` bytes at `offset`.
  static func load(_ memory: UnsafeRawBufferPointer, at offset: Int, bytes: Int) -> UInt32 {
    var v: UInt32 = 0
    for i in 0..<bytes { v |= UInt32(memory[offset + i]) << (8 * i) }
    return v
  }

  /// The channel `field` of a device pixel.
  static func channel(_ pixel: UInt32, _ field: Bitfield) -> UInt32 {
    (pixel >> field.offset) & ((1 << field.length) - 1)
  }

  /// Where the first pixel differing from the canvas (channels truncated to the device's widths)
  /// is, with both values; `nil` when the `width` × `height` overlap matches.
  static func firstMismatch(
    _ canvas: Canvas, _ memory: UnsafeRawBufferPointer, base: Int = 0, lineLength: Int, format: PixelFormat,
    width: Int? = nil, height: Int? = nil
  ) -> String? {
    let bpp = format.bitsPerPixel / 8
    for y in 0..<(height ?? canvas.height) {
      for x in 0..<(width ?? canvas.width) {
        let p = load(memory, at: base + y * lineLength + x * bpp, bytes: bpp)
        let c = canvas[x: x, y: y]
        let want = (
          ((c >> 16) & 0xFF) >> (8 - format.red.length), ((c >> 8) & 0xFF) >> (8 - format.green.length),
          (c & 0xFF) >> (8 - format.blue.length)
        )
        let got = (channel(p, format.red), channel(p, format.green), channel(p, format.blue))
        let alphaOK = format.transp.length == 0 || channel(p, format.transp) == (1 << format.transp.length) - 1
        if got != want || !alphaOK {
          return "(\(x), \(y)): canvas \(String(c, radix: 16)), device \(String(p, radix: 16)), want \(want)"
        }
      }
    }
    return nil
  }
}

public import Raster

extension Canvas {
  /// This canvas moved by (dx, dy); the uncovered edge takes `fill`.
  public func shifted(dx: Int, dy: Int, fill: RGBA) -> Canvas {
    if dx == 0 && dy == 0 { return self }
    var out = Canvas(width: width, height: height, background: fill)
    let w = width
    let s = stride
    pixels.withUnsafeBufferPointer { src in
      out.pixels.withUnsafeMutableBufferPointer { dst in
        for y in max(0, dy)..<min(height, height + dy) {
          let sy = y - dy
          let x0 = max(0, dx)
          let x1 = min(w, w + dx)
          guard x0 < x1 else { continue }
          for x in x0..<x1 { dst[y * w + x] = src[sy * s + x - dx] }
        }
      }
    }
    return out
  }

  /// Every pixel scaled towards black, keeping `fraction` (0…1) of its brightness.
  public mutating func dim(keeping fraction: Double) {
    let f = UInt32((max(0, min(1, fraction)) * 256).rounded())
    if f >= 256 { return }
    pixels.withUnsafeMutableBufferPointer { buf in
      for i in buf.indices {
        let p = buf[i]
        let r = (((p >> 16) & 0xFF) * f) >> 8
        let g = (((p >> 8) & 0xFF) * f) >> 8
        let b = ((p & 0xFF) * f) >> 8
        buf[i] = 0xFF00_0000 | r << 16 | g << 8 | b
      }
    }
  }
}

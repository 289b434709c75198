/// Copies of a canvas at another size: box-filtered downscaling and cropping.
extension Canvas {
  /// This canvas shrunk by `factor` in each direction, each pixel the rounded mean of its
  /// `factor` × `factor` block (blocks at the right and bottom edges may be partial).
  public func downscaled(by factor: Int) -> Canvas {
    precondition(factor >= 1, "a downscaling factor must be at least 1, not \(factor)")
    let w = (width + factor - 1) / factor
    let h = (height + factor - 1) / factor
    var out = Canvas(width: w, height: h)
    var sums = [UInt32](repeating: 0, count: w * 3)
    withUnsafePixels { pixels in
      out.withUnsafeMutablePixels { dst in
        for oy in 0..<h {
          let y0 = oy * factor
          let y1 = min(y0 + factor, height)
          for i in sums.indices { sums[i] = 0 }
          for y in y0..<y1 {
            let row = y * stride
            for x in 0..<width {
              let p = pixels[row + x]
              let o = (x / factor) * 3
              sums[o] += (p >> 16) & 0xFF
              sums[o + 1] += (p >> 8) & 0xFF
              sums[o + 2] += p & 0xFF
            }
          }
          for ox in 0..<w {
            let count = UInt32((min((ox + 1) * factor, width) - ox * factor) * (y1 - y0))
            @inline(__always) func mean(_ s: UInt32) -> UInt32 { (s + count / 2) / count }
            dst[oy * w + ox] =
              0xFF00_0000 | mean(sums[ox * 3]) << 16 | mean(sums[ox * 3 + 1]) << 8 | mean(sums[ox * 3 + 2])
          }
        }
      }
    }
    return out
  }

  /// A new canvas (stride = width, clip = all) holding the pixels of `rect` within this one.
  public func cropped(_ rect: IRect) -> Canvas {
    let r = rect.intersection(bounds)
    precondition(!r.isEmpty, "crop \(rect) does not overlap the \(width)x\(height) canvas")
    var out = Canvas(width: r.width, height: r.height)
    withUnsafePixels { src in
      out.withUnsafeMutablePixels { dst in
        for y in 0..<r.height {
          (dst.baseAddress! + y * r.width).update(from: src.baseAddress! + (r.y + y) * stride + r.x, count: r.width)
        }
      }
    }
    return out
  }
}

extension Canvas {
  /// The canvas turned clockwise by `degrees` (0, 90, 180 or 270).
  public func rotated(degrees: Int) -> Canvas {
    precondition([0, 90, 180, 270].contains(degrees), "rotation \(degrees) is not 0, 90, 180 or 270")
    if degrees == 0 { return self }
    let (w, h) = degrees == 180 ? (width, height) : (height, width)
    var out = Canvas(width: w, height: h)
    withUnsafePixels { src in
      out.withUnsafeMutablePixels { dst in
        for y in 0..<height {
          for x in 0..<width {
            let (nx, ny): (Int, Int)
            switch degrees {
            case 90: (nx, ny) = (height - 1 - y, x)
            case 180: (nx, ny) = (width - 1 - x, height - 1 - y)
            default: (nx, ny) = (y, width - 1 - x)
            }
            dst[ny * w + nx] = src[y * stride + x]
          }
        }
      }
    }
    return out
  }
}

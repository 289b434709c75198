public import Raster

extension Canvas {
  /// This canvas moved by (dx, dy); the uncovered edge takes `fill`.
  public func shifted(dx: Int, dy: Int, fill: RGBA) -> Canvas {
    if dx == 0 && dy == 0 { return self }
    var out = Canvas(width: width, height: height, background: fill)
    let w = width
    let s = stride
    withUnsafePixels { src in
      out.withUnsafeMutablePixels { dst in
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
    let f = Self.dimFactor(fraction)
    if f >= 256 { return }
    let (w, h, s) = (width, height, stride)
    withUnsafeMutablePixels { buf in
      for y in 0..<h {
        for i in (y * s)..<(y * s + w) { buf[i] = Self.dimmed(buf[i], f) }
      }
    }
  }

  /// `dim`'s factor out of 256.
  static func dimFactor(_ fraction: Double) -> UInt32 { UInt32((max(0, min(1, fraction)) * 256).rounded()) }

  @inline(__always) static func dimmed(_ p: UInt32, _ f: UInt32) -> UInt32 {
    let r = (((p >> 16) & 0xFF) * f) >> 8
    let g = (((p >> 8) & 0xFF) * f) >> 8
    let b = ((p & 0xFF) * f) >> 8
    return 0xFF00_0000 | r << 16 | g << 8 | b
  }

  /// Where `rect` of a `width`×`height` board lands on the screen when the board is turned
  /// clockwise by `rotation` degrees and moved by (dx, dy) — clipped to a screen of this canvas's
  /// size — after `rotated(degrees:)` then `shifted(dx:dy:fill:)`.
  public func screenRect(
    of rect: IRect, boardWidth w: Int, boardHeight h: Int, rotation: Int, dx: Int, dy: Int
  ) -> IRect {
    var r: IRect
    switch rotation {
    case 90: r = IRect(x: h - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
    case 180: r = IRect(x: w - rect.x - rect.width, y: h - rect.y - rect.height, width: rect.width, height: rect.height)
    case 270: r = IRect(x: rect.y, y: w - rect.x - rect.width, width: rect.height, height: rect.width)
    default: r = rect
    }
    r.x += dx
    r.y += dy
    return r.intersection(bounds)
  }

  /// Redraws, on this screen-sized canvas, the part of the screen that `rect` of `board` covers:
  /// the same pixels `board.rotated(degrees:).shifted(dx:dy:fill:)` (then `dim(keeping:)`, when
  /// `keeping` is given) has there. Returns the screen rectangle redrawn (empty when off screen).
  /// The edge a shift uncovers lies outside every such rectangle: it keeps its fill.
  @discardableResult
  public mutating func redraw(
    _ rect: IRect, of board: Canvas, rotation: Int, dx: Int, dy: Int, keeping: Double? = nil
  ) -> IRect {
    let w = board.width
    let h = board.height
    let s = screenRect(
      of: rect.intersection(board.bounds), boardWidth: w, boardHeight: h, rotation: rotation, dx: dx, dy: dy)
    guard s.width > 0 && s.height > 0 else { return s }
    let f = keeping.map(Self.dimFactor) ?? 256
    let bs = board.stride
    let os = stride
    board.withUnsafePixels { src in
      withUnsafeMutablePixels { dst in
        if rotation == 0 {
          // Unturned (the usual case: a moved frame): whole rows at a time.
          for sy in s.y..<(s.y + s.height) {
            let from = src.baseAddress! + (sy - dy) * bs + (s.x - dx)
            let to = dst.baseAddress! + sy * os + s.x
            if f >= 256 {
              to.update(from: from, count: s.width)
            } else {
              for i in 0..<s.width { to[i] = Self.dimmed(from[i], f) }
            }
          }
          return
        }
        for sy in s.y..<(s.y + s.height) {
          for sx in s.x..<(s.x + s.width) {
            // The rotated board's pixel (u, v), then the board's own (x, y).
            let u = sx - dx
            let v = sy - dy
            let (x, y): (Int, Int)
            switch rotation {
            case 90: (x, y) = (v, h - 1 - u)
            case 180: (x, y) = (w - 1 - u, h - 1 - v)
            case 270: (x, y) = (w - 1 - v, u)
            default: (x, y) = (u, v)
            }
            let p = src[y * bs + x]
            dst[sy * os + sx] = f >= 256 ? p : Self.dimmed(p, f)
          }
        }
      }
    }
    return s
  }
}

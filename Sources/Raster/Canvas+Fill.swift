/// Filled shapes: paths, rectangles, rounded rectangles, circles and rings, anti-aliased.
///
/// Every primitive multiplies its coverage by the colour's alpha, blends source-over with
/// `Canvas.blendPixel`, and draws only inside `clip`.
extension Canvas {
  /// Fills `path` with the nonzero winding rule.
  public mutating func fill(_ path: Path, _ color: RGBA) {
    var rasterizer = Rasterizer.take()
    rasterizer.fill(path, color, into: &self)
    Rasterizer.give(rasterizer)
  }

  /// Fills a rectangle with fractional edges: whole pixels inside are written directly and
  /// only the edge pixels are blended with their exact covered area.
  public mutating func fill(_ rect: Rect, _ color: RGBA) {
    guard color.a > 0, !rect.isEmpty, rect.x.isFinite, rect.y.isFinite, rect.width.isFinite,
      rect.height.isFinite
    else { return }
    let area = rect.enclosing.intersection(clip)
    guard !area.isEmpty else { return }
    let x0 = rect.minX
    let x1 = rect.maxX
    let y0 = rect.minY
    let y1 = rect.maxY
    @inline(__always) func cover(_ p: Int, _ lo: Double, _ hi: Double) -> Double {
      max(0, min(hi, Double(p + 1)) - max(lo, Double(p)))
    }
    let ca = Double(color.a)
    let packed = Canvas.pack(color)
    let firstX = area.x
    let lastX = area.maxX - 1
    let coverFirst = cover(firstX, x0, x1)
    let coverLast = cover(lastX, x0, x1)
    let s = stride
    withDrawablePixels { buf, origin in
      @inline(__always) func put(_ i: Int, _ coverage: Double) {
        let a = UInt32(saturating: coverage * ca, .toNearestOrAwayFromZero)
        if a >= 255 {
          buf[i] = packed
        } else if a > 0 {
          buf[i] = Canvas.blendPixel(buf[i], color, alpha: a)
        }
      }
      for y in area.y..<area.maxY {
        let cy = cover(y, y0, y1)
        let row = origin + y * s
        put(row + firstX, cy * coverFirst)
        if lastX > firstX { put(row + lastX, cy * coverLast) }
        guard lastX - firstX > 1 else { continue }
        let a = UInt32(saturating: cy * ca, .toNearestOrAwayFromZero)
        if a >= 255 {
          for i in (row + firstX + 1)..<(row + lastX) { buf[i] = packed }
        } else if a > 0 {
          for i in (row + firstX + 1)..<(row + lastX) { buf[i] = Canvas.blendPixel(buf[i], color, alpha: a) }
        }
      }
    }
  }

  /// Fills a rectangle with corners rounded to `radius` (clamped to half the shorter side).
  public mutating func fillRoundedRect(_ rect: Rect, radius: Double, _ color: RGBA) {
    guard radius > 0 else { return fill(rect, color) }
    var path = Path()
    path.addRoundedRect(rect, radius: radius)
    fill(path, color)
  }

  /// Strokes a rounded rectangle's outline `width` pixels wide, inside `rect`.
  ///
  /// The inner edge is the rectangle inset by `width` with its radius reduced by `width`, so
  /// the band has an even width all round.
  public mutating func strokeRoundedRect(_ rect: Rect, radius: Double, width: Double, _ color: RGBA) {
    guard width > 0, !rect.isEmpty else { return }
    var path = Path()
    path.addRoundedRect(rect, radius: radius)
    let inner = rect.inset(width)
    if !inner.isEmpty {
      let r = max(0, min(radius, rect.width / 2, rect.height / 2))
      path.addRoundedRect(inner, radius: max(0, r - width), clockwise: false)
    }
    fill(path, color)
  }

  /// Fills a disc.
  public mutating func fillCircle(center: Point, radius: Double, _ color: RGBA) {
    var path = Path()
    path.addCircle(center: center, radius: radius)
    fill(path, color)
  }

  /// Draws a circle's outline `width` pixels wide; `radius` is the outer radius.
  public mutating func ring(center: Point, radius: Double, width: Double, _ color: RGBA) {
    guard width > 0, radius > 0 else { return }
    var path = Path()
    path.addCircle(center: center, radius: radius)
    path.addCircle(center: center, radius: radius - width, clockwise: false)
    fill(path, color)
  }
}

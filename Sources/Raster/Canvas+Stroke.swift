#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stroked lines, polylines and arcs, anti-aliased.
extension Canvas {
  /// Draws a straight line `width` pixels wide, centred on the segment from `from` to `to`.
  public mutating func line(from: Point, to: Point, width: Double, _ color: RGBA, cap: LineCap = .butt) {
    var path = Path()
    path.addStroke([from, to], width: width, cap: cap)
    fill(path, color)
  }

  /// Draws connected segments `width` pixels wide through `points`.
  ///
  /// The stroke is filled once as a whole, so a translucent colour does not darken at joins.
  public mutating func polyline(
    _ points: [Point], width: Double, _ color: RGBA, join: LineJoin = .round, cap: LineCap = .butt
  ) {
    var path = Path()
    path.addStroke(points, width: width, join: join, cap: cap)
    fill(path, color)
  }

  /// Draws an arc of a circle, `width` pixels wide, inside `radius` (the outer radius, as for
  /// `ring`), from `startAngle` to `endAngle`.
  ///
  /// Angles are in radians on a clock face: 0 is 12 o'clock and positive angles turn clockwise
  /// on screen, so a progress ring of fraction f is `startAngle: 0, endAngle: 2 * .pi * f`.
  /// An end angle below the start draws anticlockwise; a sweep of a full turn or more draws a
  /// whole ring. Caps sit on the stroke's middle radius.
  public mutating func arc(
    center: Point, radius: Double, width: Double, startAngle: Double, endAngle: Double, _ color: RGBA,
    cap: LineCap = .butt
  ) {
    guard width > 0, radius > 0, startAngle.isFinite, endAngle.isFinite else { return }
    let sweep = endAngle - startAngle
    if abs(sweep) >= 2 * .pi - 1e-9 {
      return ring(center: center, radius: radius, width: width, color)
    }
    let w = min(width, radius)
    var path = Path()
    if sweep != 0 {
      var band: [Point] = []
      Path.appendArc(&band, center, radius, startAngle, endAngle)
      if radius - w > 0 {
        Path.appendArc(&band, center, radius - w, endAngle, startAngle)
      } else {
        band.append(center)
      }
      path.addPolygon(band)
    }
    let mid = radius - w / 2
    let h = w / 2
    switch cap {
    case .butt: break
    case .round:
      path.addCircle(center: Path.clockPoint(center, mid, startAngle), radius: h)
      path.addCircle(center: Path.clockPoint(center, mid, endAngle), radius: h)
    case .square:
      let direction: Double = sweep < 0 ? -1 : 1
      path.addSquareCap(center, mid, h, startAngle, outward: -direction)
      path.addSquareCap(center, mid, h, endAngle, outward: direction)
    }
    fill(path, color)
  }
}

extension Path {
  /// Adds a square cap at clock angle `a` on the circle of radius `r` around `c`, extending
  /// `h` along the tangent (`outward` = +1 clockwise, −1 anticlockwise) and `h` either side.
  fileprivate mutating func addSquareCap(_ c: Point, _ r: Double, _ h: Double, _ a: Double, outward: Double) {
    let p = Path.clockPoint(c, r, a)
    let radial = Point(sin(a) * h, -cos(a) * h)
    let t = Point(cos(a) * h * outward, sin(a) * h * outward)
    addPolygon([
      Point(p.x + radial.x, p.y + radial.y), Point(p.x + radial.x + t.x, p.y + radial.y + t.y),
      Point(p.x - radial.x + t.x, p.y - radial.y + t.y), Point(p.x - radial.x, p.y - radial.y),
    ])
  }
}

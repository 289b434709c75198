#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the ends of an open stroke are drawn.
public enum LineCap: Sendable, Hashable {
  /// The stroke stops square at the end point.
  case butt
  /// A half disc of the stroke's width is added at each end.
  case round
  /// The stroke goes on for half its width past each end, square.
  case square
}

/// How a stroke turns at a polyline's inner vertices.
public enum LineJoin: Sendable, Hashable {
  /// A circular arc around the vertex.
  case round
  /// A straight cut across the outer corner.
  case bevel
}

extension Path {
  /// Adds the stroke of an open polyline as a union of clockwise pieces: one quadrilateral per
  /// segment, plus join pieces at inner vertices and cap pieces at the ends.
  ///
  /// The pieces overlap; the nonzero rule covers each pixel once, so a translucent stroke does
  /// not darken where pieces meet.
  public mutating func addStroke(_ polyline: [Point], width: Double, join: LineJoin = .round, cap: LineCap = .butt) {
    guard width > 0, width.isFinite else { return }
    let h = width / 2
    var pts: [Point] = []
    pts.reserveCapacity(polyline.count)
    for p in polyline where p.x.isFinite && p.y.isFinite {
      if let last = pts.last, abs(last.x - p.x) < 1e-9, abs(last.y - p.y) < 1e-9 { continue }
      pts.append(p)
    }
    guard let first = pts.first, let last = pts.last else { return }
    if pts.count == 1 {
      switch cap {
      case .butt: break
      case .round: addCircle(center: first, radius: h)
      case .square:
        addPolygon([
          Point(first.x - h, first.y - h), Point(first.x + h, first.y - h),
          Point(first.x + h, first.y + h), Point(first.x - h, first.y + h),
        ])
      }
      return
    }
    switch cap {
    case .butt: break
    case .round:
      addCircle(center: first, radius: h)
      addCircle(center: last, radius: h)
    case .square:
      let d0 = Path.unit(pts[0], pts[1])
      let d1 = Path.unit(pts[pts.count - 2], last)
      pts[0] = Point(first.x - d0.x * h, first.y - d0.y * h)
      pts[pts.count - 1] = Point(last.x + d1.x * h, last.y + d1.y * h)
    }
    for i in 0..<(pts.count - 1) {
      let a = pts[i]
      let b = pts[i + 1]
      let d = Path.unit(a, b)
      let n = Point(-d.y * h, d.x * h)
      addPolygon([
        Point(a.x + n.x, a.y + n.y), Point(b.x + n.x, b.y + n.y), Point(b.x - n.x, b.y - n.y),
        Point(a.x - n.x, a.y - n.y),
      ])
    }
    guard pts.count > 2 else { return }
    for i in 1..<(pts.count - 1) {
      addJoin(pts[i - 1], pts[i], pts[i + 1], h, join)
    }
  }

  /// Adds the piece that fills the outer corner at `v` between segments a→v and v→b.
  private mutating func addJoin(_ a: Point, _ v: Point, _ b: Point, _ h: Double, _ join: LineJoin) {
    let d1 = Path.unit(a, v)
    let d2 = Path.unit(v, b)
    let cross = d1.x * d2.y - d1.y * d2.x
    let dot = d1.x * d2.x + d1.y * d2.y
    if abs(cross) < 1e-12 && dot > 0 { return }
    // The outer side is the one the path turns away from.
    let s: Double = cross > 0 ? -1 : 1
    let u1 = Point(-d1.y * s, d1.x * s)
    let u2 = Point(-d2.y * s, d2.x * s)
    switch join {
    case .bevel:
      addPolygon([v, Point(v.x + u1.x * h, v.y + u1.y * h), Point(v.x + u2.x * h, v.y + u2.y * h)])
    case .round:
      let la = Path.distance(a, v)
      let lb = Path.distance(v, b)
      if la < h || lb < h || dot <= 0 {
        // Short segments (or a sharp turn) do not cover the disc's inner half: add it whole.
        addCircle(center: v, radius: h)
        return
      }
      let a1 = atan2(u1.x, -u1.y)
      var sweep = atan2(u2.x, -u2.y) - a1
      if sweep > .pi { sweep -= 2 * .pi }
      if sweep < -.pi { sweep += 2 * .pi }
      var wedge: [Point] = [v]
      Path.appendArc(&wedge, v, h, a1, a1 + sweep)
      addPolygon(wedge)
    }
  }

  @inline(__always)
  static func distance(_ a: Point, _ b: Point) -> Double {
    ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
  }

  /// The unit vector from `a` towards `b` (which differ).
  @inline(__always)
  static func unit(_ a: Point, _ b: Point) -> Point {
    let l = distance(a, b)
    return Point((b.x - a.x) / l, (b.y - a.y) / l)
  }
}

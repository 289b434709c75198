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
  /// Adds the stroke of an open polyline as one closed outline: the left offsets forwards, the
  /// end cap, the right offsets backwards, the start cap.
  ///
  /// On the outer side of each turn the outline follows the join (an arc or a bevel); on the
  /// inner side it pivots through the vertex itself. As a chain that outline is the sum of the
  /// segments' rectangles, the outer join wedges and the caps, all turning the same way, so the
  /// nonzero rule fills their union: overlaps and self-crossings are covered once, and a
  /// translucent stroke does not darken where pieces meet.
  public mutating func addStroke(_ polyline: [Point], width: Double, join: LineJoin = .round, cap: LineCap = .butt) {
    guard width > 0, width.isFinite else { return }
    let h = width / 2
    // Drop repeated and non-finite points (copying only when there are any).
    var clean = true
    for (i, p) in polyline.enumerated() {
      if !p.x.isFinite || !p.y.isFinite || (i > 0 && Path.same(polyline[i - 1], p)) {
        clean = false
        break
      }
    }
    var pts = polyline
    if !clean {
      pts.removeAll(keepingCapacity: true)
      for p in polyline where p.x.isFinite && p.y.isFinite {
        if let last = pts.last, Path.same(last, p) { continue }
        pts.append(p)
      }
    }
    guard let first = pts.first else { return }
    if pts.count == 1 {
      switch cap {
      case .butt: break
      case .round: addCircle(center: first, radius: h)
      case .square:
        addPolygon([
          Point(first.x - h, first.y - h), Point(first.x + h, first.y - h), Point(first.x + h, first.y + h),
          Point(first.x - h, first.y + h),
        ])
      }
      return
    }
    let m = pts.count - 1
    /// The unit direction of segment i.
    func dir(_ i: Int) -> Point { Path.unit(pts[i], pts[i + 1]) }
    // Left side, forwards. The left offset of direction d is (−d.y, d.x)·h.
    var d = dir(0)
    move(to: Path.offset(pts[0], d, h))
    for i in 0..<m {
      points.append(Path.offset(pts[i + 1], d, h))
      if i + 1 < m {
        let e = dir(i + 1)
        appendJoin(pts[i + 1], d, e, h, join)
        d = e
      }
    }
    appendCap(pts[m], d, h, cap)
    // Right side, backwards: the same path reversed, so its left is the stroke's right.
    var back = Point(-d.x, -d.y)
    for i in stride(from: m - 1, through: 0, by: -1) {
      points.append(Path.offset(pts[i], back, h))
      if i > 0 {
        let e = dir(i - 1)
        let next = Point(-e.x, -e.y)
        appendJoin(pts[i], back, next, h, join)
        back = next
      }
    }
    appendCap(pts[0], back, h, cap)
    close()
  }

  /// The point `h` to the left of `p` for travel along `d`.
  @inline(__always)
  static func offset(_ p: Point, _ d: Point, _ h: Double) -> Point { Point(p.x - d.y * h, p.y + d.x * h) }

  /// Continues the left-side outline round vertex `v`, from the offset of the incoming direction
  /// `d1` to that of the outgoing `d2`: along the join when the left is the outer side, else
  /// through `v`.
  private mutating func appendJoin(_ v: Point, _ d1: Point, _ d2: Point, _ h: Double, _ join: LineJoin) {
    let cross = d1.x * d2.y - d1.y * d2.x
    let dot = d1.x * d2.x + d1.y * d2.y
    if abs(cross) < 1e-12 && dot > 0 { return }
    let to = Path.offset(v, d2, h)
    // The left, (−d.y, d.x), is the outer side when the path turns towards −left: cross < 0 on
    // a y-down screen. A full reversal (cross ≈ 0) takes the left as outer.
    let leftIsOuter = cross < 0 || (abs(cross) < 1e-12)
    guard leftIsOuter else {
      points.append(v)
      points.append(to)
      return
    }
    switch join {
    case .bevel:
      points.append(to)
    case .round:
      let fromOffset = Path.offset(v, d1, h)
      let a1 = atan2(fromOffset.x - v.x, -(fromOffset.y - v.y))
      var sweep = atan2(to.x - v.x, -(to.y - v.y)) - a1
      if sweep > .pi { sweep -= 2 * .pi }
      if sweep < -.pi { sweep += 2 * .pi }
      // The arc must bulge forwards, along d1 (this only matters for a full reversal).
      let mid = a1 + sweep / 2
      if sin(mid) * d1.x - cos(mid) * d1.y < 0 { sweep += sweep > 0 ? -2 * .pi : 2 * .pi }
      Path.appendArc(&points, v, h, a1, a1 + sweep, skipFirst: true)
    }
  }

  /// Continues the outline across the end `p` of travel along `d`, from its left offset to its right.
  private mutating func appendCap(_ p: Point, _ d: Point, _ h: Double, _ cap: LineCap) {
    let right = Point(p.x + d.y * h, p.y - d.x * h)
    switch cap {
    case .butt:
      points.append(right)
    case .square:
      let left = Path.offset(p, d, h)
      points.append(Point(left.x + d.x * h, left.y + d.y * h))
      points.append(Point(right.x + d.x * h, right.y + d.y * h))
      points.append(right)
    case .round:
      let left = Path.offset(p, d, h)
      let a1 = atan2(left.x - p.x, -(left.y - p.y))
      // From the left round the front to the right: a half turn, bulging along d.
      let mid = a1 + .pi / 2
      let sweep: Double = sin(mid) * d.x - cos(mid) * d.y >= 0 ? .pi : -.pi
      Path.appendArc(&points, p, h, a1, a1 + sweep, skipFirst: true)
    }
  }

  /// True when two points are the same to within a billionth of a pixel.
  @inline(__always)
  static func same(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

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

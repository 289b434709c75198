#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A set of closed polygons (contours) in pixel space, filled with the nonzero winding rule.
///
/// Curves are flattened to line segments as they are added, within `Path.tolerance` pixels.
/// Every contour is closed when filled. Because the fill rule is nonzero, contours with the same
/// orientation form a union (overlaps are covered once), and a contour with the opposite
/// orientation inside another cuts a hole.
///
/// Angles follow the clock: 0 is 12 o'clock and positive angles turn clockwise on screen, in
/// radians. "Clockwise" means clockwise as seen on screen, where y grows downwards.
public struct Path: Sendable {
  /// How far a flattened curve may stray from the true curve, in pixels.
  public static let tolerance = 0.2

  /// Every contour's points, one contour after another.
  public internal(set) var points: [Point] = []
  /// The index in `points` where each contour begins.
  public private(set) var contourStarts: [Int] = []
  /// True after `close()`: the next `line(to:)` starts a new contour at the closed one's start.
  private var closed = true

  /// An empty path.
  public init() {}

  /// True when the path has no points.
  public var isEmpty: Bool { points.isEmpty }

  /// The number of contours.
  public var contourCount: Int { contourStarts.count }

  /// The points of contour `i`.
  public func contour(_ i: Int) -> ArraySlice<Point> {
    let end = i + 1 < contourStarts.count ? contourStarts[i + 1] : points.count
    return points[contourStarts[i]..<end]
  }

  /// The smallest rectangle holding every point, or nil for an empty path. When a point is NaN
  /// or infinite the rectangle is NaN (`min` and `max` would skip a NaN): such a path is
  /// filled as nothing.
  public var bounds: Rect? {
    guard var x0 = points.first?.x, var y0 = points.first?.y else { return nil }
    var x1 = x0
    var y1 = y0
    for p in points {
      guard p.x.isFinite && p.y.isFinite else { return Rect(x: .nan, y: .nan, width: .nan, height: .nan) }
      x0 = min(x0, p.x)
      x1 = max(x1, p.x)
      y0 = min(y0, p.y)
      y1 = max(y1, p.y)
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Starts a new contour at `p`.
  public mutating func move(to p: Point) {
    contourStarts.append(points.count)
    points.append(p)
    closed = false
  }

  /// Adds a straight edge from the current point to `p` (starting a contour if there is none).
  public mutating func line(to p: Point) {
    if closed {
      move(to: contourStarts.last.map { points[$0] } ?? p)
      if points.count == 1 && p == points[0] { return }
    }
    points.append(p)
  }

  /// Closes the current contour; the next edge starts a new contour at this one's first point.
  public mutating func close() { closed = true }

  /// Adds a closed polygon, reversed if needed so that it turns `clockwise` (or anticlockwise).
  public mutating func addPolygon<C: Collection<Point>>(_ polygon: C, clockwise: Bool = true) {
    guard polygon.count >= 3 else { return }
    let reverse = (Path.signedArea(polygon) >= 0) != clockwise
    let start = points.count
    points.append(contentsOf: polygon)
    if reverse { points[start...].reverse() }
    contourStarts.append(start)
    closed = true
  }

  /// Adds a closed circle (flattened, with the same area as the true circle).
  public mutating func addCircle(center c: Point, radius r: Double, clockwise: Bool = true) {
    guard r > 0, r.isFinite else { return }
    // A multiple of 4 keeps the polygon symmetric about both axes.
    let n = max((Path.segments(radius: r, sweep: 2 * .pi) + 3) / 4 * 4, 8)
    let step = 2 * .pi / Double(n)
    // Vertices slightly outside the circle, so the polygon's area equals πr².
    let rv = r * (step / sin(step)).squareRoot()
    // Clock angles increase clockwise, so the points run clockwise.
    contourStarts.append(points.count)
    let direction: Double = clockwise ? 1 : -1
    for i in 0..<n { points.append(Path.clockPoint(c, rv, direction * Double(i) * step)) }
    closed = true
  }

  /// Adds a closed rounded rectangle; `radius` is clamped to half the shorter side.
  public mutating func addRoundedRect(_ rect: Rect, radius: Double, clockwise: Bool = true) {
    guard !rect.isEmpty else { return }
    let r = max(0, min(radius, rect.width / 2, rect.height / 2))
    var polygon: [Point] = []
    if r < 0.01 {
      polygon = [
        Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY), Point(rect.maxX, rect.maxY),
        Point(rect.minX, rect.maxY),
      ]
    } else {
      let q = Double.pi / 2
      Path.appendArc(&polygon, Point(rect.minX + r, rect.minY + r), r, 3 * q, 4 * q)
      Path.appendArc(&polygon, Point(rect.maxX - r, rect.minY + r), r, 0, q)
      Path.appendArc(&polygon, Point(rect.maxX - r, rect.maxY - r), r, q, 2 * q)
      Path.appendArc(&polygon, Point(rect.minX + r, rect.maxY - r), r, 2 * q, 3 * q)
    }
    addPolygon(polygon, clockwise: clockwise)
  }

  /// Adds edges along a circular arc from `startAngle` to `endAngle` (clock angles, radians),
  /// continuing the current contour (or starting one at the arc's first point).
  public mutating func addArc(center c: Point, radius r: Double, startAngle a0: Double, endAngle a1: Double) {
    var arc: [Point] = []
    Path.appendArc(&arc, c, r, a0, a1)
    for (i, p) in arc.enumerated() {
      if i == 0 && closed { move(to: p) } else { line(to: p) }
    }
  }

  // MARK: Flattening helpers

  /// The point at clock angle `a` on the circle of radius `r` around `c`.
  @inline(__always)
  static func clockPoint(_ c: Point, _ r: Double, _ a: Double) -> Point {
    Point(c.x + r * sin(a), c.y - r * cos(a))
  }

  /// How many segments keep an arc of `radius` and `sweep` within the tolerance.
  static func segments(radius r: Double, sweep: Double) -> Int {
    let s = abs(sweep)
    guard r > tolerance else { return min(1024, max(1, Int(saturating: s / (.pi / 2), .up))) }
    let step = 2 * acos(1 - tolerance / r)
    return min(1024, max(1, Int(saturating: s / step, .up)))
  }

  /// Appends an arc's points: its ends exactly on the circle, the points between nudged outwards
  /// so that the flattened arc keeps the true arc's area.
  static func appendArc(
    _ out: inout [Point], _ c: Point, _ r: Double, _ a0: Double, _ a1: Double, skipFirst: Bool = false
  ) {
    let n = segments(radius: r, sweep: a1 - a0)
    let step = (a1 - a0) / Double(n)
    let rv = abs(step) > 1e-9 ? r * (abs(step) / sin(abs(step))).squareRoot() : r
    if !skipFirst { out.append(clockPoint(c, r, a0)) }
    if n > 1 {
      for i in 1..<n { out.append(clockPoint(c, rv, a0 + Double(i) * step)) }
    }
    out.append(clockPoint(c, r, a1))
  }

  /// The shoelace area, positive for clockwise polygons on a y-down screen.
  static func signedArea<C: Collection<Point>>(_ polygon: C) -> Double {
    guard var prev = polygon.first else { return 0 }
    var sum = 0.0
    for p in polygon.dropFirst() {
      sum += prev.x * p.y - p.x * prev.y
      prev = p
    }
    let first = polygon.first!
    sum += prev.x * first.y - first.x * prev.y
    return sum / 2
  }
}

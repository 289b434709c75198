/// Dashed lines and polylines, anti-aliased.
extension Canvas {
  /// Draws a dashed line: `dash` pixels drawn, `gap` pixels skipped, starting with a dash.
  public mutating func dashedLine(
    from: Point, to: Point, width: Double, dash: Double, gap: Double, _ color: RGBA, cap: LineCap = .butt
  ) {
    dashedPolyline([from, to], width: width, dash: dash, gap: gap, color, cap: cap)
  }

  /// Draws a dashed polyline; the dash pattern runs on across vertices (a dash that spans a
  /// vertex bends round it with a round join), starting with a dash at the first point.
  ///
  /// Dashes shorter than a quarter pixel are lengthened to a quarter pixel. A gap of zero
  /// draws a solid polyline.
  public mutating func dashedPolyline(
    _ points: [Point], width: Double, dash: Double, gap: Double, _ color: RGBA, cap: LineCap = .butt
  ) {
    guard width > 0, dash > 0, dash.isFinite, gap.isFinite else { return }
    guard gap > 0 else { return polyline(points, width: width, color, cap: cap) }
    var path = Path()
    Path.dashes(points, dash: max(dash, 0.25), gap: max(gap, 0.25)) { piece in
      path.addStroke(piece, width: width, join: .round, cap: cap)
    }
    fill(path, color)
  }
}

extension Path {
  /// Cuts `points` into dashes of length `dash` separated by `gap`, passing each dash's points.
  static func dashes(_ points: [Point], dash: Double, gap: Double, _ body: ([Point]) -> Void) {
    guard var a = points.first else { return }
    var on = true
    var left = dash
    var current: [Point] = [a]
    for b in points.dropFirst() {
      let length = distance(a, b)
      guard length > 0, length.isFinite else { continue }
      var t = 0.0
      while length - t > left {
        t += left
        let f = t / length
        let p = Point(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
        if on {
          current.append(p)
          body(current)
          current.removeAll(keepingCapacity: true)
        } else {
          current.append(p)
        }
        on.toggle()
        left = on ? dash : gap
      }
      left -= length - t
      if on { current.append(b) }
      a = b
    }
    if on && current.count >= 2 { body(current) }
  }
}

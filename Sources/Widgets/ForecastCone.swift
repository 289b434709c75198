internal import Glyphs
internal import Projections
internal import Raster
internal import WallboardCore

/// The forecast on the burndown: from today's remaining work down to zero at the end of the P50
/// date and at the end of the P85 date, a shaded wedge between the two lines and each labelled
/// ("P50 12 Dec", "P85 15 Dec"). A line whose date is past the chart's last day is cut at the
/// chart's edge and its label says "after end"; without throughput, or past the horizon, a note
/// says so instead of a date.
struct ForecastCone {
  var outcome: Forecast.Outcome
  /// Today's remaining work, in the chart's unit.
  var remaining: Double
  /// Where today's line is.
  var from: Double
  var today: Int

  func draw(
    _ b: Burndown, plot: Rect, x: (Double) -> Double, y: (Double) -> Double, style: Style, painter: inout Painter,
    canvas: inout Canvas
  ) {
    let t = style.theme
    let labelSize = style.size(.small)
    var dates: [(String, CivilDate?)] = []
    var note: String?
    switch outcome {
    case .sprint(_, let p50, let p85): dates = [("P50", p50), ("P85", p85)]
    case .beyondHorizon(_, let p50, let horizon):
      dates = [("P50", p50)]
      note = "P85 after \(ClockText.dayMonth(horizon))"
    case .noThroughput: note = "no throughput yet: no forecast"
    case .sprintDone, .backlog: return
    }
    let start = Point(from, y(remaining))
    // Where a line reaching zero at the end of `d` ends on the chart, and whether it was cut.
    func end(_ d: CivilDate) -> (Point, cut: Bool) {
      let first = b.days.first?.daysSinceEpoch ?? d.daysSinceEpoch
      let zeroX = x(Double(d.daysSinceEpoch - first + 1))
      guard zeroX > plot.maxX, zeroX > start.x else { return (Point(Swift.max(zeroX, start.x), y(0)), false) }
      let f = (plot.maxX - start.x) / (zeroX - start.x)
      return (Point(plot.maxX, y(remaining * (1 - f))), true)
    }
    let ends = dates.compactMap { p, d in d.map { (p, $0, end($0)) } }
    if ends.count == 2 {
      // The wedge between the lines; past the chart's edge, cut along it.
      let (a, c) = (ends[0].2, ends[1].2)
      let corner = c.cut && !a.cut ? [Point(plot.maxX, y(0))] : []
      var shade = Path()
      shade.addPolygon([start, a.0] + corner + [c.0])
      canvas.fill(shade, t.accent.withAlpha(0.16))
    }
    // The labels top right of the plot (where a burndown's line rarely is near its end), each
    // after a short stroke of its line's dash.
    var labelY = plot.minY
    for (k, (p, d, e)) in ends.enumerated() {
      let color = k == 0 ? t.accent : t.fgMuted
      canvas.dashedPolyline([start, e.0], width: style.u(3), dash: style.u(6), gap: style.u(5), color)
      let text = ForecastText.label(p, d) + (e.cut ? " (after end)" : "")
      let w = Swift.min(plot.width * 0.6, painter.width(text, size: labelSize) + style.u(4))
      let swatch = style.u(26)
      let box = Rect(x: plot.maxX - w, y: labelY, width: w, height: labelSize * 1.4)
      canvas.dashedPolyline(
        [Point(box.minX - swatch - style.u(6), box.midY), Point(box.minX - style.u(6), box.midY)], width: style.u(3),
        dash: style.u(6), gap: style.u(5), color)
      painter.draw(
        text, in: box, size: labelSize, color: style.text(on: t.bg), background: t.bg, align: .right, canvas: &canvas)
      labelY += labelSize * 1.5
    }
    if let note {
      let w = Swift.min(plot.width, painter.width(note, size: labelSize) + style.u(8))
      painter.draw(
        note, in: Rect(x: plot.maxX - w, y: labelY, width: w, height: labelSize * 1.4), size: labelSize,
        color: style.text(on: t.bg), background: t.bg, align: .right, canvas: &canvas)
    }
  }
}

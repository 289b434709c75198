public import Projections
public import Raster
internal import WallboardCore

/// The sprint burndown (or burnup): dashed guideline, remaining line, grey bands on
/// non-working days, scope-change markers with their signed delta, a today line, a date axis,
/// and the unit and unestimated count in the title.
public struct BurndownWidget: Widget {
  public enum Mode: String, Sendable { case burndown, burnup }
  public var mode: Mode

  public init(mode: Mode = .burndown) { self.mode = mode }

  public struct Model: Hashable, Sendable {
    public var burndown: Burndown?
    /// How far through today `at` is (0…1), for the today line.
    public var todayFraction: Double
  }

  public func model(_ frame: FrameModel) -> Model {
    guard let b = frame.burndown else { return Model(burndown: nil, todayFraction: 0) }
    // Minutes are enough for the today line to move smoothly without redrawing every second.
    let minutes = b.zone.secondsIntoDay(frame.at) / 60
    return Model(burndown: b, todayFraction: Double(minutes) / 1440)
  }

  public func draw(_ m: Model, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    guard let b = m.burndown, !b.days.isEmpty else {
      let content = Card.draw(
        title: mode == .burndown ? "Burndown" : "Burnup", in: rect, style: style, painter: &painter, canvas: &canvas)
      painter.draw(
        "No sprint to chart yet", in: content, size: style.size(.body), color: ink, background: t.bg, align: .center,
        canvas: &canvas)
      return
    }
    let unitName = b.unit == .points ? "points" : "features"
    var title = (mode == .burndown ? "Burndown" : "Burnup") + " · \(unitName)"
    if b.unit == .points && b.unestimated > 0 { title += " · \(b.unestimated) unestimated" }
    let content = Card.draw(title: title, in: rect, style: style, painter: &painter, canvas: &canvas)
    guard content.width > style.u(60), content.height > style.u(60) else { return }

    // Plot area: room for the y labels on the left and the date axis below.
    let labelSize = style.size(.small)
    let yLabelWidth = painter.width("000", size: labelSize, tabular: true) + style.u(10)
    let axisHeight = labelSize * 1.6
    let plot = Rect(
      x: content.minX + yLabelWidth, y: content.minY + style.u(6), width: content.width - yLabelWidth,
      height: content.height - axisHeight - style.u(6))
    guard plot.width > 10, plot.height > 10 else { return }

    let n = b.days.count
    let dayW = plot.width / Double(n)
    let series: [Double?] = mode == .burndown ? b.remaining : b.scope
    let top = Swift.max(1, b.committed, (b.scope.compactMap { $0 } + b.remaining.compactMap { $0 }).max() ?? 0)
    let yMax = niceCeiling(top)
    func y(_ v: Double) -> Double { plot.maxY - v / yMax * plot.height }
    func x(_ dayEnd: Double) -> Double { plot.minX + dayEnd * dayW }

    // Non-working days as grey bands.
    for (i, working) in b.working.enumerated() where !working {
      canvas.fill(Rect(x: x(Double(i)), y: plot.minY, width: dayW, height: plot.height), t.fgDim.withAlpha(0.18))
    }
    // Grid: baseline and half line.
    canvas.line(from: Point(plot.minX, plot.maxY), to: Point(plot.maxX, plot.maxY), width: style.u(2), t.border)
    canvas.line(from: Point(plot.minX, y(yMax / 2)), to: Point(plot.maxX, y(yMax / 2)), width: style.u(1), t.border)
    for v in [0, yMax / 2, yMax] {
      painter.draw(
        Numbers.short(v),
        in: Rect(x: content.minX, y: y(v) - labelSize, width: yLabelWidth - style.u(8), height: labelSize * 2),
        size: labelSize, color: ink, background: t.bg, align: .right, tabular: true, canvas: &canvas)
    }

    // Guideline (burndown) from the committed total at the start of the first day.
    let accent = t.accent
    if mode == .burndown {
      var guide = [Point(x(0), y(b.committed))]
      for (i, v) in b.ideal.enumerated() { guide.append(Point(x(Double(i + 1)), y(v))) }
      canvas.dashedPolyline(guide, width: style.u(3), dash: style.u(12), gap: style.u(8), t.fgMuted)
    }

    // The actual line(s): one point at the start, then one at the end of each day (or at `at`).
    func line(_ values: [Double?], start: Double, color: RGBA, width: Double) {
      var pts = [Point(x(0), y(start))]
      for (i, v) in values.enumerated() {
        guard let v else { break }
        let end = (i == b.todayIndex) ? Double(i) + m.todayFraction : Double(i + 1)
        pts.append(Point(x(end), y(v)))
      }
      if pts.count > 1 { canvas.polyline(pts, width: width, color) }
    }
    let scopeStart = b.committed
    if mode == .burndown {
      line(b.remaining, start: scopeStart, color: accent, width: style.u(5))
    } else {
      line(b.scope, start: scopeStart, color: t.fgMuted, width: style.u(4))
      line(b.completed, start: 0, color: style.semantic.success, width: style.u(5))
    }

    // Scope changes: a marker per day with the day's signed delta.
    var byDay: [Int: Double] = [:]
    for c in b.scopeChanges { if let i = b.days.firstIndex(of: c.date) { byDay[i, default: 0] += c.delta } }
    for (i, delta) in byDay.sorted(by: { $0.key < $1.key }) {
      let v = series[i] ?? b.committed
      // On the line's vertex at the end of that day (or at `at` for today).
      let cx = x(i == b.todayIndex ? Double(i) + m.todayFraction : Double(i + 1))
      let cy = y(v)
      let r = style.u(9)
      canvas.fillCircle(center: Point(cx, cy), radius: r, style.semantic.warning)
      canvas.ring(center: Point(cx, cy), radius: r, width: style.u(2), t.bg)
      let label = (delta >= 0 ? "+" : "−") + Numbers.short(abs(delta))
      let lw = painter.width(label, size: labelSize, bold: true) + style.u(8)
      let above = cy - r - labelSize * 1.5 > plot.minY
      let box = Rect(
        x: cx - lw / 2, y: above ? cy - r - labelSize * 1.5 : cy + r + style.u(2), width: lw, height: labelSize * 1.4)
      painter.draw(
        label, in: box, size: labelSize, color: ink, background: t.bg, align: .center, bold: true, canvas: &canvas)
    }

    // Today.
    if let i = b.todayIndex {
      let tx = x(Double(i) + m.todayFraction)
      canvas.line(from: Point(tx, plot.minY), to: Point(tx, plot.maxY), width: style.u(2), t.fgBright.withAlpha(0.7))
    }

    // Date axis: as many day labels as fit.
    let sample = "30"
    let labelW = painter.width(sample, size: labelSize, tabular: true) * 1.8
    let every = Swift.max(1, Int((labelW / dayW).rounded(.up)))
    for (i, d) in b.days.enumerated() where i % every == 0 {
      let box = Rect(x: x(Double(i)), y: plot.maxY + style.u(4), width: dayW * Double(every), height: axisHeight)
      // The month joins the day number on the first day and on the 1st, when there is room.
      let long = Clock.dayMonth(d)
      let withMonth = (i == 0 || d.day == 1) && painter.width(long, size: labelSize, tabular: true) <= box.width
      painter.draw(
        withMonth ? long : "\(d.day)", in: box, size: labelSize, color: ink, background: t.bg,
        align: .left, tabular: true, canvas: &canvas)
    }
  }

  /// 1, 2, 5 × 10ⁿ at or above `v`.
  func niceCeiling(_ v: Double) -> Double {
    guard v > 0 else { return 1 }
    var p = 1.0
    while p * 10 <= v { p *= 10 }
    for f in [1.0, 2, 5, 10] where f * p >= v { return f * p }
    return 10 * p
  }

}

public import Projections
public import Raster
public import WallboardCore

/// The sprint burndown (or burnup), drawn as what happened: remaining work as steps at the
/// moments it changed — burn as drops, scope changes (added, removed, re-estimated) as risers or
/// drops of their own in the warning colour, with a `+N` marker and a `−N` marker apart on the
/// day they happened in the sprint's time zone — over the dashed guideline, grey bands on
/// non-working days, a today line, a y axis that fits the data and a date axis. The title says
/// the unit and how many members are unestimated; a legend names every line. Without an active
/// sprint the slot shows the cumulative flow instead (`Model.flow`).
public struct BurndownWidget: Widget {
  public enum Mode: String, Sendable { case burndown, burnup }
  public var mode: Mode

  public init(mode: Mode = .burndown) { self.mode = mode }

  /// What the main chart's slot shows: the active sprint's burndown, else the board's flow.
  ///
  /// The slot decides, not the layout: a bundled layout names `burndown` where the main chart
  /// goes, and a team without sprints gets its cumulative flow there (`FlowWidget`) rather than
  /// an empty chart. As an enum the choice is part of the model, so switching between the two
  /// redraws the slot and an unchanged one is skipped like any other widget.
  public enum Model: Hashable, Sendable {
    /// The sprint's chart; `todayFraction`: how far through today `at` is (0…1), for the today
    /// line and the lines' ends; `forecast`: when the rest will be done (`Forecast`), drawn as
    /// a cone past today on the burndown.
    case sprint(Burndown, todayFraction: Double, forecast: Forecast.Outcome? = nil)
    /// No sprint is active: the cumulative flow and throughput, and how many features the next
    /// days finish (`ForecastText.flowSummary`), when the forecast says.
    case flow(Flow, forecast: String? = nil)
    /// Neither: nothing to chart yet.
    case empty
  }

  public func model(_ frame: FrameModel) -> Model {
    if let b = frame.burndown {
      return .sprint(
        b, todayFraction: Self.todayFraction(at: frame.at, zone: b.zone),
        forecast: mode == .burndown ? frame.forecast : nil)
    }
    return frame.flow.map { Model.flow($0, forecast: ForecastText.flowSummary(frame.forecast)) } ?? .empty
  }

  /// How far through its day in `zone` `at` is (0…1), in whole minutes: enough for the today
  /// line to move smoothly without redrawing every second.
  public static func todayFraction(at: Instant, zone: Zone) -> Double {
    Double(zone.secondsIntoDay(at) / 60) / 1440
  }

  /// When `todayFraction(at:zone:)` next reads differently: the next minute in `zone`.
  public static func todayFractionChange(after at: Instant, zone: Zone) -> Instant {
    zone.nextLocalBoundary(after: at, every: 60)
  }

  public func draw(_ m: Model, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let name = mode == .burndown ? "Burndown" : "Burnup"
    let b: Burndown
    let todayFraction: Double
    var forecast: Forecast.Outcome?
    switch m {
    case .flow(let f, let forecast):
      FlowWidget(forecast: forecast).draw(f, in: rect, style: style, painter: &painter, canvas: &canvas)
      return
    case .sprint(let burndown, let fraction, let outcome) where !burndown.days.isEmpty:
      b = burndown
      todayFraction = fraction
      forecast = outcome
    case .sprint, .empty:
      let content = Card.draw(title: name, in: rect, style: style, painter: &painter, canvas: &canvas)
      painter.draw(
        "No sprint to chart yet", in: content, size: style.size(.body), color: ink, background: t.bg, align: .center,
        canvas: &canvas)
      return
    }
    let unitName = b.unit == .points ? "points" : "features"
    var title = name + " · \(unitName)"
    if b.unit == .points && b.unestimated > 0 { title += " · \(b.unestimated) unestimated" }
    var content = Card.draw(title: title, in: rect, style: style, painter: &painter, canvas: &canvas)
    guard content.width > style.u(60), content.height > style.u(60) else { return }

    let labelSize = style.size(.small)
    let scopeColor = style.semantic.warning
    let hasScopeChanges = b.steps.contains { $0.kind != .burn && $0.scopeDelta != 0 }
    let legend: [LegendEntry] =
      mode == .burndown
      ? [LegendEntry("Remaining", t.accent, .solid), LegendEntry("Ideal", t.fgMuted, .dashed)]
        + (hasScopeChanges ? [LegendEntry("Scope change", scopeColor, .solid)] : [])
      : [LegendEntry("Scope", t.fgMuted, .solid), LegendEntry("Completed", style.semantic.success, .solid)]
    content = drawLegend(
      legend, titleWidth: painter.width(title, size: style.size(.body), bold: true), card: rect, content: content,
      style: style, painter: &painter, canvas: &canvas)

    // The y scale: ticks of 1, 2 or 5 × 10ⁿ, at most six, the top the first tick at or above the data.
    let top = Swift.max(1, b.committed, (b.scope.compactMap { $0 } + b.remaining.compactMap { $0 }).max() ?? 0)
    let axis = Self.niceAxis(top)
    // Plot area: room for the y labels on the left and the date axis below.
    let yLabelWidth = painter.width(Numbers.short(axis.max), size: labelSize, tabular: true) + style.u(10)
    let axisHeight = labelSize * 1.6
    let plot = Rect(
      x: content.minX + yLabelWidth, y: content.minY + labelSize * 0.7, width: content.width - yLabelWidth,
      height: content.height - axisHeight - labelSize * 0.7)
    guard plot.width > 10, plot.height > 10 else { return }

    let n = b.days.count
    let dayW = plot.width / Double(n)
    func y(_ v: Double) -> Double { plot.maxY - v / axis.max * plot.height }
    func x(day: Double) -> Double { plot.minX + day * dayW }
    func x(_ instant: Instant) -> Double { x(day: Self.dayPosition(of: instant, in: b)) }
    let endX = b.todayIndex.map { x(day: Double($0) + todayFraction) } ?? x(day: Double(n))

    // Non-working days as grey bands.
    for (i, working) in b.working.enumerated() where !working {
      canvas.fill(Rect(x: x(day: Double(i)), y: plot.minY, width: dayW, height: plot.height), t.fgDim.withAlpha(0.18))
    }
    ChartGrid.draw(
      axis, plot: plot, labelX: content.minX, labelWidth: yLabelWidth - style.u(8), labelSize: labelSize,
      labels: .fromBottom, style: style, painter: &painter, canvas: &canvas)

    // Guideline (burndown) from the committed total at the start of the first day.
    if mode == .burndown {
      var guide = [Point(x(day: 0), y(b.committed))]
      for (i, v) in b.ideal.enumerated() { guide.append(Point(x(day: Double(i + 1)), y(v))) }
      canvas.dashedPolyline(guide, width: style.u(3), dash: style.u(12), gap: style.u(8), t.fgMuted)
    }

    // The lines, as steps at the moments they changed.
    let startX = x(b.stepsFrom)
    if mode == .burndown {
      let risers = stepLine(
        b.steps, start: b.startScope - b.startCompleted, value: \.remaining, from: startX, to: endX, x: x, y: y,
        width: style.u(5), color: t.accent, canvas: &canvas)
      // Scope changes over the line, in a colour of their own: never mistaken for burn.
      for r in risers where r.kind != .burn {
        canvas.line(from: r.from, to: r.to, width: style.u(5), scopeColor, cap: .round)
      }
    } else {
      _ = stepLine(
        b.steps, start: b.startScope, value: \.scope, from: startX, to: endX, x: x, y: y, width: style.u(4),
        color: t.fgMuted, canvas: &canvas)
      _ = stepLine(
        b.steps, start: b.startCompleted, value: \.completed, from: startX, to: endX, x: x, y: y, width: style.u(5),
        color: style.semantic.success, canvas: &canvas)
    }
    drawScopeMarkers(b, x: x, y: y, plot: plot, style: style, painter: &painter, canvas: &canvas)

    // Today.
    if b.todayIndex != nil {
      canvas.line(
        from: Point(endX, plot.minY), to: Point(endX, plot.maxY), width: style.u(2), t.fgBright.withAlpha(0.7))
    }

    if let forecast, let today = b.todayIndex, let now = b.remaining.compactMap({ $0 }).last {
      ForecastCone(outcome: forecast, remaining: now, from: endX, today: today).draw(
        b, plot: plot, x: x(day:), y: y, style: style, painter: &painter, canvas: &canvas)
    }

    // Date axis: as many day labels as fit.
    let labelW = painter.width("30", size: labelSize, tabular: true) * 1.8
    let everyDay = Swift.max(1, Int(saturating: labelW / dayW, .up))
    for (i, d) in b.days.enumerated() where i % everyDay == 0 {
      let box = Rect(
        x: x(day: Double(i)), y: plot.maxY + style.u(4), width: dayW * Double(everyDay), height: axisHeight)
      // The month joins the day number on the first day and on the 1st, when there is room.
      let long = ClockText.dayMonth(d)
      let withMonth = (i == 0 || d.day == 1) && painter.width(long, size: labelSize, tabular: true) <= box.width
      painter.draw(
        withMonth ? long : "\(d.day)", in: box, size: labelSize, color: ink, background: t.bg,
        align: .left, tabular: true, canvas: &canvas)
    }
  }

  /// An instant's place on the chart's time axis, in days from the start of the first day: the
  /// index of its day in the sprint's time zone plus how far into that day it is (a change at
  /// 11:00 on the 25th sits 11/24 into the 25th's column, whatever the board's zone).
  public static func dayPosition(of instant: Instant, in b: Burndown) -> Double {
    let d = b.zone.date(of: instant)
    let start = b.zone.startOfDay(d).millis
    let length = Swift.max(1, b.zone.startOfDay(d.adding(days: 1)).millis - start)
    let first = b.days.first?.daysSinceEpoch ?? d.daysSinceEpoch
    return Double(d.daysSinceEpoch - first) + Double(instant.millis - start) / Double(length)
  }

  /// A vertical segment of a step line: where one step moved the value.
  struct Riser {
    var kind: BurndownStep.Kind
    var from: Point
    var to: Point
  }

  /// Draws `value` as a step line from `from` to `to`: flat between changes, a vertical move at
  /// each. Returns the vertical moves.
  func stepLine(
    _ steps: [BurndownStep], start: Double, value: KeyPath<BurndownStep, Double>, from: Double, to: Double,
    x: (Instant) -> Double, y: (Double) -> Double, width: Double, color: RGBA, canvas: inout Canvas
  ) -> [Riser] {
    var points = [Point(from, y(start))]
    var risers: [Riser] = []
    var current = start
    for s in steps {
      let v = s[keyPath: value]
      guard v != current else { continue }
      let sx = Swift.min(x(s.at), to)
      points.append(Point(sx, y(current)))
      points.append(Point(sx, y(v)))
      risers.append(Riser(kind: s.kind, from: Point(sx, y(current)), to: Point(sx, y(v))))
      current = v
    }
    points.append(Point(Swift.max(to, points.last!.x), y(current)))
    canvas.polyline(points, width: width, color, join: .round)
    return risers
  }

  /// One marker per day for what was added (`+N`) and one for what was taken away (`−N`), at the
  /// first such change of that day: additions above the line, removals below it.
  func drawScopeMarkers(
    _ b: Burndown, x: (Instant) -> Double, y: (Double) -> Double, plot: Rect, style: Style, painter: inout Painter,
    canvas: inout Canvas
  ) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let labelSize = style.size(.small)
    struct Group {
      var at: Instant
      var value: Double
      var delta: Double
      /// The range the group's steps cover, so that its label clears them.
      var low: Double
      var high: Double
    }
    var groups: [String: Group] = [:]
    var order: [String] = []
    for s in b.steps where s.kind != .burn && s.scopeDelta != 0 {
      let key = "\(b.zone.date(of: s.at).daysSinceEpoch)\(s.scopeDelta > 0 ? "+" : "-")"
      let after = mode == .burndown ? s.remaining : s.scope
      let before = after - (mode == .burndown ? s.remainingDelta : s.scopeDelta)
      if groups[key] == nil {
        order.append(key)
        groups[key] = Group(at: s.at, value: after, delta: 0, low: after, high: after)
      }
      groups[key]!.delta += s.scopeDelta
      groups[key]!.low = Swift.min(groups[key]!.low, before, after)
      groups[key]!.high = Swift.max(groups[key]!.high, before, after)
    }
    for key in order {
      let g = groups[key]!
      let up = g.delta > 0
      let c = Point(x(g.at), y(g.value))
      let r = style.u(8)
      canvas.fillCircle(center: c, radius: r, style.semantic.warning)
      canvas.ring(center: c, radius: r, width: style.u(2), t.bg)
      let label = (up ? "+" : "−") + Numbers.short(abs(g.delta))
      let lw = painter.width(label, size: labelSize, bold: true) + style.u(8)
      let h = labelSize * 1.4
      var boxY = up ? Swift.min(c.y, y(g.high)) - r - h : Swift.max(c.y, y(g.low)) + r + style.u(2)
      boxY = Swift.min(Swift.max(boxY, plot.minY - labelSize * 0.6), plot.maxY - h)
      painter.draw(
        label, in: Rect(x: c.x - lw / 2, y: boxY, width: lw, height: h), size: labelSize, color: ink,
        background: t.bg, align: .center, bold: true, canvas: &canvas)
    }
  }

  /// A legend entry: a short line in the series' colour and its name.
  struct LegendEntry {
    enum Stroke { case solid, dashed }
    var name: String
    var color: RGBA
    var stroke: Stroke
    init(_ name: String, _ color: RGBA, _ stroke: Stroke) {
      self.name = name
      self.color = color
      self.stroke = stroke
    }
  }

  /// Draws the legend right-aligned in the title row when it fits beside the title, else in a row
  /// of its own at the top of `content`; returns what is left of `content`.
  func drawLegend(
    _ entries: [LegendEntry], titleWidth: Double, card: Rect, content: Rect, style: Style, painter: inout Painter,
    canvas: inout Canvas
  ) -> Rect {
    let t = style.theme
    let size = style.size(.small)
    let swatch = style.u(26)
    let gap = style.u(18)
    // A pixel of slack per name: the painter places text on whole pixels.
    let widths = entries.map { swatch + style.u(8) + painter.width($0.name, size: size) + 2 }
    let total = widths.reduce(0, +) + gap * Double(Swift.max(0, entries.count - 1))
    let titleRow = Card.titleRow(in: card, style: style)
    var row: Rect
    var rest = content
    if titleRow.width - titleWidth - style.u(24) >= total {
      row = titleRow
    } else {
      row = Rect(x: content.minX, y: content.minY, width: content.width, height: size * 1.5)
      rest = Rect(
        x: content.minX, y: content.minY + row.height, width: content.width,
        height: Swift.max(0, content.height - row.height))
    }
    var cursor = Swift.max(row.minX, row.maxX - total)
    for (entry, w) in zip(entries, widths) {
      guard cursor + w <= row.maxX + 0.5 else { break }
      let mid = row.midY
      switch entry.stroke {
      case .solid:
        canvas.line(
          from: Point(cursor, mid), to: Point(cursor + swatch, mid), width: style.u(5), entry.color, cap: .round)
      case .dashed:
        canvas.dashedPolyline(
          [Point(cursor, mid), Point(cursor + swatch, mid)], width: style.u(3), dash: style.u(8), gap: style.u(5),
          entry.color)
      }
      painter.draw(
        entry.name,
        in: Rect(x: cursor + swatch + style.u(8), y: row.minY, width: w - swatch - style.u(8), height: row.height),
        size: size, color: style.text(on: t.bg), background: t.bg, canvas: &canvas)
      cursor += w + gap
    }
    return rest
  }

  /// The y axis for data up to `v`: the tick step (1, 2 or 5 × 10ⁿ) giving at most six ticks, and
  /// the first tick at or above `v` as the top (51 → 0–60 in steps of 10). Total: the data is
  /// taken as at least 1 and at most 10^15 (capped points stay far below; NaN counts as 1).
  public static func niceAxis(_ v: Double) -> (max: Double, step: Double, ticks: Int) {
    let top = v.isNaN ? 1 : Swift.min(Swift.max(v, 1), 1e15)
    var magnitude = 1.0
    while magnitude * 10 <= top { magnitude *= 10 }
    while magnitude > top { magnitude /= 10 }
    for step in [0.1, 0.2, 0.5, 1, 2, 5, 10].map({ $0 * magnitude }) {
      let ticks = Int(saturating: top / step - 1e-9, .up)
      // Whole numbers only for counts and points above 1.
      if ticks <= 6 && (step >= 1 || top < 5) {
        return (Double(ticks) * step, step, Swift.max(1, ticks))
      }
    }
    return (10 * magnitude, 2 * magnitude, 5)
  }
}

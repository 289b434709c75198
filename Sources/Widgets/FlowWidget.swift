internal import Glyphs
public import Projections
public import Raster
internal import WallboardCore

/// The cumulative flow of the last days (`Flow`): one band per workflow state in its colour,
/// stacked with the done states at the bottom and the workflow's first states on top, over a y
/// axis of features and a day axis; under it the throughput as one bar a day, and "N done ·
/// X/day" in the title row; on the right a legend that names each band, top to bottom as they
/// stack, with its count today. Days the board has no history for are left empty and say so.
///
/// The burndown's slot shows it when no sprint is active (`BurndownWidget.Model.flow`).
public struct FlowWidget: Widget {
  /// What the forecast says of the next days ("next 14 d: 9–14"), after the throughput.
  public var forecast: String?

  public init(forecast: String? = nil) { self.forecast = forecast }

  public func model(_ frame: FrameModel) -> Flow? { frame.flow }

  public func draw(_ flow: Flow?, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    guard let f = flow, !f.days.isEmpty else {
      let content = Card.draw(title: "Flow", in: rect, style: style, painter: &painter, canvas: &canvas)
      painter.draw(
        "Nothing to chart yet", in: content, size: style.size(.body), color: ink, background: t.bg, align: .center,
        canvas: &canvas)
      return
    }
    // The throughput in the title row when it fits beside the title (shortened if need be),
    // else in a row of its own.
    let summary = Self.throughputText(f)
    // The forecast goes first where the row is short: the throughput is the chart's own.
    let summaryPieces: [TextPiece] =
      [.label(Self.throughputText(f))] + (forecast.map { [.secondary(" · " + $0)] } ?? [])
    let titleRow = Card.titleRow(in: rect, style: style)
    let summaryWidth = painter.width(summary, size: style.size(.body), bold: true)
    let room = titleRow.width - summaryWidth - style.u(24)
    let titles = Self.chartTitles(f)
    let title = titles.first { painter.width($0, size: style.size(.body), bold: true) <= room } ?? titles[0]
    let besideTitle = painter.width(title, size: style.size(.body), bold: true) <= room
    var content = Card.draw(title: title, in: rect, style: style, painter: &painter, canvas: &canvas)
    let labelSize = style.size(.small)
    if besideTitle {
      // Right of the title: the forecast only where it fits too.
      let titleW = painter.width(title, size: style.size(.body), bold: true) + style.u(24)
      let box = Rect(
        x: titleRow.minX + titleW, y: titleRow.minY, width: Swift.max(0, titleRow.width - titleW),
        height: titleRow.height)
      painter.draw(
        summaryPieces, in: box, size: style.size(.body), color: ink, background: t.bg, align: .right, bold: true,
        canvas: &canvas)
    } else {
      let row = Rect(x: content.minX, y: content.minY, width: content.width, height: labelSize * 1.5)
      painter.draw(summaryPieces, in: row, size: labelSize, color: ink, background: t.bg, bold: true, canvas: &canvas)
      content = Rect(
        x: content.minX, y: row.maxY, width: content.width, height: Swift.max(0, content.height - row.height))
    }
    guard content.width > style.u(60), content.height > style.u(60) else { return }

    let stack = Self.stackOrder(f)
    guard !stack.isEmpty else {
      painter.draw(
        "No features yet", in: content, size: style.size(.body), color: ink, background: t.bg, align: .center,
        canvas: &canvas)
      return
    }
    let legendWidth = drawLegend(f, stack: stack, in: content, style: style, painter: &painter, canvas: &canvas)
    let chart = Rect(
      x: content.minX, y: content.minY, width: Swift.max(0, content.width - legendWidth - style.u(16)),
      height: content.height)
    drawChart(f, stack: stack, in: chart, style: style, painter: &painter, canvas: &canvas)
  }

  /// "Flow · last 14 days" ("Flow · today" for a window of one day): what the header says.
  public static func title(_ f: Flow) -> String {
    f.days.count == 1 ? "Flow · today" : "Flow · last \(f.days.count) days"
  }

  /// "Cumulative flow · 14 days" ("Cumulative flow · today"): the chart's own title, then a
  /// shorter form for where the throughput would not fit beside it.
  public static func chartTitles(_ f: Flow) -> [String] {
    let window = f.days.count == 1 ? "today" : "\(f.days.count) days"
    return ["Cumulative flow · " + window, "Flow · " + window]
  }

  /// "12 done · 0.9/day": the window's throughput and its average.
  public static func throughputText(_ f: Flow) -> String {
    "\(f.throughput) done · \(Numbers.short(f.throughputPerDay))/day"
  }

  /// The indices into `f.states` of the bands, top to bottom: the states in workflow order with
  /// the done states moved to the bottom, and the states the workflow does not know on top —
  /// only those with a feature on some day of the window.
  public static func stackOrder(_ f: Flow) -> [Int] {
    let present = f.states.indices.filter { i in f.days.contains { $0.counts[i] > 0 } }
    let unknown = present.filter { !f.states[$0].known }
    let open = present.filter { f.states[$0].known && !f.states[$0].done }
    let done = present.filter { f.states[$0].known && f.states[$0].done }
    return unknown + open + done
  }

  /// Draws the legend down the right of `content`; returns its width.
  func drawLegend(
    _ f: Flow, stack: [Int], in content: Rect, style: Style, painter: inout Painter, canvas: inout Canvas
  ) -> Double {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let size = style.size(.small)
    let today = f.days.last!.counts
    let swatch = style.u(16)
    let labels = stack.map { f.states[$0].known ? f.states[$0].label : "\(f.states[$0].label) (unknown)" }
    let countWidth = painter.width(String(today.max() ?? 0), size: size, bold: true, tabular: true)
    let longest = labels.map { painter.width($0, size: size) }.max() ?? 0
    let width = Swift.min(content.width * 0.38, swatch + style.u(8) + longest + style.u(12) + countWidth + 2)
    let rowH = size * 1.45
    let fit = Swift.max(1, Int(saturating: content.height / rowH, .down))
    // When the rows do not all fit, the last row sums up the rest.
    var rows: [(label: String, count: Int, color: RGBA?)] = zip(stack, labels).map {
      ($0.1, today[$0.0], style.stateColor(f.states[$0.0].id))
    }
    if rows.count > fit {
      let rest = rows[(fit - 1)...]
      rows = Array(rows.prefix(fit - 1)) + [("+\(rest.count) more", rest.reduce(0) { $0 + $1.count }, nil)]
    }
    let x = content.maxX - width
    var y = content.minY + Swift.max(0, (content.height - rowH * Double(rows.count)) / 2)
    for row in rows {
      let box = Rect(x: x, y: y, width: width, height: rowH)
      if let color = row.color {
        canvas.fillRoundedRect(
          Rect(x: box.minX, y: box.midY - swatch / 2, width: swatch, height: swatch), radius: swatch / 4, color)
      }
      let labelX = box.minX + swatch + style.u(8)
      painter.draw(
        row.label,
        in: Rect(x: labelX, y: y, width: Swift.max(0, box.maxX - countWidth - style.u(10) - labelX), height: rowH),
        size: size, color: ink, background: t.bg, keep: .end, canvas: &canvas)
      painter.draw(
        String(row.count), in: Rect(x: box.maxX - countWidth - 2, y: y, width: countWidth + 2, height: rowH),
        size: size, color: ink, background: t.bg, align: .right, bold: row.count > 0, tabular: true, canvas: &canvas)
      y += rowH
    }
    return width
  }

  /// Draws the stacked bands, the throughput bars and the axes into `area`.
  func drawChart(
    _ f: Flow, stack: [Int], in area: Rect, style: Style, painter: inout Painter, canvas: inout Canvas
  ) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let labelSize = style.size(.small)
    let totals = f.days.map { d in stack.reduce(0) { $0 + d.counts[$1] } }
    let axis = BurndownWidget.niceAxis(Double(totals.max() ?? 0))
    let yLabelWidth = painter.width(Numbers.short(axis.max), size: labelSize, tabular: true) + style.u(10)
    let axisHeight = labelSize * 1.6
    let stripHeight = Swift.max(labelSize * 2.4, (area.height - axisHeight) * 0.2)
    let plot = Rect(
      x: area.minX + yLabelWidth, y: area.minY + labelSize * 0.7, width: area.width - yLabelWidth,
      height: area.height - axisHeight - stripHeight - style.u(10) - labelSize * 0.7)
    guard plot.width > 10, plot.height > 10 else { return }
    let n = f.days.count
    let dayW = plot.width / Double(n)
    func x(day: Double) -> Double { plot.minX + day * dayW }
    func y(_ v: Double) -> Double { plot.maxY - v / axis.max * plot.height }

    ChartGrid.draw(
      axis, plot: plot, labelX: area.minX, labelWidth: yLabelWidth - style.u(8), labelSize: labelSize,
      labels: .fromTop, style: style, painter: &painter, canvas: &canvas)

    // The bands: each level's whole area from the baseline, top level first, so that the lower
    // ones paint over it and no seam shows between neighbours.
    let first = f.firstKnownDay ?? n
    if first < n {
      let known = Array(first..<n)
      // Points at the middle of each day, held flat to the edges of the first and last day.
      let xs = [x(day: Double(first))] + known.map { x(day: Double($0) + 0.5) } + [x(day: Double(n))]
      for level in stack.indices {
        let below = stack[level...]
        let values = known.map { d in Double(below.reduce(0) { $0 + f.days[d].counts[$1] }) }
        let tops = zip(xs, [values[0]] + values + [values[values.count - 1]]).map { Point($0.0, y($0.1)) }
        var path = Path()
        path.addPolygon(tops + [Point(xs.last!, plot.maxY), Point(xs[0], plot.maxY)])
        canvas.fill(path, style.stateColor(f.states[stack[level]].id))
        // A hairline in the background colour parts bands of like colours.
        if level > 0 { canvas.polyline(tops, width: style.u(1.5), t.bg) }
      }
    }
    if first > 0 {
      let gap = Rect(x: plot.minX, y: plot.minY, width: dayW * Double(first), height: plot.height)
      let text = painter.firstFitting(
        ["no history before \(ClockText.dayMonth(f.days[Swift.min(first, n - 1)].date))", "no history", ""],
        width: gap.width - style.u(8), size: labelSize)
      painter.draw(
        text, in: Rect(x: gap.minX, y: gap.midY - labelSize, width: gap.width, height: labelSize * 2), size: labelSize,
        color: ink, background: t.bg, align: .center, canvas: &canvas)
    }

    // Throughput: a bar a day in the done colour, its number above it where there is room.
    let strip = Rect(x: plot.minX, y: plot.maxY + style.u(10), width: plot.width, height: stripHeight)
    let doneColor = f.states.first { $0.done }.map { style.stateColor($0.id) } ?? style.semantic.success
    let maxDone = Swift.max(1, f.days.map(\.done).max() ?? 0)
    let numberH = labelSize * 1.3
    let barRoom = Swift.max(0, strip.height - numberH)
    let numberFits = painter.width(String(maxDone), size: labelSize, tabular: true) + style.u(4) <= dayW
    canvas.line(
      from: Point(strip.minX, strip.maxY), to: Point(strip.maxX, strip.maxY), width: style.u(2), t.border)
    for (i, d) in f.days.enumerated() where d.done > 0 {
      let h = Swift.max(style.u(3), barRoom * Double(d.done) / Double(maxDone))
      let bar = Rect(x: x(day: Double(i) + 0.2), y: strip.maxY - h, width: dayW * 0.6, height: h)
      canvas.fillRoundedRect(bar, radius: Swift.min(bar.width, bar.height) / 4, doneColor)
      if numberFits {
        painter.draw(
          String(d.done), in: Rect(x: x(day: Double(i)), y: bar.minY - numberH, width: dayW, height: numberH),
          size: labelSize, color: ink, background: t.bg, align: .center, tabular: true, canvas: &canvas)
      }
    }

    // Date axis: as many day labels as fit, each under the middle of its day.
    let labelW = painter.width("30", size: labelSize, tabular: true) * 1.8
    let everyDay = Swift.max(1, Int(saturating: labelW / dayW, .up))
    for (i, day) in f.days.enumerated() where (n - 1 - i) % everyDay == 0 {
      let w = dayW * Double(everyDay)
      let centre = x(day: Double(i) + 0.5)
      let minX = Swift.max(area.minX, centre - w / 2)
      let box = Rect(
        x: minX, y: strip.maxY + style.u(4), width: Swift.min(area.maxX, centre + w / 2) - minX, height: axisHeight)
      let long = ClockText.dayMonth(day.date)
      let withMonth =
        (i < everyDay || day.date.day == 1) && painter.width(long, size: labelSize, tabular: true) <= box.width
      painter.draw(
        withMonth ? long : "\(day.date.day)", in: box, size: labelSize, color: ink, background: t.bg, align: .center,
        tabular: true, canvas: &canvas)
    }
  }
}

internal import Glyphs
internal import Projections
public import Raster

/// Work in progress by age (`AgingChart`): one column per active-work state in workflow order,
/// one dot per feature at its days in progress (tenths, rounded down) (the y axis; the title says so), the
/// team's P50 and P85 cycle times as labelled dashed lines, features past P85 drawn as squares
/// (a shape, not only a colour) and the oldest one's id beside it; "No work in progress" when
/// empty, "no cycle time yet" when the team has no samples.
public struct AgingWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> AgingChart { frame.aging }

  public func draw(_ m: AgingChart, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let noCycle = m.cycleTime.samples == 0 || m.cycleTime.p85Days == nil
    let title: [TextPiece] = [.label(AgingChart.title)] + (noCycle ? [.secondary(" · no cycle time yet")] : [])
    let content = Card.draw(title: title, in: rect, style: style, painter: &painter, canvas: &canvas)
    let size = style.size(.body)
    if m.dots.isEmpty {
      painter.draw(
        AgingChart.empty, in: Rect(x: content.minX, y: content.minY, width: content.width, height: size * 1.6),
        size: size, color: ink, background: t.bg, canvas: &canvas)
      return
    }
    guard content.width > style.u(60), content.height > style.u(60), !m.columns.isEmpty else { return }
    let labelSize = style.size(.small)
    // The lines as the figures are shown (tenths of a day), so that a square past P85 is above it.
    let lines = [("P50", m.cycleTime.p50Tenths), ("P85", m.cycleTime.p85Tenths)].compactMap { p, v in
      v.map { (p, Double($0) / 10) }
    }
    let top = Swift.max(1, (m.dots.map(\.days).max() ?? 0) * 1.1, (lines.map(\.1).max() ?? 0) * 1.1)
    let axis = BurndownWidget.niceAxis(top)
    let yLabelW = painter.width(Numbers.short(axis.max), size: labelSize, tabular: true) + style.u(10)
    let axisH = labelSize * 1.6
    // Room on the right for the lines' labels ("P85 9.5 d").
    let lineLabels = lines.map { "\($0.0) \(Numbers.short($0.1)) d" }
    let rightW = (lineLabels.map { painter.width($0, size: labelSize) }.max() ?? 0) + style.u(8)
    let plot = Rect(
      x: content.minX + yLabelW, y: content.minY + labelSize * 0.7,
      width: content.width - yLabelW - rightW, height: content.height - axisH - labelSize * 0.7)
    guard plot.width > 10, plot.height > 10 else { return }
    ChartGrid.draw(
      axis, plot: plot, labelX: content.minX, labelWidth: yLabelW - style.u(8), labelSize: labelSize,
      labels: .fromBottom, style: style, painter: &painter, canvas: &canvas)
    func y(_ v: Double) -> Double { plot.maxY - Swift.min(v, axis.max) / axis.max * plot.height }
    let colW = plot.width / Double(m.columns.count)

    // The columns' labels under the plot.
    for (i, c) in m.columns.enumerated() {
      painter.draw(
        c.label, in: Rect(x: plot.minX + Double(i) * colW, y: plot.maxY + style.u(4), width: colW, height: axisH),
        size: labelSize, color: ink, background: t.bg, align: .center, canvas: &canvas)
    }
    // P50 and P85: dashed lines across, labelled on the right.
    for (k, line) in lines.enumerated() {
      let ly = y(line.1)
      canvas.dashedPolyline(
        [Point(plot.minX, ly), Point(plot.maxX, ly)], width: style.u(3), dash: style.u(10), gap: style.u(6),
        k == 0 ? t.fgMuted : style.semantic.warning)
      painter.draw(
        lineLabels[k], in: Rect(x: plot.maxX + style.u(6), y: ly - labelSize, width: rightW, height: labelSize * 2),
        size: labelSize, color: ink, background: t.bg, canvas: &canvas)
    }
    // The dots: features of one column and one day side by side.
    let r = Swift.max(style.u(7), 2)
    var seen: [Int: Int] = [:]
    let oldest = m.oldest
    for d in m.dots {
      let key = d.column * 1_000_003 + Int(d.days * 10)
      let k = seen[key, default: 0]
      seen[key] = k + 1
      let spread = Swift.min(colW * 0.4, Double(k) * r * 2.2)
      let side = k % 2 == 0 ? 1.0 : -1.0
      let cx = plot.minX + (Double(d.column) + 0.5) * colW + side * spread / 2
      let c = Point(cx, y(d.days))
      // Past P85: a square with a bg outline, else a circle with one (dots side by side stay apart).
      if d.pastP85 {
        let h = r * 1.15
        let outline = style.u(1.5)
        canvas.fill(
          Rect(x: c.x - h - outline, y: c.y - h - outline, width: 2 * (h + outline), height: 2 * (h + outline)), t.bg)
        canvas.fill(Rect(x: c.x - h, y: c.y - h, width: 2 * h, height: 2 * h), style.semantic.error)
      } else {
        canvas.ring(center: c, radius: r + style.u(1), width: style.u(1.5), t.bg)
        canvas.fillCircle(center: c, radius: r, t.accent)
      }
      if let o = oldest, o == d {
        // The oldest one's id beside it, on the side with room.
        let w = painter.width(o.featureId, size: labelSize) + style.u(6)
        let right = c.x + r * 1.6 + style.u(4)
        let x = right + w <= plot.maxX ? right : c.x - r * 1.6 - style.u(4) - w
        painter.draw(
          o.featureId, in: Rect(x: x, y: c.y - labelSize * 0.7, width: w, height: labelSize * 1.4),
          size: labelSize, color: ink, background: t.bg, canvas: &canvas)
      }
    }
  }
}

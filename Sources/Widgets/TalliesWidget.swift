public import Projections
public import Raster

/// One bar per workflow state in its colour, with the state's name, count and points; zero
/// states muted; states the workflow does not know after the known ones, marked as such.
public struct TalliesWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> [Tally] { frame.tallies }

  public func draw(_ tallies: [Tally], in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let total = tallies.reduce(0) { $0 + $1.count }
    // The count is kept; "Workflow" goes first, then the words are shortened.
    let content = Card.draw(
      title: [
        .secondary("Workflow · "), .fixed("\(total)"),
        .label(" " + ProgressText.noun(Double(total), "feature", "features")),
      ], in: rect, style: style,
      painter: &painter, canvas: &canvas)
    guard !tallies.isEmpty, content.height > 4 else { return }
    let rowH = content.height / Double(tallies.count)
    let size = Swift.min(style.size(.body), Swift.max(style.size(.small), rowH * 0.62))
    let maxCount = Swift.max(1, tallies.map(\.count).max() ?? 1)
    let sw = Swift.min(rowH * 0.5, style.u(16))
    let gap = style.u(10)
    // The columns, for every row alike: counts are never cut, so the numbers column is as wide
    // as the widest count; the points beside them go (in every row) before a state's name is
    // shortened past a few letters, and the bar goes before the name is shortened further.
    let countW = tallies.map { painter.width("\($0.count)", size: size, bold: true, tabular: true) }.max() ?? 0
    let pointsW =
      tallies.map { painter.width(TalliesWidget.points($0), size: size, bold: true, tabular: true) }.max() ?? 0
    let labelNeed = sw + style.u(8) + (tallies.map { painter.width(TalliesWidget.label($0), size: size) }.max() ?? 0)
    let labelFloor = Swift.min(labelNeed, sw + style.u(8) + size * 5)
    let showPoints = content.width - countW - pointsW - gap >= labelFloor
    let numbersW =
      showPoints
      ? Swift.max(
        Swift.min(content.width * 0.35, painter.width("000 · 000 pt", size: size, tabular: true)), countW + pointsW)
      : countW
    // The names take what they need, as long as a short bar is left beside them.
    let barMin = style.u(24)
    var labelW = Swift.max(
      Swift.min(content.width * 0.42, style.u(250)), Swift.min(labelFloor, content.width - numbersW - gap),
      Swift.min(labelNeed, content.width - numbersW - 2 * gap - barMin))
    var barW = Swift.max(0, content.width - labelW - numbersW - 2 * gap)
    if barW < barMin {
      barW = 0
      labelW = Swift.max(0, content.width - numbersW - gap)
    }
    let barX = content.minX + labelW + gap
    for (i, tally) in tallies.enumerated() {
      let y = content.minY + Double(i) * rowH
      let row = Rect(x: content.minX, y: y, width: content.width, height: rowH)
      let color = style.stateColor(tally.state)
      let muted = tally.count == 0
      // Swatch, so colour and label always travel together.
      canvas.fillRoundedRect(
        Rect(x: row.minX, y: row.midY - sw / 2, width: sw, height: sw), radius: sw / 4,
        muted ? color.withAlpha(0.35) : color)
      let label = TalliesWidget.label(tally)
      // A state's name keeps its end ("…for testing"): its last word tells states apart. An
      // unknown one keeps its name before the "(unknown)".
      painter.draw(
        label, in: Rect(x: row.minX + sw + style.u(8), y: y, width: labelW - sw - style.u(8), height: rowH), size: size,
        color: ink, background: t.bg, keep: tally.known ? .end : .start, canvas: &canvas)
      // Bar.
      if barW > 0 {
        let barH = Swift.max(2, rowH * 0.42)
        let track = Rect(x: barX, y: row.midY - barH / 2, width: barW, height: barH)
        canvas.fillRoundedRect(track, radius: barH / 2, t.fgDim.withAlpha(0.16))
        if tally.count > 0 {
          let w = Swift.max(barH, barW * Double(tally.count) / Double(maxCount))
          canvas.fillRoundedRect(Rect(x: track.minX, y: track.minY, width: w, height: barH), radius: barH / 2, color)
        }
      }
      painter.draw(
        showPoints ? [.fixed("\(tally.count)"), .secondary(TalliesWidget.points(tally))] : [.fixed("\(tally.count)")],
        in: Rect(x: content.maxX - numbersW, y: y, width: numbersW, height: rowH), size: size, color: ink,
        background: t.bg, align: .right, bold: !muted, tabular: true, canvas: &canvas)
    }
  }

  /// A state's name as its row says it.
  static func label(_ tally: Tally) -> String { tally.known ? tally.label : "\(tally.label) (unknown)" }

  /// " · 24 pt": a count's points, said after it.
  static func points(_ tally: Tally) -> String { " · \(Numbers.short(tally.points)) pt" }
}

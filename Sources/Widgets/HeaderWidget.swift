public import Raster

/// Sprint name and goal, dates and working days left on the left; the clock on the right.
public struct HeaderWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> HeaderModel { frame.header }

  public func draw(_ m: HeaderModel, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let pad = style.u(8)
    let clockSize = style.size(.key)
    let clockWidth = painter.width("00:00", size: clockSize, bold: true, tabular: true) + style.u(12)
    let right = Rect(x: rect.maxX - clockWidth - pad, y: rect.minY, width: clockWidth, height: rect.height)
    let left = Rect(x: rect.minX + pad, y: rect.minY, width: max(0, right.minX - rect.minX - 2 * pad), height: rect.height)

    // Left: title (and goal) above the dates line.
    let titleSize = style.size(.large)
    let lineSize = style.size(.small)
    let hasGoal = m.goal != nil && rect.height > style.u(100)
    let rows = hasGoal ? 3.0 : 2.0
    let rowH = rect.height / rows
    var y = rect.minY
    painter.draw(m.title, in: Rect(x: left.minX, y: y, width: left.width, height: rowH), size: titleSize, color: ink, background: t.bg, bold: true, canvas: &canvas)
    y += rowH
    if hasGoal, let goal = m.goal {
      painter.draw(goal, in: Rect(x: left.minX, y: y, width: left.width, height: rowH), size: lineSize, color: ink, background: t.bg, canvas: &canvas)
      y += rowH
    }
    let facts = [m.dates, m.daysLeft].filter { !$0.isEmpty }.joined(separator: "  ·  ")
    painter.draw(facts, in: Rect(x: left.minX, y: y, width: left.width, height: rowH), size: lineSize, color: ink, background: t.bg, canvas: &canvas)

    // Right: the clock and the day.
    let clockBox = Rect(x: right.minX, y: rect.minY, width: right.width, height: rect.height * 0.68)
    painter.draw(m.clock, in: clockBox, size: min(clockSize, clockBox.height * 0.9), color: ink, background: t.bg, align: .right, bold: true, tabular: true, role: .key, canvas: &canvas)
    let dayBox = Rect(x: right.minX - style.u(60), y: clockBox.maxY, width: right.width + style.u(60), height: rect.height - clockBox.height)
    painter.draw(m.day, in: dayBox, size: lineSize, color: ink, background: t.bg, align: .right, canvas: &canvas)
  }
}

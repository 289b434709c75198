internal import Glyphs
public import Raster

/// Sprint name and goal, dates and working days left, the sources in one line
/// (`ConnectionsLine`), and the filter when set on the left; the clock on the right.
public struct HeaderWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> HeaderModel { frame.header }

  /// Where the clock and the day under it go in a header drawn in `rect`: their union, which
  /// overlays (the diagnostics panel) keep clear of.
  public static func clockArea(in rect: Rect, style: Style, painter: Painter) -> Rect {
    let (clock, day) = clockBoxes(in: rect, style: style, painter: painter)
    return Rect(x: day.minX, y: clock.minY, width: clock.maxX - day.minX, height: day.maxY - clock.minY)
  }

  /// The boxes the clock and the day are drawn in, right-aligned at the header's right edge.
  static func clockBoxes(in rect: Rect, style: Style, painter: Painter) -> (clock: Rect, day: Rect) {
    let right = rightColumn(in: rect, style: style, painter: painter)
    let clock = Rect(x: right.minX, y: rect.minY, width: right.width, height: rect.height * 0.68)
    let day = Rect(
      x: right.minX - style.u(60), y: clock.maxY, width: right.width + style.u(60), height: rect.height - clock.height)
    return (clock, day)
  }

  /// The column the clock sits in: wide enough for "00:00" in the key size.
  static func rightColumn(in rect: Rect, style: Style, painter: Painter) -> Rect {
    let clockWidth = painter.width("00:00", size: style.size(.key), bold: true, tabular: true) + style.u(12)
    return Rect(x: rect.maxX - clockWidth - style.u(8), y: rect.minY, width: clockWidth, height: rect.height)
  }

  public func draw(_ m: HeaderModel, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let pad = style.u(8)
    let clockSize = style.size(.key)
    let right = HeaderWidget.rightColumn(in: rect, style: style, painter: painter)
    let left = Rect(
      x: rect.minX + pad, y: rect.minY, width: max(0, right.minX - rect.minX - 2 * pad), height: rect.height)

    // Left: the title, then the goal when there is room, then the dates and days left (on one
    // line when they fit, else on two when there is room).
    let titleSize = style.size(.large)
    let lineSize = style.size(.small)
    let titleH = titleSize * 1.45
    let lineH = lineSize * 1.5
    var lines: [String] = []
    let facts = [m.dates, m.daysLeft].filter { !$0.isEmpty }
    let room = Int(saturating: (rect.height - titleH) / lineH, .down)
    let oneLine = facts.joined(separator: "  ·  ")
    if painter.width(oneLine, size: lineSize) <= left.width || facts.count < 2 {
      lines = oneLine.isEmpty ? [] : [oneLine]
    } else if room >= facts.count {
      lines = facts
    } else {
      // One line of room: the days left matter more on a wall than the dates.
      lines = [m.daysLeft]
    }
    // The sources' line after the facts (on their line when it is the only one): a wall says
    // whether it is connected before its filter and goal.
    if let c = m.connections, room >= 1 {
      if room > lines.count {
        lines.append(painter.firstFitting(c.forms, width: left.width, size: lineSize))
      } else {
        let joined = lines.flatMap { l in c.forms.map { "\(l)  ·  \($0)" } }
        let days = m.daysLeft.isEmpty ? [] : c.forms.map { "\(m.daysLeft)  ·  \($0)" }
        lines = [painter.firstFitting(joined + days + c.forms, width: left.width, size: lineSize)]
      }
    }
    // The filter before the goal: a wall showing part of the team says so first.
    if !m.scope.isEmpty, room > lines.count { lines.append(m.scope) }
    if let goal = m.goal, room > lines.count { lines.insert(goal, at: 0) }
    lines = Array(lines.prefix(Swift.max(0, room)))
    let block = titleH + Double(lines.count) * lineH
    var y = rect.minY + Swift.max(0, (rect.height - block) / 2)
    let context = m.title.hasPrefix(m.titleContext) ? m.titleContext : ""
    // Without room for a line under the title, the sources' counts follow it where they fit.
    let tail: [TextPiece] = room < 1 ? (m.connections?.forms.last.map { [.secondary("  ·  " + $0)] } ?? []) : []
    painter.draw(
      [.secondary(context), .label(String(m.title.dropFirst(context.count)))] + tail,
      in: Rect(x: left.minX, y: y, width: left.width, height: titleH), size: titleSize, color: ink,
      background: t.bg, bold: true, title: true, canvas: &canvas)
    y += titleH
    for line in lines {
      painter.draw(
        line, in: Rect(x: left.minX, y: y, width: left.width, height: lineH), size: lineSize, color: ink,
        background: t.bg, canvas: &canvas)
      y += lineH
    }

    // Right: the clock and the day.
    let (clockBox, dayBox) = HeaderWidget.clockBoxes(in: rect, style: style, painter: painter)
    painter.draw(
      m.clock, in: clockBox, size: style.keySize(fitting: clockBox.height * 0.9, preferred: clockSize), color: ink,
      background: t.bg, align: .right,
      bold: true, tabular: true, role: .key, canvas: &canvas)
    painter.draw(m.day, in: dayBox, size: lineSize, color: ink, background: t.bg, align: .right, canvas: &canvas)
  }
}

internal import Glyphs
public import Raster

/// The last few transitions: "Login flow (FEAT-ABC) → in-review   3 min ago".
public struct RecentWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> [RecentRow] { frame.recent }

  public func draw(_ rows: [RecentRow], in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let content = Card.draw(title: "Recent changes", in: rect, style: style, painter: &painter, canvas: &canvas)
    let size = style.size(.body)
    let rowH = size * 1.7
    if rows.isEmpty {
      painter.draw(
        "Nothing yet", in: Rect(x: content.minX, y: content.minY, width: content.width, height: rowH), size: size,
        color: ink, background: t.bg, canvas: &canvas)
      return
    }
    for (i, row) in rows.enumerated() {
      let y = content.minY + Double(i) * rowH
      guard y + rowH <= content.maxY + 1 else { break }
      let r = size * 0.28
      canvas.fillCircle(center: Point(content.minX + r, y + rowH / 2), radius: r, style.stateColor(row.to))
      // "12 min ago", else "12 min" where room is short; the number is never cut.
      let full = painter.width(row.age, size: size, tabular: true)
      let ageW = full <= content.width * 0.4 ? full : painter.width(row.ageNumber, size: size, tabular: true)
      // The feature's title and its new state; the id where there is room (or no title). The
      // state is what the row is for: the title is shortened first.
      painter.draw(
        row.pieces,
        in: Rect(
          x: content.minX + 3 * r, y: y, width: Swift.max(0, content.width - 3 * r - ageW - style.u(12)), height: rowH),
        size: size, color: ink, background: t.bg, canvas: &canvas)
      painter.draw(
        [.fixed(row.ageNumber), .secondary(String(row.age.dropFirst(row.ageNumber.count)))],
        in: Rect(x: content.maxX - ageW, y: y, width: ageW, height: rowH), size: size, color: ink,
        background: t.bg, align: .right, tabular: true, canvas: &canvas)
    }
  }
}

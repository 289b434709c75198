internal import Glyphs
public import Raster

/// The agent sessions at work (`AgentStripRow`): one row per lock — the session's first 8
/// characters, the feature's title and id, "for 2 h"; a lapsed lock says "lapsed 40 min ago"
/// in words beside a hollow marker; "+3 more" when the rows do not all fit; "No agent holds a
/// feature" when none does.
public struct AgentsWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> [AgentStripRow] { frame.agents }

  public func draw(_ rows: [AgentStripRow], in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let title: [TextPiece] =
      [.label("Agents")] + (rows.isEmpty ? [] : [.secondary(" · " + AgentStripRow.summary(rows))])
    let content = Card.draw(title: title, in: rect, style: style, painter: &painter, canvas: &canvas)
    let size = style.size(.body)
    let rowH = size * 1.6
    guard content.height >= size else { return }
    if rows.isEmpty {
      painter.draw(
        AgentStripRow.empty, in: Rect(x: content.minX, y: content.minY, width: content.width, height: rowH),
        size: size, color: ink, background: t.bg, canvas: &canvas)
      return
    }
    let fit = Swift.max(1, Int(saturating: (content.height + 1) / rowH, .down))
    let shown = rows.count <= fit ? rows.count : Swift.max(0, fit - 1)
    let sessionW =
      (rows.prefix(shown).map { painter.width($0.session, size: size, bold: true, tabular: true) }.max() ?? 0)
      + style.u(6)
    for (i, row) in rows.prefix(shown).enumerated() {
      let y = content.minY + Double(i) * rowH
      let r = size * 0.28
      let c = Point(content.minX + r, y + rowH / 2)
      if row.lapsed {
        canvas.ring(center: c, radius: r, width: style.u(2.5), style.semantic.error)
      } else {
        canvas.fillCircle(center: c, radius: r, style.semantic.success)
      }
      let x0 = content.minX + 3 * r
      painter.draw(
        row.session, in: Rect(x: x0, y: y, width: sessionW, height: rowH), size: size, color: ink, background: t.bg,
        bold: true, tabular: true, canvas: &canvas)
      let nameX = x0 + sessionW + style.u(10)
      let rest = Swift.max(0, content.maxX - nameX)
      // The hold whole where it fits in half the row, else shorter (a lapse keeps its word);
      // never cut: the title gives way.
      let forms = [row.held, row.shortHeld] + (row.lapsed ? ["lapsed"] : [])
      let held = painter.firstFitting(forms, width: rest * 0.5, size: size, tabular: true)
      let heldW = Swift.min(painter.width(held, size: size, tabular: true), rest)
      let name = row.title.trimmingWhiteSpace
      let pieces: [TextPiece] =
        name.isEmpty ? [.label(row.featureId)] : [.label(row.featureId + " "), .label(name)]
      painter.draw(
        pieces, in: Rect(x: nameX, y: y, width: Swift.max(0, rest - heldW - style.u(12)), height: rowH), size: size,
        color: ink, background: t.bg, canvas: &canvas)
      painter.draw(
        held, in: Rect(x: content.maxX - heldW, y: y, width: heldW, height: rowH), size: size, color: ink,
        background: t.bg, align: .right, tabular: true, canvas: &canvas)
    }
    if shown < rows.count {
      painter.draw(
        "+\(rows.count - shown) more",
        in: Rect(x: content.minX, y: content.minY + Double(shown) * rowH, width: content.width, height: rowH),
        size: size, color: ink, background: t.bg, canvas: &canvas)
    }
  }
}

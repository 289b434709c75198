internal import Glyphs
public import Raster

/// What needs a look (`AttentionModel`): a card titled "Attention" with the counts per kind,
/// one row per item — a marker word ("source", "blocked", "lapsed", "aging", "rework") beside a bar in
/// its colour, the feature's title and id, what is wrong — most urgent first, and "+3 more"
/// when the rows do not all fit; "Nothing needs attention" when empty.
public struct AttentionWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> AttentionModel { frame.attention }

  public func draw(_ m: AttentionModel, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let summary = m.summary
    let title: [TextPiece] = [.label("Attention")] + (summary.isEmpty ? [] : [.secondary(" · " + summary)])
    let content = Card.draw(title: title, in: rect, style: style, painter: &painter, canvas: &canvas)
    let size = style.size(.body)
    let rowH = size * 1.6
    guard content.height >= size else { return }
    if m.rows.isEmpty {
      painter.draw(
        AttentionModel.nothing, in: Rect(x: content.minX, y: content.minY, width: content.width, height: rowH),
        size: size, color: ink, background: t.bg, canvas: &canvas)
      return
    }
    // A source's row takes two lines: its name, then what it cannot read under it.
    func height(_ r: AttentionRow) -> Double { r.kind == .source ? rowH * 1.8 : rowH }
    var shown = 0
    var used = 0.0
    for (i, r) in m.rows.enumerated() {
      let more = i + 1 < m.rows.count ? rowH : 0
      guard used + height(r) + more <= content.height + 1 else { break }
      used += height(r)
      shown += 1
    }
    let markerW =
      AttentionRow.Kind.allCases.map { painter.width($0.marker, size: size, bold: true) }.max() ?? 0
    let bar = style.u(6)
    var y = content.minY
    for row in m.rows.prefix(shown) {
      canvas.fill(
        Rect(x: content.minX, y: y + rowH * 0.2, width: bar, height: rowH * 0.6), Self.color(row.kind, style))
      let markerX = content.minX + bar + style.u(8)
      painter.draw(
        row.kind.marker, in: Rect(x: markerX, y: y, width: markerW + 1, height: rowH), size: size, color: ink,
        background: t.bg, bold: true, canvas: &canvas)
      let nameX = markerX + markerW + style.u(14)
      let rest = Swift.max(0, content.maxX - nameX)
      if row.kind == .source {
        painter.draw(
          row.featureId, in: Rect(x: nameX, y: y, width: rest, height: rowH), size: size, color: ink,
          background: t.bg, keep: .end, canvas: &canvas)
        let small = style.size(.small)
        painter.draw(
          row.detail, in: Rect(x: markerX, y: y + rowH * 0.9, width: content.maxX - markerX, height: small * 1.4),
          size: small, color: ink, background: t.bg, canvas: &canvas)
        y += height(row)
        continue
      }
      // The detail whole where it fits in half the row, else its short form; the title is
      // shortened first.
      let detail = painter.firstFitting([row.detail, row.shortDetail], width: rest * 0.5, size: size, tabular: true)
      let detailW = Swift.min(painter.width(detail, size: size, tabular: true), rest)
      let name = row.title.trimmingWhiteSpace
      let pieces: [TextPiece] =
        name.isEmpty ? [.label(row.featureId)] : [.label(name), .secondary(" (\(row.featureId))")]
      painter.draw(
        pieces, in: Rect(x: nameX, y: y, width: Swift.max(0, rest - detailW - style.u(12)), height: rowH), size: size,
        color: ink, background: t.bg, canvas: &canvas)
      painter.draw(
        detail, in: Rect(x: content.maxX - detailW, y: y, width: detailW, height: rowH), size: size, color: ink,
        background: t.bg, align: .right, tabular: true, canvas: &canvas)
      y += height(row)
    }
    if shown < m.rows.count {
      painter.draw(
        "+\(m.rows.count - shown) more", in: Rect(x: content.minX, y: y, width: content.width, height: rowH),
        size: size, color: ink, background: t.bg, canvas: &canvas)
    }
  }

  /// The bar's colour for a kind (the marker word says the same).
  static func color(_ k: AttentionRow.Kind, _ style: Style) -> RGBA {
    switch k {
    case .source, .blocked, .lapsed: style.semantic.error
    case .aging, .rework: style.semantic.warning
    }
  }
}

public import Projections
public import Raster

/// One row per source: a status dot (live pulses gently), the name, its status and "12 s ago",
/// and a reconnect countdown while waiting to retry.
public struct ConnectionsWidget: Widget {
  public init() {}

  public struct Model: Hashable, Sendable {
    public var rows: [SourceRow]
    public var pulse: Bool
  }

  public func model(_ frame: FrameModel) -> Model {
    Model(rows: frame.sources, pulse: frame.sources.contains { $0.status == .live } && frame.pulse)
  }

  public func draw(_ m: Model, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let content = Card.draw(title: "Connections", in: rect, style: style, painter: &painter, canvas: &canvas)
    guard content.height > 4 else { return }
    let size = style.size(.body)
    let rowH = Swift.max(size * 1.5, Swift.min(size * 2.6, content.height / Double(Swift.max(1, m.rows.count))))
    if m.rows.isEmpty {
      painter.draw("No sources", in: content, size: size, color: ink, background: t.bg, canvas: &canvas)
      return
    }
    for (i, row) in m.rows.enumerated() {
      let y = content.minY + Double(i) * rowH
      guard y + size <= content.maxY + 1 else { break }
      let line = Rect(x: content.minX, y: y, width: content.width, height: Swift.min(rowH, size * 1.6))
      let r = size * 0.32
      let dot = Point(line.minX + 1.8 * r, line.midY)
      let color = dotColor(row.status, style)
      if row.status == .live {
        // The pulse: a soft halo every other second.
        if m.pulse { canvas.fillCircle(center: dot, radius: r * 1.8, color.withAlpha(0.28)) }
        canvas.fillCircle(center: dot, radius: r, color)
      } else {
        canvas.fillCircle(center: dot, radius: r, color)
      }
      var status = row.status.rawValue
      if let c = row.countdown { status += ", \(c)" }
      // The status, then its age, then the word before the age are what may go, in that order
      // of last to first: "live · updated 3 h ago", "live · 3 h ago", "live".
      let short = row.age.split(separator: " ", maxSplits: 1).last.map(String.init) ?? row.age
      let maxRight = line.width * 0.6
      let right = painter.firstFitting(
        ["\(status) · \(row.age)", "\(status) · \(short)", status], width: maxRight, size: size, tabular: true)
      let rightW = Swift.min(maxRight, painter.width(right, size: size, tabular: true))
      let nameBox = Rect(
        x: line.minX + 4.2 * r, y: line.minY, width: Swift.max(0, line.width - 4.2 * r - rightW - style.u(12)),
        height: line.height)
      // A source's name keeps its end (host and port, a file's name); the scheme goes first.
      let name = painter.firstFitting(
        [row.name, SourceRow.withoutScheme(row.name)], width: nameBox.width, size: size, bold: true)
      painter.draw(name, in: nameBox, size: size, color: ink, background: t.bg, bold: true, keep: .end, canvas: &canvas)
      painter.draw(
        right, in: Rect(x: line.maxX - rightW, y: line.minY, width: rightW, height: line.height), size: size,
        color: ink, background: t.bg, align: .right, tabular: true, canvas: &canvas)
      // The last error under the row, when there is room.
      if let detail = row.detail, rowH >= size * 2.2 {
        let small = style.size(.small)
        painter.draw(
          detail, in: Rect(x: nameBox.minX, y: line.maxY, width: line.width - 4.2 * r, height: small * 1.3),
          size: small,
          color: ink, background: t.bg, canvas: &canvas)
      }
    }
  }

  func dotColor(_ s: Projections.SourceStatus.State, _ style: Style) -> RGBA {
    switch s {
    case .live: style.semantic.success
    case .connecting, .reconnecting, .stale: style.semantic.warning
    case .offline: style.semantic.error
    case .ended: style.theme.fgMuted
    }
  }
}

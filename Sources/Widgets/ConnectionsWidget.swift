internal import Projections
public import Raster

/// One row per source: a status dot, the name, its status and "12 s ago",
/// a reconnect countdown while waiting to retry, and under it the source's detail (a gap, what
/// it cannot read, its last error). Where the rows are too tight for every detail, the sources
/// that need attention keep theirs first.
public struct ConnectionsWidget: Widget {
  public init() {}

  /// The rows. The dot does not pulse: the dot, the word "live" and the age say a source is live,
  /// and a wall's clock that board is not frozen; a pulse would redraw every board every second
  /// (and make a snapshot depend on its second).
  public struct Model: Hashable, Sendable {
    public var rows: [SourceRow]
  }

  public func model(_ frame: FrameModel) -> Model { Model(rows: frame.sources) }

  public func draw(_ m: Model, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let content = Card.draw(title: "Connections", in: rect, style: style, painter: &painter, canvas: &canvas)
    guard content.height > 4 else { return }
    let size = style.size(.body)
    let small = style.size(.small)
    if m.rows.isEmpty {
      painter.draw("No sources", in: content, size: size, color: ink, background: t.bg, canvas: &canvas)
      return
    }
    let rows = Self.rows(m.rows, height: content.height, size: size, small: small)
    for (i, row) in m.rows.enumerated() {
      let y = content.minY + rows[i].y
      guard y + size <= content.maxY + 1 else { break }
      let line = Rect(x: content.minX, y: y, width: content.width, height: rows[i].line)
      let r = size * 0.32
      let dot = Point(line.minX + 1.8 * r, line.midY)
      canvas.fillCircle(center: dot, radius: r, dotColor(row.status, style))
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
      // The detail under the row, when it has room.
      if let detail = row.detail, rows[i].detail {
        painter.draw(
          detail, in: Rect(x: nameBox.minX, y: line.maxY, width: line.width - 4.2 * r, height: rows[i].below),
          size: small,
          color: ink, background: t.bg, canvas: &canvas)
      }
    }
  }

  /// Where each row goes: its top (from the content's), its line's height, whether its detail
  /// is drawn under it and how high that is. Rows of equal height when that leaves room for every
  /// detail (at most 2.6 lines of `size` each), or for none; else each row its line and the
  /// details, in order, those of the sources that need attention first, while they fit.
  static func rows(
    _ rows: [SourceRow], height: Double, size: Double, small: Double
  ) -> [(y: Double, line: Double, detail: Bool, below: Double)] {
    let even = Swift.max(size * 1.5, Swift.min(size * 2.6, height / Double(Swift.max(1, rows.count))))
    let evenRows = rows.indices.map {
      (Double($0) * even, Swift.min(even, size * 1.6), even >= size * 2.2, small * 1.3)
    }
    if even >= size * 2.2 || !rows.contains(where: { $0.detail != nil }) { return evenRows }
    // Tight: lines a little closer, and details a little closer under them.
    let below = small * 1.25
    var spare = height - Double(rows.count) * size * 1.4
    var shown = [Bool](repeating: false, count: rows.count)
    let order = rows.indices.filter { rows[$0].detail != nil }.sorted {
      (rows[$0].needsAttention ? 0 : 1, $0) < (rows[$1].needsAttention ? 0 : 1, $1)
    }
    for i in order where spare >= below {
      shown[i] = true
      spare -= below
    }
    guard shown.contains(true) else { return evenRows }
    // What is left spaces the lines, up to the line height of the even rows.
    let line = Swift.min(size * 1.6, size * 1.4 + Swift.max(0, spare) / Double(rows.count))
    var y = 0.0
    var out: [(y: Double, line: Double, detail: Bool, below: Double)] = []
    for i in rows.indices {
      out.append((y, line, shown[i], below))
      y += line + (shown[i] ? below : 0)
    }
    return out
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

public import Projections
public import Raster

/// The share of features done, as a big number in a progress ring (or a bar when the cell is wide
/// and low), and "14 of 21 done · 1 rejected" under it. The ring and bar show done work in the
/// success colour and work closed without being done (rejected, cancelled) muted after it, so
/// together they are the completed share the burndown counts.
public struct ProgressWidget: Widget {
  public init() {}

  public func model(_ frame: FrameModel) -> Progress { frame.progress }

  public func draw(_ p: Progress, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    let content = Card.draw(title: "Progress", in: rect, style: style, painter: &painter, canvas: &canvas)
    guard content.width > 8, content.height > 8 else { return }
    // Whole percent on the wall: "67%" reads faster from across a room than "66.7%".
    let percent = ProgressText.donePercent(p)
    let detail = ProgressText.summaryPieces(p)
    let fraction = p.total == 0 ? 0 : Double(p.done) / Double(p.total)
    let closedFraction = p.total == 0 ? 0 : Double(p.completed - p.done) / Double(p.total)
    let success = style.semantic.success
    let closedInk = t.fgMuted
    let keySize = style.size(.key)

    let numberW = painter.width("100%", size: keySize, bold: true, tabular: true) + style.u(16)
    let detailW = painter.width(ProgressText.summary(p), size: style.size(.body), tabular: true)
    if content.width > content.height * 1.6 && content.width - numberW >= detailW {
      // Wide: the number on the left, a bar and the detail on the right.
      painter.draw(
        percent, in: Rect(x: content.minX, y: content.minY, width: numberW, height: content.height),
        size: style.keySize(fitting: content.height),
        color: ink, background: t.bg, bold: true, tabular: true, role: .key, canvas: &canvas)
      let barX = content.minX + numberW
      let barW = Swift.max(0, content.width - numberW)
      let barH = Swift.min(style.u(22), content.height * 0.25)
      let bar = Rect(x: barX, y: content.midY - barH - style.u(4), width: barW, height: barH)
      canvas.fillRoundedRect(bar, radius: barH / 2, t.fgDim.withAlpha(0.25))
      if fraction + closedFraction > 0 {
        canvas.fillRoundedRect(
          Rect(x: bar.minX, y: bar.minY, width: Swift.max(barH, barW * (fraction + closedFraction)), height: barH),
          radius: barH / 2, closedInk)
      }
      if fraction > 0 {
        canvas.fillRoundedRect(
          Rect(x: bar.minX, y: bar.minY, width: Swift.max(barH, barW * fraction), height: barH), radius: barH / 2,
          success)
      }
      painter.draw(
        detail, in: Rect(x: barX, y: content.midY + style.u(4), width: barW, height: style.size(.body) * 1.5),
        size: style.size(.body), color: ink, background: t.bg, tabular: true, canvas: &canvas)
      return
    }
    // Tall or square: a ring with the number inside, the detail below; without the ring when
    // there is no room for one around the number.
    let detailH = style.size(.body) * 1.6
    let side = Swift.min(content.width, content.height - detailH)
    guard side >= keySize * 2.6 else {
      let numberBox = Rect(
        x: content.minX, y: content.minY, width: content.width, height: Swift.max(0, content.height - detailH))
      painter.draw(
        percent, in: numberBox, size: style.keySize(fitting: numberBox.height), color: ink, background: t.bg,
        align: .center, bold: true, tabular: true,
        role: .key, canvas: &canvas)
      painter.draw(
        detail, in: Rect(x: content.minX, y: numberBox.maxY, width: content.width, height: detailH),
        size: style.size(.body), color: ink, background: t.bg, align: .center, tabular: true, canvas: &canvas)
      return
    }
    let c = Point(content.midX, content.minY + side / 2)
    let ringW = Swift.max(3, side * 0.09)
    canvas.ring(center: c, radius: side / 2, width: ringW, t.fgDim.withAlpha(0.25))
    if closedFraction > 0 {
      canvas.arc(
        center: c, radius: side / 2, width: ringW, startAngle: fraction * 2 * Double.pi,
        endAngle: (fraction + closedFraction) * 2 * Double.pi, closedInk, cap: .butt)
    }
    if fraction > 0 {
      canvas.arc(
        center: c, radius: side / 2, width: ringW, startAngle: 0, endAngle: fraction * 2 * Double.pi, success,
        cap: .round)
    }
    let inner = side - 2 * ringW - style.u(16)
    let numberSize = Swift.max(keySize, inner * 0.3)
    painter.draw(
      percent, in: Rect(x: c.x - inner / 2, y: c.y - numberSize, width: inner, height: numberSize * 2),
      size: numberSize, color: ink, background: t.bg, align: .center, bold: true, tabular: true, role: .key,
      canvas: &canvas)
    painter.draw(
      detail, in: Rect(x: content.minX, y: content.minY + side, width: content.width, height: detailH),
      size: style.size(.body), color: ink, background: t.bg, align: .center, tabular: true, canvas: &canvas)
  }
}

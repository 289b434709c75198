internal import Glyphs
public import Raster

/// Three key numbers for a 10-foot view: remaining and done in the burndown's unit (they never
/// mix units: points left beside points done), and working days left. Work closed without being
/// done is said beside done, so that left + done + closed is the sprint's scope. Without a sprint,
/// the third number is the flow's throughput ("2.4 done per day").
public struct NumbersWidget: Widget {
  public init() {}

  public struct Model: Hashable, Sendable {
    public var items: [Item]
    public struct Item: Hashable, Sendable {
      public var value: String
      /// What the value counts: "points done".
      public var caption: String
      /// What is said after it where there is room: " · 1 rejected".
      public var detail: String
      /// The whole label: "points done · 1 rejected".
      public var label: String { caption + detail }

      public init(value: String, label: String, detail: String = "") {
        self.value = value
        self.caption = label
        self.detail = detail
      }
    }
  }

  public func model(_ frame: FrameModel) -> Model {
    let b = frame.burndown
    let p = frame.progress
    let points = b?.unit == .points
    let unit = points ? "points" : "features"
    let remaining = b.flatMap { $0.remaining.compactMap { $0 }.last } ?? Double(p.total - p.completed)
    let done = points ? p.donePoints : Double(p.done)
    let closed = points ? p.completedPoints - p.donePoints : Double(p.completed - p.done)
    let closedLabel = p.closed.count == 1 ? p.closed[0].label : "closed"
    return Model(items: [
      .init(
        value: Numbers.short(remaining),
        label: ProgressText.noun(remaining, "\(points ? "point" : "feature") left", "\(unit) left")),
      .init(
        value: Numbers.short(done),
        label: ProgressText.noun(done, "\(points ? "point" : "feature") done", "\(unit) done"),
        detail: ProgressText.closed([(closedLabel, closed)])),
      b.map {
        .init(
          value: String($0.daysLeft),
          label: ProgressText.noun(Double($0.daysLeft), "working day left", "working days left"))
      }
        ?? frame.flow.map { .init(value: Numbers.short($0.throughputPerDay), label: "done per day") }
        ?? .init(value: "–", label: "working days left"),
    ])
  }

  public func draw(_ m: Model, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    canvas.strokeRoundedRect(rect, radius: style.radius, width: Swift.max(1, style.u(2)), t.border)
    let vertical = rect.height > rect.width
    let n = Double(m.items.count)
    for (i, item) in m.items.enumerated() {
      let cell =
        vertical
        ? Rect(x: rect.minX, y: rect.minY + Double(i) * rect.height / n, width: rect.width, height: rect.height / n)
        : Rect(x: rect.minX + Double(i) * rect.width / n, y: rect.minY, width: rect.width / n, height: rect.height)
      let labelSize = style.size(.title)
      let valueSize = Swift.max(style.size(.key), Swift.min(style.size(.huge) * 1.6, cell.height * 0.5))
      let valueBox = Rect(
        x: cell.minX, y: cell.minY + cell.height * 0.12, width: cell.width, height: cell.height * 0.55)
      painter.draw(
        item.value, in: valueBox, size: valueSize, color: ink, background: t.bg, align: .center, bold: true,
        tabular: true, role: .key, canvas: &canvas)
      painter.draw(
        [.label(item.caption)] + (item.detail.isEmpty ? [] : [.secondary(item.detail)]),
        in: Rect(x: cell.minX, y: valueBox.maxY, width: cell.width, height: labelSize * 1.6),
        size: labelSize, color: ink, background: t.bg, align: .center, canvas: &canvas)
    }
  }

}

internal import Raster

/// The horizontal grid of a chart — a line at every tick of its y axis, and the tick's value
/// at the left — as the burndown and the cumulative flow both draw it.
enum ChartGrid {
  /// Which ticks carry a label when not all fit (one label per `every` ticks).
  enum Labels {
    /// Counted up from the bottom, and the top one always (the burndown: zero is read first).
    case fromBottom
    /// Counted down from the top (the flow: the total is read first).
    case fromTop
  }

  /// Draws the lines and labels of `axis` over `plot`, the labels right-aligned in the
  /// `labelWidth` left of it from `labelX`.
  static func draw(
    _ axis: (max: Double, step: Double, ticks: Int), plot: Rect, labelX: Double, labelWidth: Double,
    labelSize: Double, labels: Labels, style: Style, painter: inout Painter, canvas: inout Canvas
  ) {
    let t = style.theme
    let ink = style.text(on: t.bg)
    func y(_ v: Double) -> Double { plot.maxY - v / axis.max * plot.height }
    // Labels every `every` ticks, so that none crowds another.
    let every = Swift.max(1, Int(saturating: labelSize * 1.3 / (plot.height / Double(axis.ticks)), .up))
    for k in 0...axis.ticks {
      let v = Double(k) * axis.step
      canvas.line(
        from: Point(plot.minX, y(v)), to: Point(plot.maxX, y(v)), width: style.u(k == 0 ? 2 : 1),
        k == 0 ? t.border : t.border.withAlpha(0.6))
      let labelled =
        switch labels {
        case .fromBottom: k % every == 0 || k == axis.ticks
        case .fromTop: (axis.ticks - k) % every == 0
        }
      guard labelled else { continue }
      painter.draw(
        Numbers.short(v), in: Rect(x: labelX, y: y(v) - labelSize, width: labelWidth, height: labelSize * 2),
        size: labelSize, color: ink, background: t.bg, align: .right, tabular: true, canvas: &canvas)
    }
  }
}

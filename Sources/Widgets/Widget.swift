internal import Glyphs
public import Raster

/// A widget draws one part of a `FrameModel` into a rectangle.
///
/// Equal models draw equal pixels, so the renderer skips a widget whose model did not change.
public protocol Widget: Sendable {
  associatedtype Model: Hashable & Sendable
  /// The part of the frame this widget shows.
  func model(_ frame: FrameModel) -> Model
  /// Draws `model` into `rect` (the widget's whole cell, background already cleared).
  func draw(_ model: Model, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas)
}

/// A widget of any type, with its model erased for comparison.
public struct AnyWidget: Sendable {
  public let kind: String
  private let _model: @Sendable (FrameModel) -> AnyHashable
  private let _draw: @Sendable (AnyHashable, Rect, Style, inout Painter, inout Canvas) -> Void

  public init<W: Widget>(kind: String, _ w: W) {
    self.kind = kind
    _model = { AnyHashable(w.model($0)) }
    _draw = { m, r, s, p, c in w.draw(m.base as! W.Model, in: r, style: s, painter: &p, canvas: &c) }
  }

  public func model(_ frame: FrameModel) -> AnyHashable { _model(frame) }

  public func draw(_ model: AnyHashable, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    _draw(model, rect, style, &painter, &canvas)
  }
}

/// The frame every widget sits in: a rounded outline in the theme's border colour and a title.
enum Card {
  /// Draws the card and its title; returns the area left for content.
  static func draw(
    title: String, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas
  ) -> Rect {
    draw(title: [.label(title)], in: rect, style: style, painter: &painter, canvas: &canvas)
  }

  /// Draws the card and its title of `title` pieces (fitted: a count kept, its words shortened);
  /// returns the area left for content.
  static func draw(
    title: [TextPiece], in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas
  ) -> Rect {
    let t = style.theme
    canvas.strokeRoundedRect(rect, radius: style.radius, width: max(1, style.u(2)), t.border)
    let pad = style.padding
    let titleSize = style.size(.body)
    let titleBox = titleRow(in: rect, style: style)
    let hasTitle = title.contains { !$0.text.isEmpty }
    if hasTitle {
      painter.draw(
        title, in: titleBox, size: titleSize, color: style.text(on: t.bg), background: t.bg, bold: true, title: true,
        canvas: &canvas)
    }
    let top = !hasTitle ? rect.minY + pad : titleBox.maxY + pad * 0.4
    return Rect(x: rect.minX + pad, y: top, width: rect.width - 2 * pad, height: max(0, rect.maxY - pad - top))
  }

  /// The row the card's title sits in (its body-size text, left-aligned).
  static func titleRow(in rect: Rect, style: Style) -> Rect {
    let pad = style.padding
    return Rect(
      x: rect.minX + pad, y: rect.minY + pad * 0.6, width: rect.width - 2 * pad, height: style.size(.body) * 1.4)
  }
}

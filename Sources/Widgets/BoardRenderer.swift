internal import Glyphs
public import Layout
public import Raster

/// Lays a layout page out on a canvas and draws it, redrawing only the widgets whose model
/// changed since the last frame.
public struct BoardRenderer {
  public private(set) var layout: LayoutFile
  public private(set) var page: Int = 0
  public var painter: Painter
  private var widgets: [[AnyWidget]]
  /// What each widget of the current page last drew, with the rectangle and style it drew in.
  private var drawn: [Int: AnyHashable] = [:]
  private var drawnKey: FrameKey?
  private var lastBanner: String??
  /// The text each widget of the current page last drew, and the banner's, while `keepsText`.
  private var widgetTexts: [Int: [Painter.Record]] = [:]
  private var bannerTexts: [Painter.Record] = []

  /// Whether the text drawn is kept (`texts`), for a display that writes text as characters.
  /// Setting it redraws the next frame in full; it does not change a pixel.
  public var keepsText = false {
    didSet {
      painter.recording = keepsText
      painter.records = []
      invalidate()
    }
  }

  /// Every line of text the canvas shows, widget by widget in the layout's order, then the
  /// banner's; empty unless `keepsText`.
  public var texts: [Painter.Record] {
    widgetTexts.keys.sorted().flatMap { widgetTexts[$0]! } + bannerTexts
  }

  /// What invalidates everything: size, theme, variant, scale, page.
  private struct FrameKey: Equatable {
    var width: Int
    var height: Int
    var theme: String
    var variant: String
    var unit: Double
    var page: Int
    var banner: Bool
  }

  public init(layout: LayoutFile, painter: Painter) {
    self.layout = layout
    self.painter = painter
    self.widgets = layout.pages.map { $0.widgets.map(WidgetRegistry.make) }
  }

  /// Replaces the layout (hot reload); the next frame is drawn in full.
  public mutating func setLayout(_ l: LayoutFile) {
    layout = l
    widgets = l.pages.map { $0.widgets.map(WidgetRegistry.make) }
    page = min(page, l.pages.count - 1)
    invalidate()
  }

  /// Shows page `p` (wrapping around).
  public mutating func show(page p: Int) {
    let n = layout.pages.count
    page = ((p % n) + n) % n
  }

  /// Forgets what was drawn: the next frame is drawn in full.
  public mutating func invalidate() {
    drawn = [:]
    drawnKey = nil
    lastBanner = nil
    widgetTexts = [:]
    bannerTexts = []
  }

  /// Draws `frame` onto `canvas`; returns the rectangles that changed (empty when nothing did).
  ///
  /// While the banner shows, the page is laid out above it, so it never hides a widget; its
  /// coming and going redraws the frame in full (it is rare, and the layout moves).
  @discardableResult
  public mutating func render(
    _ frame: FrameModel, style: Style, scale: Double = 1, into canvas: inout Canvas
  ) -> [IRect] {
    let key = FrameKey(
      width: canvas.width, height: canvas.height, theme: style.theme.id, variant: style.variant.name, unit: style.unit,
      page: page, banner: frame.banner != nil)
    var dirty: [IRect] = []
    painter.floors = Painter.Floors(info: style.minimumInfoSize, key: style.minimumKeySize)
    if key != drawnKey {
      drawn = [:]
      lastBanner = nil
      widgetTexts = [:]
      bannerTexts = []
      canvas.fill(canvas.bounds, style.theme.bg)
      dirty.append(canvas.bounds)
      drawnKey = key
    }
    let banner = Banner.rect(canvas: canvas, style: style)
    let pageHeight = frame.banner == nil ? canvas.height : Int(saturating: banner.minY)
    let frames = layout.frames(
      page: page, width: canvas.width, height: pageHeight, scale: scale, unitHeight: canvas.height)
    for (i, (_, rect)) in frames.enumerated() {
      let widget = widgets[page][i]
      let model = widget.model(frame)
      if drawn[i] == model { continue }
      let area = rect.enclosing.intersection(canvas.bounds)
      canvas.fill(area, style.theme.bg)
      let recorded = painter.records.count
      canvas.withClip(area) { c in widget.draw(model, in: rect, style: style, painter: &painter, canvas: &c) }
      if keepsText { widgetTexts[i] = takeRecords(from: recorded) }
      drawn[i] = model
      dirty.append(area)
    }
    if let text = frame.banner, lastBanner != .some(text) {
      let recorded = painter.records.count
      Banner.draw(text, in: banner, style: style, painter: &painter, canvas: &canvas)
      if keepsText { bannerTexts = takeRecords(from: recorded) }
      dirty.append(banner.enclosing.intersection(canvas.bounds))
    }
    lastBanner = .some(frame.banner)
    return dirty
  }

  /// The painter's records from `start` on, taken out of it (so that they do not pile up).
  private mutating func takeRecords(from start: Int) -> [Painter.Record] {
    let taken = Array(painter.records[start...])
    painter.records.removeSubrange(start...)
    return taken
  }

  /// What an overlay drawn over the current page on a `width`×`height` frame must not cover: the
  /// clock (and day) of each header, and the banner when it shows — laid out as `render` lays
  /// them out.
  public func keepClear(width: Int, height: Int, bannerShown: Bool, style: Style, scale: Double = 1) -> [Rect] {
    let banner = Banner.rect(width: width, height: height, style: style)
    let pageHeight = bannerShown ? Int(saturating: banner.minY) : height
    let frames = layout.frames(page: page, width: width, height: pageHeight, scale: scale, unitHeight: height)
    var areas = frames.filter { $0.0.kind == "header" }.map {
      HeaderWidget.clockArea(in: $0.1, style: style, painter: painter)
    }
    if bannerShown { areas.append(banner) }
    return areas
  }
}

/// "Not connected — showing data from 14:02", across the bottom of the board.
enum Banner {
  static func rect(canvas: Canvas, style: Style) -> Rect {
    rect(width: canvas.width, height: canvas.height, style: style)
  }

  static func rect(width: Int, height: Int, style: Style) -> Rect {
    let h = (style.size(.title) * 1.9).rounded()
    return Rect(x: 0, y: Double(height) - h, width: Double(width), height: h)
  }

  static func draw(_ text: String, in rect: Rect, style: Style, painter: inout Painter, canvas: inout Canvas) {
    let bg = style.semantic.warning
    canvas.fill(rect.enclosing, bg)
    // Dark ink on amber reads at about 10:1.
    let ink = RGBA(r: 0x11, g: 0x11, b: 0x11)
    painter.draw(
      pieces(text), in: rect.inset(dx: style.u(24), dy: 0), size: style.size(.title), color: ink, background: bg,
      align: .center, bold: true, canvas: &canvas)
  }

  /// "Not connected — showing data from 14:02" in pieces: the time is kept, "showing data" goes
  /// first, then the reason is shortened.
  static func pieces(_ text: String) -> [TextPiece] {
    let marker = " — showing data from "
    let chars = Array(text)
    let m = Array(marker)
    guard let at = chars.indices.first(where: { chars[$0...].starts(with: m) }) else { return [.label(text)] }
    return [
      .label(String(chars[..<at]) + " — "), .secondary("showing data "),
      .fixed("from " + String(chars[(at + m.count)...])),
    ]
  }
}

public import Clock
public import DisplayCore
internal import Kiosk
internal import Projections
public import Raster
internal import Widgets

/// The board in pixels: the scene's widgets drawn into the presenter's board (only those
/// whose model changed), the diagnostics panel over them, and, for a display that writes text as
/// characters, the lines of text the frame shows.
public struct PixelRenderer: Renderer {
  /// Taken out while it draws (`render`), so that it is the one reference: never copied.
  public private(set) var scene: Scene
  private let clock: Clock
  private let writesText: Bool
  /// Where the diagnostics panel was on the last frame.
  private var lastPanel: IRect?

  /// - Parameter writesText: the display writes the frame's text as characters (a terminal):
  ///   the renderer then keeps what each widget wrote.
  public init(scene: Scene, writesText: Bool, clock: Clock) {
    self.scene = scene
    self.clock = clock
    self.writesText = writesText
    if writesText { self.scene.renderer.keepsText = true }
  }

  public var pageDurations: [Double] { scene.renderer.layout.pages.map(\.duration) }
  public var background: RGBA { scene.theme.bg }
  public mutating func show(page: Int) { scene.renderer.show(page: page) }

  public mutating func apply(_ change: RendererChange) {
    switch change {
    case .theme(let step): scene.cycleTheme(step)
    case .nextVariant: scene.cycleVariant()
    case .invalidate: scene.renderer.invalidate()
    case .reload(let fresh, let themeChanged, let variantChanged):
      scene.replace(with: fresh, themeChanged: themeChanged, variantChanged: variantChanged)
      scene.renderer.invalidate()
    }
  }

  public mutating func render(
    _ request: RenderRequest, diagnostics: inout Diagnostics, on presenter: inout Presenter
  ) throws(DisplayError) {
    guard request.plan.draw else { return }
    let started = clock.monotonic()
    var look = request.look
    look.background = scene.theme.bg
    // The board is the display's own memory where it lends it: one that holds nothing to build
    // on (the first frame drawn there, a changed look) is drawn whole.
    if try presenter.beginFrame(path: request.plan.path, look: look) { scene.renderer.invalidate() }
    let frame = FrameModel(view: request.view, reconnectAt: request.reconnectAt)
    let board = (width: presenter.board.width, height: presenter.board.height)
    // The panel goes where it covers neither the clock nor the banner. One that moved, changed
    // size or went away leaves nothing behind: the frame is then drawn in full.
    if diagnostics.enabled { diagnostics.sources = request.view.sources }
    let panelText = diagnostics.visible ? diagnostics.lines : []
    let panel =
      diagnostics.visible
      ? diagnostics.panel(
        for: panelText, width: board.width, height: board.height, scene: scene, bannerShown: frame.banner != nil)
      : nil
    if panel?.enclosing != lastPanel { scene.renderer.invalidate() }
    lastPanel = panel?.enclosing
    var dirty = scene.draw(frame, into: &presenter.board)
    let recorded = scene.renderer.painter.records.count
    if let panel { dirty.append(diagnostics.draw(panelText, in: panel, on: &presenter.board, scene: &scene)) }
    var texts: [DisplayText] = []
    if writesText {
      let panelRecords = Array(scene.renderer.painter.records[recorded...])
      scene.renderer.painter.records.removeSubrange(recorded...)
      texts = BoardTexts.texts(board: scene.renderer.texts, panel: panel.map { ($0.enclosing, panelRecords) })
    }
    diagnostics.frameTime = clock.monotonic().seconds(since: started)
    if try presenter.present(board: dirty, path: request.plan.path, look: look, texts: texts) {
      diagnostics.framePresented()
    }
  }
}

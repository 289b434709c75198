public import DisplayCore
public import Kiosk
public import Projections
public import Raster
public import WallboardCore

/// What draws a frame of the board for the run loop: the pixel board (`PixelRenderer`) or the
/// plain text (`TextBoardRenderer`). The loop asks it for nothing else than this: it never asks
/// which one it has.
public protocol Renderer {
  /// How long each page of the layout shows, in seconds (one page of 0: no turning).
  var pageDurations: [Double] { get }
  /// The colour around the board (what a burn-in move uncovers).
  var background: RGBA { get }
  /// Shows `page` from the next frame on.
  mutating func show(page: Int)
  /// Takes a key's change of theme or variant, a reloaded scene, or the need to draw whole.
  mutating func apply(_ change: RendererChange)
  /// Draws `request`'s view and presents it on `presenter` as its plan says; counts what it
  /// presented, and how long it took, in `diagnostics`.
  mutating func render(
    _ request: RenderRequest, diagnostics: inout Diagnostics, on presenter: inout Presenter
  ) throws(DisplayError)
}

/// What a renderer is told between frames.
public enum RendererChange {
  /// A theme key: the next (+1) or the previous (−1) theme.
  case theme(Int)
  /// The variant key: the next variant.
  case nextVariant
  /// The next frame is drawn whole (a resize, a lost picture, the panel toggled).
  case invalidate
  /// The layout, themes and scale of a freshly loaded scene (`Scene.replace`).
  case reload(Scene, themeChanged: Bool, variantChanged: Bool)
}

/// One frame to draw: the board's one view, the scheduler's plan and the screen's look.
public struct RenderRequest {
  public var view: BoardView
  public var plan: FrameScheduler.Plan
  public var look: FrameScheduler.Look
  /// When each waiting source tries again, by origin (the sources' line shows it).
  public var reconnectAt: [String: Instant]

  public init(
    view: BoardView, plan: FrameScheduler.Plan, look: FrameScheduler.Look, reconnectAt: [String: Instant] = [:]
  ) {
    self.view = view
    self.plan = plan
    self.look = look
    self.reconnectAt = reconnectAt
  }
}

/// `--display text`: the board as plain text (`TextBoard`), the whole of it every frame.
public struct TextBoardRenderer: Renderer {
  public init() {}
  public var pageDurations: [Double] { [0] }
  public var background: RGBA { RGBA(r: 0, g: 0, b: 0) }
  public mutating func show(page: Int) {}
  public mutating func apply(_ change: RendererChange) {}
  public mutating func render(
    _ request: RenderRequest, diagnostics: inout Diagnostics, on presenter: inout Presenter
  ) throws(DisplayError) {
    let view = request.view
    try presenter.present { TextBoard.render(view: view) }
  }
}

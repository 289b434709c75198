public import DisplayCore
public import Kiosk
public import Raster

/// What stands between the renderers and the display: the board canvas the pixel renderer draws
/// on, at the display's size turned as the screen is, and the screen frame kept from the last
/// frame when the screen shows something else than the board itself (turned, dimmed, or moved
/// on a display that cannot move frames), so that a frame where little changed redoes only that.
///
/// It owns both buffers: a renderer draws into `board` and hands the presenter the rectangles
/// that changed; the presenter turns, moves and dims them for the screen (`Screen`) and presents
/// the result.
public struct Presenter {
  public let display: any Display
  /// Degrees clockwise the board is turned on the screen (`--rotate`).
  public let rotation: Int
  /// The board, drawn at `screen.canvasSize` (the renderers' canvas).
  public var board: Canvas
  /// What the screen showed last when it was not the board itself.
  private var screenFrame: Canvas?
  /// The frames presented so far.
  public private(set) var presented = 0

  /// - Parameter background: the board canvas's colour until the first frame is drawn.
  public init(display: any Display, rotation: Int, background: RGBA = RGBA(r: 0, g: 0, b: 0)) {
    self.display = display
    self.rotation = rotation
    board = Canvas(width: 16, height: 16)
    if display.traits.drawsPixels { board = makeBoard(background: background) }
  }

  /// The screen the display is now.
  public var screen: Screen {
    Screen(width: display.size.width, height: display.size.height, rotation: rotation)
  }

  private func makeBoard(background: RGBA) -> Canvas {
    let (w, h) = screen.canvasSize
    return Canvas(width: max(16, w), height: max(16, h), background: background)
  }

  /// The display changed size: a new board canvas, and nothing kept.
  public mutating func resized(background: RGBA) {
    board = makeBoard(background: background)
    screenFrame = nil
  }

  /// The display lost its pixels: the next frame is presented whole.
  public mutating func lostPicture() { screenFrame = nil }

  /// Presents `text`, the whole frame of a display that draws no pixels.
  public mutating func present(text: @escaping () -> String) throws(DisplayError) {
    try display.present(DisplayFrame(canvas: board, dirty: nil, text: text))
    presented += 1
  }

  /// Presents the board as `path` says (`FrameScheduler.plan`), where `dirty` is what changed
  /// on `board` since the last frame, `texts` what it shows as characters. Returns whether a
  /// frame went to the display (a frame where nothing changed is not presented).
  @discardableResult
  public mutating func present(
    board dirty: [IRect], path: FrameScheduler.Path, look: FrameScheduler.Look, texts: [DisplayText]
  ) throws(DisplayError) -> Bool {
    let offset = (dx: look.offset.dx, dy: look.offset.dy)
    switch path {
    case .none:
      return false
    case .board(let whole):
      // The board itself, moved by the display where it must be (the framebuffer).
      screenFrame = nil
      guard whole || !dirty.isEmpty else { return false }
      try display.present(
        DisplayFrame(
          canvas: board, dirty: whole ? nil : dirty, offset: offset, background: look.background, texts: texts))
    case .screen(whole: false) where screenFrame.map(fits) == true:
      // The same turn, offset and night as the last frame: only what changed is redone.
      var out = screenFrame!
      screenFrame = nil  // `out` is the one reference: updated in place, not copied
      let rects = screen.update(&out, from: board, dirty: dirty, offset: offset, night: look.night)
      defer { screenFrame = out }
      guard !rects.isEmpty else { return false }
      try display.present(DisplayFrame(canvas: out, dirty: rects, texts: onScreen(texts, look: look)))
    case .screen:
      let out = screen.frame(for: board, offset: offset, night: look.night, background: look.background)
      screenFrame = out
      try display.present(DisplayFrame(canvas: out, dirty: nil, texts: onScreen(texts, look: look)))
    }
    presented += 1
    return true
  }

  private func fits(_ frame: Canvas) -> Bool {
    frame.width == display.size.width && frame.height == display.size.height
  }

  private func onScreen(_ texts: [DisplayText], look: FrameScheduler.Look) -> [DisplayText] {
    BoardTexts.onScreen(texts, rotation: rotation, offset: (look.offset.dx, look.offset.dy), night: look.night)
  }
}

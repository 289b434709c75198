public import DisplayCore
public import Kiosk
public import Raster

/// What stands between the renderers and the display: the board canvas the pixel renderer draws
/// on, at the display's size turned as the screen is, and the screen frame when the screen shows
/// something else than the board itself (turned, dimmed, or moved on a display that cannot move
/// frames), so that a frame where little changed redoes only that.
///
/// **Drawing in place.** Where the display lends its own memory (`Display.drawingBuffer`: the
/// framebuffer's back page, the DRM back buffer, SDL's window surface), the board is drawn
/// straight into it and presenting it copies nothing: there is no board canvas of the process's
/// own. When the screen shows a screen frame, the board is a canvas of its own and the screen
/// frame is what is drawn into the display's memory. A display that lends nothing (a PNG file,
/// a terminal, a framebuffer in RGB565) gets the board or the screen frame, owned here, and
/// copies what changed.
///
/// Before a frame is drawn, `beginFrame` says where (and whether the renderer must draw it
/// whole); then a renderer draws into `board` and hands `present` the rectangles that changed.
public struct Presenter {
  public let display: any Display
  /// Degrees clockwise the board is turned on the screen (`--rotate`).
  public let rotation: Int
  /// The board, drawn at `screen.canvasSize` (the renderers' canvas): the display's memory
  /// while it lends it for the board, else a canvas of its own.
  public var board: Canvas
  /// What the screen showed last when it was not the board itself, kept here for a display that
  /// lends no memory.
  private var screenFrame: Canvas?
  /// What the last frame presented was, so that a frame drawn in place knows whether the
  /// display's memory holds the board it builds on.
  private var last = Shown.nothing
  /// Whether the frame being drawn must be drawn and presented whole.
  private var drawsWhole = true
  /// The frames presented so far.
  public private(set) var presented = 0

  private enum Shown { case nothing, lentBoard, lentScreen, copied }

  /// The board is made at the first frame (`beginFrame`), in that frame's background.
  public init(display: any Display, rotation: Int) {
    self.display = display
    self.rotation = rotation
    board = Canvas(width: 1, height: 1)
  }

  /// The screen the display is now.
  public var screen: Screen {
    Screen(width: display.size.width, height: display.size.height, rotation: rotation)
  }

  private var boardSize: (width: Int, height: Int) {
    let (w, h) = screen.canvasSize
    return (max(16, w), max(16, h))
  }

  /// Whether `board` is a canvas of its own of the board's size.
  private var ownsBoard: Bool {
    !board.isLent && board.width == boardSize.width && board.height == boardSize.height
  }

  /// The display changed size: nothing kept, the next frame drawn whole, on a board made then
  /// in that frame's background.
  public mutating func resized() {
    board = Canvas(width: 1, height: 1)
    screenFrame = nil
    last = .nothing
  }

  /// The display lost its pixels: the next frame is drawn and presented whole.
  public mutating func lostPicture() {
    screenFrame = nil
    last = .nothing
  }

  /// Readies `board` for a frame that reaches the screen by `path` with `look`: the display's
  /// memory where it lends it for the board, else a canvas of its own. Returns whether the board
  /// holds nothing to build on, so that the renderer must draw it whole.
  public mutating func beginFrame(path: FrameScheduler.Path, look: FrameScheduler.Look) throws(DisplayError) -> Bool {
    guard display.traits.drawsPixels else { return false }
    let (w, h) = boardSize
    if case .board(let whole) = path,
      let lent = try display.drawingBuffer(
        width: w, height: h, offset: (look.offset.dx, look.offset.dy), background: look.background)
    {
      board = lent.canvas
      screenFrame = nil
      drawsWhole = whole || !lent.holdsLastFrame || last != .lentBoard
      return drawsWhole
    }
    if ownsBoard {
      drawsWhole = false
    } else {
      board = Canvas(width: w, height: h, background: look.background)
      drawsWhole = true
    }
    return drawsWhole
  }

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
    let shown: Shown
    switch path {
    case .none:
      return false
    case .board(let whole):
      // The board itself, moved by the display where it must be (the framebuffer).
      screenFrame = nil
      let all = whole || drawsWhole
      guard all || !dirty.isEmpty else { return false }
      try display.present(
        DisplayFrame(
          canvas: board, dirty: all ? nil : dirty, offset: offset, background: look.background, texts: texts))
      shown = board.isLent ? .lentBoard : .copied
    case .screen(let whole):
      let texts = onScreen(texts, look: look)
      let (w, h) = display.size
      let changedOnly = !whole && !drawsWhole
      if var lent = try display.drawingBuffer(width: w, height: h, offset: (0, 0), background: look.background) {
        // The screen frame drawn into the display's memory.
        screenFrame = nil
        var rects: [IRect]?
        if changedOnly && lent.holdsLastFrame && last == .lentScreen {
          rects = screen.update(&lent.canvas, from: board, dirty: dirty, offset: offset, night: look.night)
          guard !rects!.isEmpty else { return false }
        } else {
          screen.draw(board, into: &lent.canvas, offset: offset, night: look.night, background: look.background)
        }
        try display.present(DisplayFrame(canvas: lent.canvas, dirty: rects, texts: texts))
        shown = .lentScreen
      } else if changedOnly, var out = screenFrame, fits(out) {
        // The same turn, offset and night as the last frame: only what changed is redone.
        screenFrame = nil  // `out` is the one reference: updated in place, not copied
        let rects = screen.update(&out, from: board, dirty: dirty, offset: offset, night: look.night)
        defer { screenFrame = out }
        guard !rects.isEmpty else { return false }
        try display.present(DisplayFrame(canvas: out, dirty: rects, texts: texts))
        shown = .copied
      } else {
        let out = screen.frame(for: board, offset: offset, night: look.night, background: look.background)
        screenFrame = out
        try display.present(DisplayFrame(canvas: out, dirty: nil, texts: texts))
        shown = .copied
      }
    }
    last = shown
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

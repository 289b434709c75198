public import Raster

/// Where the run loop shows the board. Every display conforms (an SDL window, the framebuffer,
/// DRM/KMS, a terminal, a PNG file, the text board, the tests' in-memory one), so the loop asks
/// only for `traits` and never for a display's kind.
///
/// **Threads.** Not `Sendable`: a display is opened, presented on and closed on the thread that
/// runs the board.
public protocol Display: AnyObject {
  /// The screen's size in pixels; the board is drawn at its canvas size (before `--rotate`).
  /// Changes only when `events()` says `.resized`.
  var size: (width: Int, height: Int) { get }

  /// What the display can do; constant for its lifetime.
  var traits: DisplayTraits { get }

  /// Shows `frame`. A failure names the display and what failed; the loop ends with it.
  ///
  /// A frame whose canvas is the one `drawingBuffer` lent is shown as it is (a page flip, a
  /// pan, an update of the window), with no copy; any other is copied in, only `dirty` of it.
  func present(_ frame: DisplayFrame) throws(DisplayError)

  /// Lends the display's own memory (the framebuffer's back page, the DRM back buffer, SDL's
  /// window surface) for the next frame to be drawn into: a `width` × `height` canvas whose
  /// top-left corner is at `offset` on the screen, the edge the move uncovers in `background`.
  /// Nil when the display has none to lend in that shape (the default; a pixel format that is
  /// not the canvas's): the caller then draws on a canvas of its own, which `present` copies.
  ///
  /// When `holdsLastFrame`, the lent canvas holds the last frame presented from a canvas this
  /// lent in the same shape, offset and background (the display brought a back buffer up to
  /// date by copying what that frame changed); otherwise it holds `background` only and the
  /// frame must be drawn whole. The canvas is valid until the next call of this or `present`
  /// of another canvas, a resize, or `close()`: it must not be drawn on after.
  func drawingBuffer(
    width: Int, height: Int, offset: (dx: Int, dy: Int), background: RGBA
  ) throws(DisplayError) -> DrawingBuffer?

  /// Turns the output off (the night schedule's `blank`: DPMS off, `FBIOBLANK`) or on again.
  /// Returns false when this display cannot, and the loop shows black instead.
  func setPower(_ on: Bool) -> Bool

  /// What the user asked through the display since the last call (keys, a resize, a lost
  /// picture), without waiting.
  func events() -> [DisplayEvent]

  /// Switches between fullscreen and a window, where there is such a thing.
  func toggleFullscreen()

  /// Puts the screen back as it was found (the console's mode, the CRTC, the terminal). Called
  /// once, on every way out of the loop.
  func close()
}

extension Display {
  public func drawingBuffer(
    width: Int, height: Int, offset: (dx: Int, dy: Int), background: RGBA
  ) throws(DisplayError) -> DrawingBuffer? { nil }
  public func setPower(_ on: Bool) -> Bool { false }
  public func events() -> [DisplayEvent] { [] }
  public func toggleFullscreen() {}
  public func close() {}
}

/// What a display can do: the run loop's only questions about it.
public struct DisplayTraits: Equatable, Sendable {
  /// Whether the board fills a whole screen (for `--pixel-shift auto`).
  public var fillsScreen: Bool
  /// Whether `present` moves the frame itself (`DisplayFrame.offset`); else a moved frame is
  /// handed over already moved.
  public var movesFrames: Bool
  /// The shortest time between two frames, in seconds.
  public var minimumFrameInterval: Double
  /// How often `events()` must be looked at while the board is idle, in seconds; nil when the
  /// display has no events to look for, and the loop sleeps until its next deadline or input.
  public var eventPollInterval: Double?
  /// Whether the display shows pixels; the text board shows `DisplayFrame.text` instead, and
  /// the loop draws no canvas for it.
  public var drawsPixels: Bool
  /// Whether the display writes the frame's text as characters (`DisplayFrame.texts`, which the
  /// loop gathers only then) instead of showing the canvas's pixels of it.
  public var writesText: Bool

  public init(
    fillsScreen: Bool, movesFrames: Bool = false, minimumFrameInterval: Double = 1.0 / 30,
    eventPollInterval: Double? = nil, drawsPixels: Bool = true, writesText: Bool = false
  ) {
    precondition(minimumFrameInterval > 0, "a display needs a positive frame interval")
    self.fillsScreen = fillsScreen
    self.movesFrames = movesFrames
    self.minimumFrameInterval = minimumFrameInterval
    self.eventPollInterval = eventPollInterval
    self.drawsPixels = drawsPixels
    self.writesText = writesText
  }
}

/// A display's own memory lent for a frame to be drawn into (`Display.drawingBuffer`).
public struct DrawingBuffer {
  /// The canvas over the display's memory (`Canvas.isLent`).
  public var canvas: Canvas
  /// Whether `canvas` holds the last frame presented from a lent canvas of the same shape,
  /// offset and background; false: it holds nothing to build on, and the frame is drawn whole.
  public var holdsLastFrame: Bool

  public init(canvas: Canvas, holdsLastFrame: Bool) {
    self.canvas = canvas
    self.holdsLastFrame = holdsLastFrame
  }
}

/// One frame for a display.
public struct DisplayFrame {
  /// The picture, at the display's size (the board, or the board turned, moved or dimmed).
  public var canvas: Canvas
  /// The rectangles of `canvas` that changed since the frame before; nil: all of it.
  public var dirty: [IRect]?
  /// How far to move the picture on the screen (burn-in protection), for a display that
  /// `movesFrames`; (0, 0) for every other.
  public var offset: (dx: Int, dy: Int)
  /// The colour of the edge a move uncovers.
  public var background: RGBA
  /// The board as text, for a display that does not draw pixels; computed only when asked.
  public var text: () -> String
  /// Every line of text `canvas` shows, where it is on `canvas`, for a display that
  /// `writesText`; empty for every other (which shows the canvas's pixels and nothing else).
  public var texts: [DisplayText]

  public init(
    canvas: Canvas, dirty: [IRect]?, offset: (dx: Int, dy: Int) = (0, 0), background: RGBA = RGBA(r: 0, g: 0, b: 0),
    texts: [DisplayText] = [], text: @escaping () -> String = { "" }
  ) {
    self.canvas = canvas
    self.dirty = dirty
    self.offset = offset
    self.background = background
    self.texts = texts
    self.text = text
  }
}

/// What the user asked of the board through its window or terminal.
public enum DisplayEvent: Equatable, Sendable {
  case quit, nextTheme, previousTheme, nextVariant, nextPage, previousPage, toggleFullscreen, toggleDiagnostics
  /// The display lost its picture: the next frame is presented whole.
  case redraw
  /// The display's size changed to this many pixels.
  case resized(Int, Int)
}

/// Why a display could not show a frame, in words that name the display and what failed.
public struct DisplayError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

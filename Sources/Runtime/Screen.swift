public import Kiosk
public import Raster

/// A screen the board is shown on: its size in pixels and how the board is turned on it.
///
/// `run` and `snapshot` both go through this, from the canvas they draw on to the pixels the
/// screen (or the PNG) gets, so `snapshot --size S --rotate R` is what `run` shows on a screen of
/// size S under the same rotation.
public struct Screen: Equatable {
  public var width: Int
  public var height: Int
  /// Degrees clockwise: 0, 90, 180 or 270.
  public var rotation: Int

  public init(width: Int, height: Int, rotation: Int) {
    precondition([0, 90, 180, 270].contains(rotation), "rotation \(rotation) is not 0, 90, 180 or 270")
    self.width = width
    self.height = height
    self.rotation = rotation
  }

  /// The canvas to draw the board on: the screen's size, its sides swapped for a quarter turn
  /// (a landscape screen turned 90° shows a portrait board, laid out for that shape).
  public var canvasSize: (width: Int, height: Int) {
    rotation == 90 || rotation == 270 ? (height, width) : (width, height)
  }

  /// What the screen shows for `board` (drawn at `canvasSize`): turned by `rotation`, moved by
  /// `offset` against burn-in (the uncovered edge in `background`), dimmed or blanked at night.
  public func frame(
    for board: Canvas, offset: (dx: Int, dy: Int) = (0, 0), night: NightSchedule.State = .day, background: RGBA
  ) -> Canvas {
    var out = board.rotated(degrees: rotation).shifted(dx: offset.dx, dy: offset.dy, fill: background)
    switch night {
    case .day: break
    case .dim(let keeping): out.dim(keeping: keeping)
    case .blank: out.fill(out.bounds, RGBA(r: 0, g: 0, b: 0))
    }
    return out
  }

  /// Draws on `out`, a canvas of this screen's size (a display's own memory), what
  /// `frame(for:offset:night:background:)` makes, pixel for pixel, with no canvas of its own.
  public func draw(
    _ board: Canvas, into out: inout Canvas, offset: (dx: Int, dy: Int), night: NightSchedule.State, background: RGBA
  ) {
    precondition(
      out.width == width && out.height == height, "a screen frame of \(out.width)x\(out.height) on \(width)x\(height)")
    let keeping: Double?
    switch night {
    case .blank: return out.fill(out.bounds, RGBA(r: 0, g: 0, b: 0))
    case .dim(let k): keeping = k
    case .day: keeping = nil
    }
    out.fill(out.bounds, background)
    if let keeping { out.dim(keeping: keeping) }
    out.redraw(board.bounds, of: board, rotation: rotation, dx: offset.dx, dy: offset.dy, keeping: keeping)
  }

  /// Brings `out` — what this screen showed for an earlier board under the same `offset` and
  /// `night` — up to date for a board where only `dirty` changed: only those rectangles are
  /// turned, moved and dimmed again. Returns the screen rectangles redrawn (none at a blank
  /// night). The result equals `frame(for: board, offset:night:background:)`, pixel for pixel.
  public func update(
    _ out: inout Canvas, from board: Canvas, dirty: [IRect], offset: (dx: Int, dy: Int), night: NightSchedule.State
  ) -> [IRect] {
    let keeping: Double?
    switch night {
    case .blank: return []
    case .dim(let k): keeping = k
    case .day: keeping = nil
    }
    return dirty.map {
      out.redraw($0, of: board, rotation: rotation, dx: offset.dx, dy: offset.dy, keeping: keeping)
    }.filter { !$0.isEmpty }
  }
}

public import Raster

/// Which screen rows each page (buffer) of a kernel display must be given, so a frame converts
/// only what changed: the framebuffer's two pages and the DRM display's two dumb buffers share it.
///
/// A page shown in turn with another last held the frame before the previous one, so it needs
/// the rows changed in either of the last two frames. A page without a whole frame yet (the
/// first frame, or the first after the canvas's size, offset or fill changed) needs every row.
public struct PageRows: Sendable {
  private var whole: [Bool]
  private var previous: [Bool] = []
  private var look: Look?

  private struct Look: Equatable, Sendable {
    var width: Int, height: Int, dx: Int, dy: Int
    var fill: RGBA
  }

  public init(pages: Int) { whole = [Bool](repeating: false, count: pages) }

  /// The rows of a `height`-row screen that `dirty` (nil: all of the canvas) touches, moved by
  /// `offset` and clipped to `overlap`. Starts the frame: one whose canvas size, offset or fill
  /// differs from the last frame's leaves no page whole.
  public mutating func changed(
    _ dirty: [IRect]?, canvas: Canvas, height: Int, overlap: IRect, offset: (dx: Int, dy: Int), fill: RGBA
  ) -> [Bool] {
    let now = Look(width: canvas.width, height: canvas.height, dx: offset.dx, dy: offset.dy, fill: fill)
    if look != now {
      whole = whole.map { _ in false }
      previous = [Bool](repeating: true, count: height)
    }
    look = now
    guard let dirty else { return [Bool](repeating: true, count: height) }
    var rows = [Bool](repeating: false, count: height)
    for rect in dirty {
      let r = IRect(x: rect.x + offset.dx, y: rect.y + offset.dy, width: rect.width, height: rect.height)
        .intersection(overlap)
      if !r.isEmpty { for y in r.y..<r.maxY { rows[y] = true } }
    }
    return rows
  }

  /// The rows to write into `page` this frame, which changed `rows`: all of them while the page
  /// holds no whole frame; else `rows`, and, for a page shown in turn with another
  /// (`alternating`), the previous frame's too. The page then holds a whole frame.
  public mutating func toWrite(page: Int, changed rows: [Bool], alternating: Bool) -> [Bool] {
    defer { whole[page] = true }
    guard whole[page] else { return [Bool](repeating: true, count: rows.count) }
    guard alternating, previous.count == rows.count else { return rows }
    return zip(rows, previous).map { $0 || $1 }
  }

  /// Ends the frame that changed `rows`.
  public mutating func finish(_ rows: [Bool]) { previous = rows }

  /// Forgets that `page` holds a whole frame (its contents are not known any more).
  public mutating func lose(page: Int) { whole[page] = false }
}

internal import Raster

/// Encodes cell grids as the ANSI bytes that bring a terminal from the last frame to the next.
///
/// A pure encoder: it owns no file descriptor and keeps only the grid it last encoded.
///
/// - The very first frame switches to the terminal's alternate screen (`ESC[?1049h`), so that
///   `leave()` gives back the screen as it was before the board (`ESC[?1049l`).
/// - The first frame, and the first after `reset()` or a change of grid size, is *full*: it
///   hides the cursor (`ESC[?25l`), turns autowrap off (`ESC[?7l`), resets SGR (`ESC[0m`),
///   clears the screen (`ESC[2J`) and writes every cell.
/// - Later frames write only the cells that differ from the previous grid. An unchanged grid
///   encodes to no bytes at all.
/// - A picture cell is `▀` with the foreground (`ESC[38;2;r;g;bm`) set to its top colour and the
///   background (`ESC[48;2;r;g;bm`) to its bottom colour; when both change they share one
///   sequence (`ESC[38;2;r;g;b;48;2;r;g;bm`). A text cell is its character in the same two
///   colours, bold (`ESC[1m`, ended by `ESC[22m`) when it is; a wide character covers the cell
///   after it, for which nothing is written. Colours and bold are sent only when they differ from
///   the terminal's current ones, which the encoder tracks through the frame (bold is off at the
///   start of a frame: the one before ended with `ESC[0m`).
/// - The cursor is positioned (`ESC[row;colH`, 1-based) only when the next changed cell is not
///   the one right after the previous write. After the last column the cursor's position is
///   treated as unknown (terminals differ there), so the next write positions it.
/// - Every frame that writes anything ends with `ESC[0m`, and every frame starts from "colours
///   and cursor unknown". Each frame is therefore self-contained: a line someone else prints
///   between frames appears in default colours, and the next frame still lands in the right
///   place. The price is one colour pair and one cursor move per frame.
/// - Autowrap stays off while the board is shown, so writing the bottom-right cell cannot make
///   the terminal wrap and scroll (some terminals scroll as soon as that cell is written, not at
///   the next character). `leave()` turns it back on.
public struct TerminalRenderer: Sendable {
  /// The grid the terminal shows, as far as this encoder knows; nil before the first frame.
  public private(set) var current: CellGrid?
  /// Whether a frame switched to the alternate screen (the first one does).
  public private(set) var onAlternateScreen = false

  public init() {}

  /// Forgets what the terminal shows, so the next frame clears the screen and writes every cell
  /// (after a resize, or when something else may have drawn over the board).
  public mutating func reset() { current = nil }

  /// The bytes that change the screen from the previous frame to `grid`.
  public mutating func frame(_ grid: CellGrid) -> [UInt8] {
    let previous = current.flatMap { $0.columns == grid.columns && $0.rows == grid.rows ? $0 : nil }
    current = grid
    var out = ANSIWriter()
    if previous == nil {
      out.reserve(grid.columns * grid.rows * 24 + 64)
      if !onAlternateScreen {
        out.csi("?1049h")
        onAlternateScreen = true
      }
      out.csi("?25l")
      out.csi("?7l")
      out.csi("0m")
      out.csi("2J")
    }
    var fg: RGBA?  // nil: the terminal's default colour, or unknown
    var bg: RGBA?
    var cursor = -1  // the cell index the next character lands on, or -1 when unknown
    var bold = false
    var wrote = false
    grid.cells.withUnsafeBufferPointer { cells in
      let old = previous?.cells
      for index in 0..<cells.count {
        let cell = cells[index]
        if let old, old[index] == cell { continue }
        // Written with the wide character before it (which changed too, or this did not).
        if cell.glyph == .wideTail { continue }
        let column = index % grid.columns
        if index != cursor { out.moveTo(row: index / grid.columns + 1, column: column + 1) }
        switch (fg != cell.top, bg != cell.bottom) {
        case (true, true): out.colors(foreground: cell.top, background: cell.bottom)
        case (true, false): out.color(38, cell.top)
        case (false, true): out.color(48, cell.bottom)
        case (false, false): break
        }
        fg = cell.top
        bg = cell.bottom
        if cell.bold != bold {
          if cell.bold { out.csi("1m") } else { out.csi("22m") }
          bold = cell.bold
        }
        var advance = 1
        switch cell.glyph {
        case .halfBlock: out.upperHalfBlock()
        case .character(let c):
          out.character(c)
          if index + 1 < cells.count && index % grid.columns + 1 < grid.columns && cells[index + 1].glyph == .wideTail {
            advance = 2
          }
        case .wideTail: break
        }
        cursor = column + advance < grid.columns ? index + advance : -1
        wrote = true
      }
    }
    if wrote { out.csi("0m") }
    return out.bytes
  }

  /// The bytes that hand the terminal back: reset colours, autowrap on, cursor shown, and the
  /// cursor on a fresh line below the board, then the screen from before the board
  /// (`ESC[?1049l`, once a frame switched to the alternate one; a terminal without one keeps the
  /// board, the cursor below it).
  public func leave() -> [UInt8] {
    var out = ANSIWriter()
    out.csi("0m")
    out.csi("?7h")
    out.csi("?25h")
    // Below the board first: where a terminal without an alternate screen leaves the cursor.
    if let current {
      out.moveTo(row: current.rows, column: 1)
      out.bytes += [0x0D, 0x0A]
    }
    if onAlternateScreen { out.csi("?1049l") }
    return out.bytes
  }
}

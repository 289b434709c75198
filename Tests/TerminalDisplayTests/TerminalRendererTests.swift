import Raster
import TerminalDisplay
import Testing

@Suite struct TerminalRendererTests {
  static let canvas = makeCanvas(width: 160, height: 96) { x, y in
    // Bands of colour with some noise, so neighbouring cells often share colours.
    (x / 24 + y / 16) % 3 == 0 ? noise(x, y) : RGBA(r: UInt8(x / 40 * 60), g: UInt8(y / 24 * 50), b: 90)
  }

  /// Feeds `bytes` to `screen` and checks nothing unknown came through.
  static func feed(_ bytes: [UInt8], to screen: inout ANSIScreen) {
    screen.feed(bytes)
    #expect(screen.unknown.isEmpty, "unexpected sequences: \(screen.unknown)")
  }

  @Test func firstFrameDrawsTheWholeGrid() throws {
    let grid = Downsampler.grid(from: Self.canvas, columns: 20, rows: 6)
    var renderer = TerminalRenderer()
    let bytes = renderer.frame(grid)
    #expect(bytes.starts(with: Array("\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J".utf8)))
    #expect(bytes.suffix(4) == Array("\u{1B}[0m".utf8)[...])
    var screen = ANSIScreen(columns: 20, rows: 6)
    Self.feed(bytes, to: &screen)
    #expect(try #require(screen.grid()) == grid)
    #expect(screen.printed == 120)
    #expect(screen.clears == 1)
    #expect(!screen.cursorVisible)
    #expect(!screen.autowrap)
    #expect(screen.cursorMoves == 6, "one move at the start of each row")
  }

  @Test func secondFrameSendsOnlyChangedCells() throws {
    var canvas = Self.canvas
    var renderer = TerminalRenderer()
    let first = Downsampler.grid(from: canvas, columns: 20, rows: 6)
    var screen = ANSIScreen(columns: 20, rows: 6)
    Self.feed(renderer.frame(first), to: &screen)
    // Paint a few pixels: in cells (2, 0), (3, 0) (adjacent), (19, 5) and a 2x1-cell block.
    for (x, y) in [(17, 1), (25, 3), (159, 95), (80, 40), (88, 40)] {
      canvas.fill(IRect(x: x, y: y, width: 1, height: 1), RGBA(r: 255, g: 0, b: 255))
    }
    let second = Downsampler.grid(from: canvas, columns: 20, rows: 6)
    let changed = zip(first.cells, second.cells).filter { $0 != $1 }.count
    #expect(changed == 5)
    let before = (screen.printed, screen.cursorMoves, screen.clears)
    Self.feed(renderer.frame(second), to: &screen)
    #expect(screen.printed - before.0 == changed)
    #expect(screen.cursorMoves - before.1 == 3, "(2,0)+(3,0) and (10,2)+(11,2) are runs; (19,5) is alone")
    #expect(screen.clears == before.2)
    #expect(try #require(screen.grid()) == second)
  }

  @Test func unchangedFrameEmitsNothing() {
    let grid = Downsampler.grid(from: Self.canvas, columns: 20, rows: 6)
    var renderer = TerminalRenderer()
    _ = renderer.frame(grid)
    #expect(renderer.frame(grid).isEmpty)
  }

  @Test func coloursAreNotRepeatedForRuns() {
    let a = RGBA(r: 1, g: 2, b: 3)
    let b = RGBA(r: 4, g: 5, b: 6)
    var renderer = TerminalRenderer()
    let solid = renderer.frame(CellGrid(columns: 30, rows: 10, fill: .init(top: a, bottom: b)))
    #expect(occurrences(of: "38;2", in: solid) == 1)
    #expect(occurrences(of: "48;2", in: solid) == 1)
    // Rows alternate in their top colour only: one foreground change per row, one background.
    var striped = CellGrid(columns: 30, rows: 10, fill: .init(top: a, bottom: b))
    for row in stride(from: 1, to: 10, by: 2) {
      for column in 0..<30 { striped[column, row] = .init(top: b, bottom: b) }
    }
    renderer.reset()
    let bytes = renderer.frame(striped)
    #expect(occurrences(of: "38;2", in: bytes) == 10)
    #expect(occurrences(of: "48;2", in: bytes) == 1)
  }

  @Test func frameEndsWithResetSoTheNextFrameResendsColours() {
    let a = CellGrid.Cell(top: RGBA(r: 1, g: 2, b: 3), bottom: RGBA(r: 4, g: 5, b: 6))
    var grid = CellGrid(columns: 4, rows: 2, fill: a)
    var renderer = TerminalRenderer()
    _ = renderer.frame(grid)
    grid[1, 1] = CellGrid.Cell(top: a.top, bottom: RGBA(r: 7, g: 8, b: 9))
    let bytes = renderer.frame(grid)
    #expect(bytes == Array("\u{1B}[2;2H\u{1B}[38;2;1;2;3;48;2;7;8;9m▀\u{1B}[0m".utf8))
  }

  @Test(arguments: [false, true])
  func bottomRightCellDoesNotScroll(eagerWrap: Bool) throws {
    let grid = Downsampler.grid(from: Self.canvas, columns: 20, rows: 6)
    var renderer = TerminalRenderer()
    var screen = ANSIScreen(columns: 20, rows: 6, eagerWrap: eagerWrap)
    Self.feed(renderer.frame(grid), to: &screen)
    var changed = grid
    changed[19, 5] = .init(top: RGBA(r: 255, g: 255, b: 255), bottom: RGBA(r: 0, g: 0, b: 0))
    changed[18, 5] = changed[19, 5]
    Self.feed(renderer.frame(changed), to: &screen)
    #expect(screen.scrolls == 0)
    #expect(try #require(screen.grid()) == changed)
  }

  @Test func resizedGridIsAFullFrame() throws {
    var renderer = TerminalRenderer()
    _ = renderer.frame(Downsampler.grid(from: Self.canvas, columns: 20, rows: 6))
    let bigger = Downsampler.grid(from: Self.canvas, columns: 24, rows: 8)
    var screen = ANSIScreen(columns: 24, rows: 8)
    Self.feed(renderer.frame(bigger), to: &screen)
    #expect(screen.clears == 1)
    #expect(try #require(screen.grid()) == bigger)
  }

  @Test func leaveRestoresTheTerminalBelowTheBoard() {
    var renderer = TerminalRenderer()
    var screen = ANSIScreen(columns: 5, rows: 4)
    Self.feed(renderer.frame(CellGrid(columns: 5, rows: 3)), to: &screen)
    Self.feed(renderer.leave(), to: &screen)
    #expect(screen.cursorVisible)
    #expect(screen.autowrap)
    #expect(screen.fg == nil && screen.bg == nil)
    #expect(screen.row == 3 && screen.column == 0, "on the line after the board's three rows")
  }
}

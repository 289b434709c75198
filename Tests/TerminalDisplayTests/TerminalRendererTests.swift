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
    #expect(bytes.starts(with: Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J".utf8)))
    #expect(bytes.suffix(4) == Array("\u{1B}[0m".utf8)[...])
    var screen = ANSIScreen(columns: 20, rows: 6)
    Self.feed(bytes, to: &screen)
    #expect(try #require(screen.grid()) == grid)
    #expect(screen.printed == 120)
    #expect(screen.onAlternateScreen)
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

  @Test func leaveGivesBackTheScreenFromBeforeTheBoard() {
    var renderer = TerminalRenderer()
    var screen = ANSIScreen(columns: 5, rows: 4)
    Self.feed(Array("$ ls\r\n".utf8), to: &screen)
    Self.feed(renderer.frame(CellGrid(columns: 5, rows: 3)), to: &screen)
    #expect(screen.onAlternateScreen && screen[0, 0].char == "▀")
    let leave = renderer.leave()
    Self.feed(leave, to: &screen)
    #expect(screen.cursorVisible)
    #expect(screen.autowrap)
    #expect(screen.fg == nil && screen.bg == nil)
    #expect(!screen.onAlternateScreen)
    #expect(screen[0, 0].char == "$" && screen.row == 1 && screen.column == 0, "the shell's screen and cursor")
    // A terminal without an alternate screen has the cursor put below the board first.
    let belowTheBoard = Array("\u{1B}[3;1H\r\n\u{1B}[?1049l".utf8)
    #expect(leave.suffix(belowTheBoard.count).elementsEqual(belowTheBoard))
  }

  @Test func textCellsAreWrittenAsTheirCharactersInTheirColoursAndBold() throws {
    let ink = RGBA(r: 250, g: 250, b: 240)
    let bg = RGBA(r: 20, g: 30, b: 40)
    var grid = Downsampler.grid(from: Self.canvas, columns: 20, rows: 6)
    for (i, c) in "Done 12".enumerated() {
      grid[2 + i, 1] = CellGrid.Cell(character: c, color: ink, background: bg, bold: i >= 5)
    }
    grid[10, 2] = CellGrid.Cell(character: "漢", color: ink, background: bg)
    grid[11, 2] = .wideTail(background: bg)
    var renderer = TerminalRenderer()
    let bytes = renderer.frame(grid)
    var screen = ANSIScreen(columns: 20, rows: 6)
    Self.feed(bytes, to: &screen)
    #expect(occurrences(of: "Done", in: bytes) == 1)
    #expect(occurrences(of: "\u{1B}[1m", in: bytes) == 1 && occurrences(of: "\u{1B}[22m", in: bytes) == 1)
    let shown = String((0..<20).map { screen[$0, 1].char })
    #expect(shown.contains("Done 12"), "\(shown)")
    #expect(screen[7, 1].bold && !screen[6, 1].bold)
    #expect(screen[2, 1].fg == ink && screen[2, 1].bg == bg)
    #expect(screen[10, 2].char == "漢")
    // A later frame writes only the cell that changed.
    var changed = grid
    changed[11, 2] = .wideTail(background: bg)
    changed[2, 1] = CellGrid.Cell(character: "B", color: ink, background: bg)
    let again = renderer.frame(changed)
    #expect(occurrences(of: "B", in: again) == 1 && occurrences(of: "Done", in: again) == 0)
  }
}

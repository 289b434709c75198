import Raster
import TerminalDisplay
import Testing

/// A pretend terminal behind `TerminalSyscalls`: records writes, accepts at most `chunk` bytes
/// per call, plays scripted errors first, and raises `SIGWINCH` on demand.
final class FakeTerminal {
  var written: [UInt8] = []
  var calls = 0
  var chunk = Int.max
  /// Results returned (instead of writing) by the next write calls, e.g. `-EINTR`.
  var scripted: [Int] = []
  var waits = 0
  var writable = true
  var size: (columns: Int, rows: Int)? = (12, 5)
  var handlerInstalled = 0
  var resizePending = false

  var syscalls: TerminalSyscalls {
    TerminalSyscalls(
      write: { [self] fd, bytes in
        #expect(fd == 7)
        calls += 1
        if !scripted.isEmpty { return scripted.removeFirst() }
        let n = min(chunk, bytes.count)
        written += bytes.prefix(n)
        return n
      },
      waitWritable: { [self] _ in
        waits += 1
        return writable
      },
      windowSize: { [self] _ in size },
      installResizeHandler: { [self] in handlerInstalled += 1 },
      takeResize: { [self] in
        defer { resizePending = false }
        return resizePending
      })
  }

  /// Everything written so far, parsed on a screen of the current size.
  func screen(columns: Int, rows: Int) -> ANSIScreen {
    var screen = ANSIScreen(columns: columns, rows: rows)
    screen.feed(written)
    #expect(screen.unknown.isEmpty)
    return screen
  }
}

@Suite struct TerminalDisplayTests {
  static let eintr = -4
  static let eagain = -11

  static func canvas(for display: TerminalDisplay, seed: UInt64 = 3) -> Canvas {
    let size = display.canvasSize()
    return makeCanvas(width: size.width, height: size.height) { noise($0 / 4, $1 / 4, seed: seed) }
  }

  @Test func sizeComesFromTheOverrideThenTheTerminalThenTheFallback() {
    let fake = FakeTerminal()
    #expect(TerminalDisplay(output: 7, syscalls: fake.syscalls, size: (30, 9)).cellSize == (30, 9))
    #expect(TerminalDisplay(output: 7, syscalls: fake.syscalls).cellSize == (12, 5))
    fake.size = nil
    #expect(TerminalDisplay(output: 7, syscalls: fake.syscalls).cellSize == (80, 24))
    #expect(fake.handlerInstalled == 3)
  }

  @Test func canvasSizeIsEightPixelsPerColumnAndPerHalfRow() {
    let fake = FakeTerminal()
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls, size: (200, 60))
    #expect(display.canvasSize() == (1600, 960))
    #expect(display.canvasSize(pixelsPerColumn: 2) == (400, 240))
    let wide = TerminalDisplay(output: 7, syscalls: fake.syscalls, size: (1900, 50))
    #expect(wide.canvasSize() == (7600, 400), "shrunk to 4 pixels per column to fit 7680 a side")
    let big = TerminalDisplay(output: 7, syscalls: fake.syscalls, size: (1000, 500))
    #expect(big.canvasSize() == (5000, 5000), "shrunk to 5 pixels per column to fit 7680 × 4320 pixels in all")
  }

  /// Issue 9, item 7: a terminal's size is two 16-bit numbers; one reporting 65535 × 65535
  /// cells asked for a canvas of 65535 × 131070 (the canvas refused it, stopping the board) and
  /// a cell grid of 200 GB. Cells are capped so that the canvas fits the frame cap.
  @Test(arguments: [(65535, 65535), (65535, 1), (1, 65535), (7680, 3840), (4000, 4000), (7681, 2)])
  func anyTerminalSizeGivesACanvasWithinTheFrameCap(columns: Int, rows: Int) {
    let fake = FakeTerminal()
    fake.size = (columns, rows)
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    let cells = display.cellSize
    #expect(cells.columns <= Canvas.maxFrameSide && cells.rows <= Canvas.maxFrameSide / 2)
    #expect(cells.columns * cells.rows * 2 <= Canvas.maxFramePixels)
    let size = display.canvasSize()
    #expect(Canvas.frameFits(width: size.width, height: size.height), "\(size)")
    #expect(size.width >= cells.columns && size.height >= 2 * cells.rows)
    fake.size = (columns + 1, rows + 1)
    fake.resizePending = true
    _ = display.checkResize()
    let after = display.canvasSize()
    #expect(Canvas.frameFits(width: after.width, height: after.height), "\(after) after a resize")
  }

  @Test func presentWritesTheDownsampledCanvas() throws {
    let fake = FakeTerminal()
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    let canvas = Self.canvas(for: display)
    try display.present(canvas)
    let screen = fake.screen(columns: 12, rows: 5)
    #expect(try #require(screen.grid()) == Downsampler.grid(from: canvas, columns: 12, rows: 5))
    let before = fake.written.count
    try display.present(canvas)
    #expect(fake.written.count == before, "an unchanged frame writes nothing")
  }

  @Test(arguments: [1, 7, 64])
  func partialWritesAndInterruptionsAreCompleted(chunk: Int) throws {
    let fake = FakeTerminal()
    fake.chunk = chunk
    fake.scripted = [Self.eintr, Self.eagain, 0, Self.eintr]
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    let canvas = Self.canvas(for: display)
    try display.present(canvas)
    var reference = TerminalRenderer()
    #expect(fake.written == reference.frame(Downsampler.grid(from: canvas, columns: 12, rows: 5)))
    #expect(fake.waits == 2, "EAGAIN and a zero-byte write wait for room")
    #expect(fake.calls == 4 + (fake.written.count + chunk - 1) / chunk)
  }

  @Test func writeErrorsAreThrownAndTheNextFrameIsFull() throws {
    let fake = FakeTerminal()
    fake.scripted = [-5]  // EIO
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    let canvas = Self.canvas(for: display)
    #expect(throws: TerminalError.writeFailed(fd: 7, errno: 5)) { try display.present(canvas) }
    try display.present(canvas)
    let screen = fake.screen(columns: 12, rows: 5)
    #expect(screen.clears == 1)
    #expect(try #require(screen.grid()) == Downsampler.grid(from: canvas, columns: 12, rows: 5))
  }

  @Test func aFullBufferThatStaysFullStalls() {
    let fake = FakeTerminal()
    fake.scripted = [Self.eagain]
    fake.writable = false
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    #expect(throws: TerminalError.writeStalled(fd: 7)) { try display.present(Self.canvas(for: display)) }
  }

  @Test func resizeRedrawsEverythingAtTheNewSize() throws {
    let fake = FakeTerminal()
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    try display.present(Self.canvas(for: display))
    #expect(!display.checkResize(), "no SIGWINCH yet")
    fake.size = (16, 7)
    fake.resizePending = true
    #expect(display.checkResize())
    #expect(!display.checkResize(), "true once per SIGWINCH")
    #expect(display.cellSize == (16, 7))
    #expect(display.canvasSize() == (128, 112))
    fake.written = []
    let canvas = Self.canvas(for: display, seed: 4)
    try display.present(canvas)
    let screen = fake.screen(columns: 16, rows: 7)
    #expect(screen.clears == 1)
    #expect(screen.printed == 16 * 7)
    #expect(try #require(screen.grid()) == Downsampler.grid(from: canvas, columns: 16, rows: 7))
  }

  @Test func sigwinchWithoutASizeChangeStillRedraws() throws {
    let fake = FakeTerminal()
    let display = TerminalDisplay(output: 7, syscalls: fake.syscalls, size: (10, 4))
    let canvas = Self.canvas(for: display)
    try display.present(canvas)
    fake.size = (50, 20)
    fake.resizePending = true
    #expect(!display.checkResize(), "the --size override wins")
    #expect(display.cellSize == (10, 4))
    fake.written = []
    try display.present(canvas)
    #expect(fake.screen(columns: 10, rows: 4).printed == 40)
  }

  @Test func closeHandsTheTerminalBackOnce() throws {
    let fake = FakeTerminal()
    var display: TerminalDisplay? = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    try display?.present(Self.canvas(for: display!))
    try display?.close()
    let screen = fake.screen(columns: 12, rows: 6)
    #expect(screen.cursorVisible && screen.autowrap)
    let count = fake.written.count
    try display?.close()
    display = nil
    #expect(fake.written.count == count, "neither a second close nor deinit writes again")
    #expect(occurrences(of: "\u{1B}[?25h", in: fake.written) == 1)
  }

  @Test func deinitHandsTheTerminalBack() throws {
    let fake = FakeTerminal()
    var display: TerminalDisplay? = TerminalDisplay(output: 7, syscalls: fake.syscalls)
    try display?.present(Self.canvas(for: display!))
    #expect(occurrences(of: "\u{1B}[?25h", in: fake.written) == 0)
    display = nil
    let screen = fake.screen(columns: 12, rows: 6)
    #expect(screen.cursorVisible && screen.autowrap)
    #expect(!screen.onAlternateScreen && screen.row == 0, "the screen and cursor from before the board")
  }
}

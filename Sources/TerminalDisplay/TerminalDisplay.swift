// TerminalDisplay: the board as 24-bit-colour half-block characters, for a glance over SSH.
//
// What lives here: `CellGrid` (the picture in terminal cells), `Downsampler` (canvas → cells),
// `TextLayer` (the frame's text → characters in the cells), `TerminalRenderer` (cells → ANSI
// bytes, a pure encoder), `TerminalKeys` (typed bytes → the
// board's events, a pure state machine) and `TerminalDisplay` (the I/O: write, window size,
// SIGWINCH, keys read in key-at-a-time mode), which reaches the system only through
// `TerminalSyscalls` — save the emergency restore (`TerminalDisplay+EmergencyRestore`), a bare
// `write(2)` from a signal handler. It may import Raster, DisplayCore and the C library; nothing
// else.

public import DisplayCore
public import Raster

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A terminal showing the board: downsamples each canvas to cells, writes its text in them as
/// characters, and writes the difference.
///
/// Borrows the output file descriptor (it never closes it). `close()` — or `deinit`, if
/// `close()` was not called — hands the terminal back with `TerminalRenderer.leave()`; a process
/// about to die of a signal can do it from the handler (`armEmergencyRestore()`).
/// Not thread-safe: use it from the thread that runs the board.
public final class TerminalDisplay {
  /// The size used when there is no `--size` and the output is not a terminal.
  public static let fallbackSize = (columns: 80, rows: 24)
  /// Canvas pixels per cell column (and per half-cell row) that `canvasSize()` asks for:
  /// 8 keeps the board's text legible when drawn, and a whole number of pixels per cell makes
  /// every box of the downsample the same.
  public static let pixelsPerColumn = 8

  /// The terminal's size in cells: the override given at init, else the terminal's own size,
  /// else `fallbackSize`. Changes only in `checkResize()`.
  public private(set) var cellSize: (columns: Int, rows: Int)

  /// The output descriptor (borrowed).
  let fd: Int32
  private let syscalls: TerminalSyscalls
  private let fixedSize: (columns: Int, rows: Int)?
  /// The terminal keys are read from (in key-at-a-time mode), nil when none is.
  public let input: Int32?
  private var renderer = TerminalRenderer()
  private var isClosed = false

  /// A display writing to `fd`; `size` (from `--size`, in cells) overrides the terminal's size.
  /// Keys are read from `input` when it is a terminal (`TerminalSyscalls.enterKeyMode`); its
  /// settings are put back by `close()`.
  public init(
    output fd: Int32 = 1, input: Int32? = nil, syscalls: TerminalSyscalls = .live,
    size: (columns: Int, rows: Int)? = nil
  ) {
    if let size {
      precondition(size.columns > 0 && size.rows > 0, "terminal size \(size.columns)x\(size.rows) has no cells")
    }
    self.fd = fd
    self.syscalls = syscalls
    self.fixedSize = size.map(Self.capped)
    self.cellSize = Self.capped(size ?? syscalls.windowSize(fd) ?? Self.fallbackSize)
    syscalls.installResizeHandler()
    self.input = input.flatMap { syscalls.enterKeyMode($0) ? $0 : nil }
  }

  deinit {
    if !isClosed {
      try? writeAll(renderer.leave())
      if let input { syscalls.restoreInput(input) }
    }
    disarmEmergencyRestore()
  }

  /// The most cells the board draws into: a grid whose one-pixel-per-half-cell canvas fits
  /// `Canvas.maxFrameSide` and `Canvas.maxFramePixels`: at most 7680 columns, 3840 rows and
  /// 16,588,800 cells. A terminal reporting more (its size is two 16-bit numbers) gets the board in the
  /// grid's top-left part, rather than a canvas of gigabytes.
  public static func capped(_ size: (columns: Int, rows: Int)) -> (columns: Int, rows: Int) {
    let columns = min(max(size.columns, 1), Canvas.maxFrameSide)
    var rows = min(max(size.rows, 1), Canvas.maxFrameSide / 2)
    rows = min(rows, max(1, Canvas.maxFramePixels / (2 * columns)))
    return (columns, rows)
  }

  /// The canvas size to render for the current cells: `k` pixels across each column and `k`
  /// down each half of a row, so a canvas pixel block maps onto one roughly square half-cell.
  /// `k` shrinks when the canvas would pass the frame cap (`Canvas.maxFrameSide`,
  /// `Canvas.maxFramePixels`); the capped cells fit it at `k` = 1.
  public func canvasSize(pixelsPerColumn k: Int = TerminalDisplay.pixelsPerColumn) -> (width: Int, height: Int) {
    precondition(k > 0, "pixels per column must be positive, not \(k)")
    let (columns, halves) = (cellSize.columns, 2 * cellSize.rows)
    var fit = max(1, min(k, Canvas.maxFrameSide / columns, Canvas.maxFrameSide / halves))
    while fit > 1 && fit * columns * fit * halves > Canvas.maxFramePixels { fit -= 1 }
    return (cellSize.columns * fit, 2 * cellSize.rows * fit)
  }

  /// Shows `canvas`: downsamples it to `cellSize`, writes `texts` (the canvas's text, in its
  /// pixels) into the cells as characters (`TextLayer`), encodes the change since the last frame
  /// and writes all of it. Any canvas size works; one of `canvasSize()` gives every cell the same
  /// whole-pixel box. After a failed write the next frame is a full redraw.
  public func present(_ canvas: Canvas, texts: [DisplayText] = []) throws(TerminalError) {
    precondition(!isClosed, "present(_:) was called after close()")
    var grid = Downsampler.grid(from: canvas, columns: cellSize.columns, rows: cellSize.rows)
    TextLayer.write(texts, into: &grid, canvasWidth: canvas.width, canvasHeight: canvas.height)
    let bytes = renderer.frame(grid)
    do {
      try writeAll(bytes)
    } catch {
      renderer.reset()
      throw error
    }
  }

  /// Handles a pending `SIGWINCH`: true once when it changed `cellSize` (render a canvas of the
  /// new `canvasSize()`). Any `SIGWINCH` makes the next frame a full redraw, since the terminal
  /// may have reflowed or cleared the screen; with a `--size` override the size never changes.
  public func checkResize() -> Bool {
    guard syscalls.takeResize() else { return false }
    renderer.reset()
    guard fixedSize == nil, let reported = syscalls.windowSize(fd) else { return false }
    let size = Self.capped(reported)
    guard size != cellSize else { return false }
    cellSize = size
    return true
  }

  /// Hands the terminal back (colours reset, autowrap on, cursor shown below the board).
  /// Later calls do nothing.
  public func close() throws(TerminalError) {
    guard !isClosed else { return }
    isClosed = true
    // Disarmed only once the terminal is back: a signal in between still restores it.
    defer { disarmEmergencyRestore() }
    if let input { syscalls.restoreInput(input) }
    try writeAll(renderer.leave())
  }

  /// The bytes typed since the last call, without waiting (at most `maximumInput` a call;
  /// the rest stays for the next); none when no keys are read or the read failed.
  public func readInput() -> [UInt8] {
    guard let input, !isClosed else { return [] }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 256)
    while bytes.count < Self.maximumInput {
      let n = chunk.withUnsafeMutableBytes { syscalls.read(input, $0) }
      if n == -Int(EINTR) { continue }
      guard n > 0 else { break }
      bytes += chunk.prefix(min(n, chunk.count))
      if n < chunk.count { break }
    }
    return bytes
  }

  /// The most bytes `readInput()` takes a call.
  public static let maximumInput = 4096

  /// Writes every byte, resuming after short writes, retrying `EINTR`, and waiting for room
  /// on `EAGAIN` (a non-blocking descriptor whose buffer is full).
  private func writeAll(_ bytes: [UInt8]) throws(TerminalError) {
    var offset = 0
    var waits = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { syscalls.write(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
      precondition(n <= bytes.count - offset, "write reported \(n) bytes of \(bytes.count - offset)")
      if n > 0 {
        offset += n
        waits = 0
      } else if n == -Int(EINTR) {
        continue
      } else if n == 0 || n == -Int(EAGAIN) {
        waits += 1
        guard waits <= Self.maximumWaits, syscalls.waitWritable(fd) else { throw .writeStalled(fd: fd) }
      } else {
        throw .writeFailed(fd: fd, errno: Int32(-n))
      }
    }
  }

  /// How many times in a row a write may make no progress before the display gives up.
  private static let maximumWaits = 100
}

import Clock
import DisplayCore
import FramebufferDisplay
import Glibc
import Kiosk
import Raster
import TestSupport
import Testing
import WallboardCore

@testable import Runtime

/// A double-buffered XRGB8888 framebuffer in memory: two pages of `width` × `height`, panned to
/// (`yoffset`), with no console. Kept alive by the closures of its seam.
final class PagedMemory: @unchecked Sendable {
  let width: Int
  let height: Int
  let memory: UnsafeMutableRawBufferPointer
  var info: VarScreenInfo

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    memory = .allocate(byteCount: width * height * 4 * 2, alignment: 16)
    memory.initializeMemory(as: UInt8.self, repeating: 0xA5)
    info = VarScreenInfo(
      xres: width, yres: height, yresVirtual: 2 * height, bitsPerPixel: 32, red: Bitfield(offset: 16, length: 8),
      green: Bitfield(offset: 8, length: 8), blue: Bitfield(offset: 0, length: 8))
  }

  deinit { memory.deallocate() }

  /// What the screen shows: the page panned to, as a canvas.
  var shown: Canvas {
    var c = Canvas(width: width, height: height)
    let base = info.yoffset * width * 4
    for y in 0..<height {
      for x in 0..<width {
        c[x: x, y: y] = 0xFF00_0000 | memory.load(fromByteOffset: base + (y * width + x) * 4, as: UInt32.self)
      }
    }
    return c
  }

  var syscalls: FramebufferSyscalls {
    FramebufferSyscalls(
      open: { (_, _) throws(SyscallFailure) -> Int32 in 3 }, close: { _ in },
      getVarInfo: { (_) throws(SyscallFailure) -> VarScreenInfo in self.info },
      putVarInfo: { (_, _) throws(SyscallFailure) in throw SyscallFailure(errno: EINVAL) },
      getFixInfo: { (_) throws(SyscallFailure) -> FixScreenInfo in
        FixScreenInfo(lineLength: self.width * 4, memoryLength: self.memory.count)
      },
      panDisplay: { (_, info) throws(SyscallFailure) in self.info.yoffset = info.yoffset },
      waitForVSync: { (_) throws(SyscallFailure) in throw SyscallFailure(errno: ENOTTY) },
      blank: { (_, _) throws(SyscallFailure) in }, getConsoleMode: { (_) throws(SyscallFailure) -> Int32 in 0 },
      setConsoleMode: { _, _ in 0 }, write: { _, _, count in count },
      fileStatus: { (_) throws(SyscallFailure) -> (size: Int, isRegular: Bool) in (self.memory.count, false) },
      truncate: { (_, _) throws(SyscallFailure) in },
      map: { (_, _) throws(SyscallFailure) -> UnsafeMutableRawPointer in self.memory.baseAddress! },
      unmap: { _, _ in })
  }
}

/// The board drawn straight into a double-buffered framebuffer's pages, frame after frame, shows
/// exactly what the same board shows on a display that copies each frame from a canvas of its own.
@Suite("The board drawn into the display's own pages")
struct InPlaceRunTests {
  struct Pair {
    let clock = TestClock(start: Instant(seconds: 1_780_000_000))  // 2026-05-28T20:26:40Z
    let memory = MemoryDisplay(
      width: 320, height: 180, traits: DisplayTraits(fillsScreen: true, movesFrames: true))
    let device = PagedMemory(width: 320, height: 180)
    let screen: FramebufferScreen
    var copied: LiveLoop
    var inPlace: LiveLoop

    init(rotation: Int, shift: PixelShiftMode, night: [NightSchedule.Rule]) throws {
      screen = FramebufferScreen(try Framebuffer.open(syscalls: device.syscalls))
      copied = try Self.loop(memory, rotation: rotation, shift: shift, night: night, clock: clock)
      inPlace = try Self.loop(screen, rotation: rotation, shift: shift, night: night, clock: clock)
    }

    static func loop(
      _ display: any Display, rotation: Int, shift: PixelShiftMode, night: [NightSchedule.Rule], clock: TestClock
    ) throws -> LiveLoop {
      LiveLoop(
        store: BoardStore(state: BoardState()),
        renderer: PixelRenderer(
          scene: try LiveLoopTests.scene(InPlaceRunTests.layout), writesText: false, clock: clock.clock),
        display: display, rotation: rotation,
        settings: LiveSettings(zone: .utc, night: night, pixelShift: shift), clock: clock.clock,
        start: clock.monotonic)
    }

    mutating func turn(_ inputs: [BoardInput] = [], events: [DisplayEvent] = []) throws {
      let now = LiveLoop.Moment(wall: clock.now, monotonic: clock.monotonic)
      _ = try copied.turn(inputs: inputs, events: events, reload: nil, at: now)
      _ = try inPlace.turn(inputs: inputs, events: events, reload: nil, at: now)
    }
  }

  /// The clock above two widgets that change with the features: a minute's frame redraws the
  /// clock alone, a feature's the widgets alone.
  static let layout = """
    name = t
    description = clock and counts
    grid = 2 x 3
    header 0 0 2 1
    progress 0 1 1 2
    tallies 1 1 1 2

    """

  /// The first pixel where `a` and `b` differ, nil when none does.
  static func mismatch(_ a: Canvas, _ b: Canvas) -> String? {
    for y in 0..<a.height {
      for x in 0..<a.width where a[x: x, y: y] & 0xFF_FFFF != b[x: x, y: y] & 0xFF_FFFF {
        return "(\(x), \(y)): \(String(a[x: x, y: y], radix: 16)) ≠ \(String(b[x: x, y: y], radix: 16))"
      }
    }
    return nil
  }

  @Test(arguments: [0, 90], [PixelShiftMode.off, .on])
  func everyFrameDrawnInPlaceIsTheCopiedOne(rotation: Int, shift: PixelShiftMode) throws {
    // Dimmed from 20:40 to 20:45: the board, then its screen frame, then the board again.
    let dim = try NightSchedule.parse(rule: "mon-sun 20:40-20:45 dim=40")
    var pair = try Pair(rotation: rotation, shift: shift, night: [dim])
    var step = 0
    func check(_ what: String) {
      #expect(Self.mismatch(pair.device.shown, pair.memory.screen) == nil, "\(what), step \(step)")
    }
    try pair.turn()
    check("first frame")
    // Seconds tick, the clock's minute changes, features come, the move against burn-in steps
    // every 180 s, the picture is lost once, and the night dims the board for a while. At
    // 20:26:43 a feature redraws the counts and at 20:27:00 the minute the clock alone: a page
    // shown in turn that missed the counts would show them stale.
    for advance in [1.0, 1, 1, 17, 1, 1, 58, 1, 1, 180, 1, 1, 360, 1, 1, 300, 1, 1, 180, 1, 1] {
      step += 1
      pair.clock.advance(by: advance)
      let inputs = step % 3 == 0 ? [LiveLoopTests.feature("F\(step)", at: pair.clock.now)] : []
      try pair.turn(inputs, events: step == 9 ? [.redraw] : [])
      check("after \(advance) s")
    }
    #expect(pair.screen.framebuffer.isDoubleBuffered)
    #expect(pair.inPlace.presenter.board.isLent == (rotation == 0), "the board is drawn in the page unless turned")
  }
}

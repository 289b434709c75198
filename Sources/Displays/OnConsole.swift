internal import Clock
public import DisplayCore
internal import FramebufferDisplay
internal import Glibc
public import Raster

/// A display on the Linux console: the console is switched to graphics mode while it shows the
/// board (no text, no cursor over it) and put back when it closes. When the console cannot be
/// had (no `/dev/tty0`, not allowed), the board still shows, and stderr says why the console
/// stays in text mode.
///
/// Its first frame is said on stderr (the journal, under systemd) with the device, its mode and
/// the time since the process started: "wallboard: /dev/dri/card0: Virtual-1 1024x768@60,
/// XRGB8888, page flips; first frame 212 ms after start".
public final class OnConsole: Display {
  public let inner: any Display
  private let guardian: ConsoleGuard?
  private let say: @Sendable (String) -> Void
  private let label: String
  private let clock: Clock
  private var shown = false

  init(_ inner: any Display, context: DisplayContext, label: String) {
    self.clock = context.clock
    self.inner = inner
    self.say = context.say
    self.label = label
    var g: ConsoleGuard?
    // The virtual console standard input is (the unit's tty1), else the foreground one.
    let tty = ConsoleGuard.console(standardInput: ttyname(0).map { String(cString: $0) })
    do { g = try ConsoleGuard(tty: tty) } catch { context.say("wallboard: the console stays in text mode: \(error)") }
    guardian = g
  }

  public var size: (width: Int, height: Int) { inner.size }
  public var traits: DisplayTraits { inner.traits }
  public func drawingBuffer(
    width: Int, height: Int, offset: (dx: Int, dy: Int), background: RGBA
  ) throws(DisplayError) -> DrawingBuffer? {
    try inner.drawingBuffer(width: width, height: height, offset: offset, background: background)
  }
  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    try inner.present(frame)
    guard !shown else { return }
    shown = true
    let since =
      ProcessStart.secondsSince(bootNow: clock.secondsSinceBoot()).map {
        "; first frame \(Int(($0 * 1000).rounded())) ms after start"
      } ?? ""
    say("wallboard: \(label)\(since)")
  }
  public func setPower(_ on: Bool) -> Bool { inner.setPower(on) }
  public func events() -> [DisplayEvent] { inner.events() }
  public func close() {
    inner.close()
    guardian?.restore()
  }
}

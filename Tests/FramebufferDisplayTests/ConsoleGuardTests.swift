import FramebufferDisplay
import Glibc
import Testing

/// What a guard logs when it takes the console, and when it gives it back in mode `mode`.
let taken = ["KDSETMODE 1", "write ESC[?25l"]
func given(_ mode: Int32 = 0) -> [String] { ["KDSETMODE \(mode)", "write ESC[?25h"] }

/// The handler installed for `signo`, as an address (0 for `SIG_DFL`).
func currentHandler(_ signo: Int32) -> UInt {
  var action = sigaction()
  _ = sigaction(signo, nil, &action)
  return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
}

/// The console guard is process-wide, so these run one at a time.
@Suite("Console guard", .serialized)
struct ConsoleGuardTests {
  let device = xrgbDevice(8, 8)

  @Test("takes the console into graphics mode and restores it exactly once")
  func restoreOnce() throws {
    FakeConsole.reset()
    let console = try ConsoleGuard(syscalls: device.syscalls)
    #expect(device.calls("open") == ["open /dev/tty0"])
    #expect(FakeConsole.log == taken)
    #expect(console.previousMode == 0)
    console.restore()
    console.restore()
    #expect(FakeConsole.log == taken + given())
    #expect(device.calls("close") == ["close 3"])
  }

  @Test("deinit restores the mode it found")
  func deinitRestores() throws {
    FakeConsole.reset(mode: 1)
    do { _ = try ConsoleGuard(tty: "/dev/tty3", syscalls: device.syscalls) }
    #expect(FakeConsole.log == taken + given(1))
  }

  @Test("leaves SIGINT and SIGTERM to the executable; restoreActiveConsole restores once")
  func signalsAreNotTaken() throws {
    FakeConsole.reset()
    let before = [SIGINT, SIGTERM].map(currentHandler)
    let console = try ConsoleGuard(syscalls: device.syscalls)
    #expect([SIGINT, SIGTERM].map(currentHandler) == before, "the guard installs no signal handler")
    #expect(ConsoleGuard.isActive)
    ConsoleGuard.restoreActiveConsole()
    #expect(FakeConsole.log == taken + given())
    ConsoleGuard.restoreActiveConsole()
    #expect(FakeConsole.log == taken + given(), "restored once")
    console.restore()
    #expect(!ConsoleGuard.isActive)
    #expect(FakeConsole.log == taken + given())
  }

  @Test("restoreActiveConsole restores without the guard; the guard then only lets go")
  func restoreActive() throws {
    FakeConsole.reset()
    let console = try ConsoleGuard(syscalls: device.syscalls)
    ConsoleGuard.restoreActiveConsole()
    console.restore()
    #expect(FakeConsole.log == taken + given())
    // A new guard may follow.
    FakeConsole.reset()
    _ = try ConsoleGuard(syscalls: device.syscalls)
    #expect(FakeConsole.log == taken + given())
  }

  @Test("a console that refuses KDGETMODE or KDSETMODE is named, and nothing stays changed")
  func failures() throws {
    FakeConsole.reset()
    FakeConsole.state.withLock { $0.getModeFailure = ENOTTY }
    #expect(throws: FramebufferError.callFailed(path: "/dev/pts/1", call: "KDGETMODE", errno: ENOTTY)) {
      try ConsoleGuard(tty: "/dev/pts/1", syscalls: device.syscalls)
    }
    #expect(FakeConsole.log.isEmpty)
    FakeConsole.reset()
    FakeConsole.state.withLock { $0.setModeFailure = EPERM }
    do {
      _ = try ConsoleGuard(syscalls: device.syscalls)
      Issue.record("the guard was created")
    } catch {
      #expect(error.description == "/dev/tty0: KDSETMODE failed: Operation not permitted")
    }
    #expect(FakeConsole.log.first == "KDSETMODE 1")
    #expect(device.calls("open").count == device.calls("close").count)
    FakeConsole.reset()
    _ = try ConsoleGuard(syscalls: device.syscalls)
    #expect(FakeConsole.log == taken + given())
  }
}

/// The console the guard takes: the virtual console on standard input (the unit's tty1: the
/// controlling tty, which the service's user may switch), else the foreground one.
@Suite("The console a board takes")
struct ConsoleChoiceTests {
  @Test(
    "a virtual console on standard input is the one",
    arguments: ["/dev/tty1", "/dev/tty7", "/dev/tty63"])
  func virtualConsole(_ path: String) {
    #expect(ConsoleGuard.console(standardInput: path) == path)
  }

  @Test(
    "anything else is the foreground console",
    arguments: [
      nil, "/dev/pts/3", "/dev/console", "/dev/tty", "/dev/tty0", "/dev/tty64", "/dev/tty01", "/dev/ttyS0",
      "/dev/ttyUSB0", "/dev/tty1x", "/dev/tty-1", "/dev/null",
    ])
  func foreground(_ path: String?) {
    #expect(ConsoleGuard.console(standardInput: path) == "/dev/tty0")
  }
}

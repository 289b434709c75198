internal import CFramebuffer
internal import Glibc
internal import Synchronization

/// Hands the Linux console to the framebuffer: switches it to graphics mode (`KDSETMODE`
/// `KD_GRAPHICS`, so the kernel stops drawing text and the blinking cursor over the board) and
/// hides the cursor (`ESC [?25l`), remembering the mode it had (`KDGETMODE`).
///
/// `restore()` puts both back (`KDSETMODE` with the previous mode, `ESC [?25h`) exactly once, on
/// every way out: `restore()` itself (call it from the executable's fatal-error path), `deinit`,
/// a normal `exit` (an `atexit` handler: top-level variables of `main.swift` are never
/// deinitialised), and `restoreActiveConsole()`, which is async-signal-safe: the executable's
/// signal handler calls it before it lets a signal end the process.
///
/// **Signals.** The guard installs no signal handler: `SIGINT` and `SIGTERM` belong to the
/// executable, which turns them into a normal return from its run loop (the display closed, the
/// guard restored), and only on a second signal restores from the handler and dies of it.
///
/// **Which console.** A tty path, `/dev/tty0` by default: the foreground virtual console, which is
/// the one showing the framebuffer whoever started the process. A board whose standard input is
/// a virtual console (the unit's `TTYPath=/dev/tty1` with `StandardInput=tty-force`) takes that
/// one instead (`ConsoleGuard.console(standardInput:)`): it is the process's controlling tty,
/// owned by the service's user, so `KDSETMODE` is allowed without `CAP_SYS_TTY_CONFIG`, where
/// `/dev/tty0` (root's, `0620`) could not even be opened for reading. Standard input is not used
/// otherwise: over SSH it is a pseudo-terminal, where `KDSETMODE` fails.
///
/// **One at a time.** A signal handler captures nothing, so the fd, the previous mode and the
/// seam's `setConsoleMode` and `write` function pointers live in global state, set before the
/// guard is armed. Creating a second guard while one is active is a programming error.
public final class ConsoleGuard {
  let syscalls: FramebufferSyscalls
  /// The console's tty, for error messages.
  public let tty: String
  let fd: Int32
  /// The mode the console had before (`KD_TEXT`, usually).
  public let previousMode: Int32
  private var released = false

  /// The console a board whose standard input is `standardInput` (its `ttyname`, nil when it is
  /// no terminal) takes: that one when it is a virtual console (`/dev/tty1` … `/dev/tty63`),
  /// else the foreground one, `/dev/tty0`.
  public static func console(standardInput: String?) -> String {
    guard let path = standardInput, path.hasPrefix("/dev/tty") else { return "/dev/tty0" }
    let number = path.dropFirst("/dev/tty".count)
    guard number.first != "0", number.allSatisfy({ ("0"..."9").contains($0) }), let n = Int(number),
      (1...63).contains(n)
    else { return "/dev/tty0" }
    return path
  }

  /// Opens `tty`, switches it to graphics mode and hides the cursor.
  public init(tty: String = "/dev/tty0", syscalls: FramebufferSyscalls = .live) throws(FramebufferError) {
    precondition(
      consolePhase.compareExchange(
        expected: ConsolePhase.idle, desired: ConsolePhase.busy, ordering: .sequentiallyConsistent
      )
      .exchanged,
      "only one ConsoleGuard may be active at a time; restore the other first")
    self.syscalls = syscalls
    self.tty = tty
    var fd: Int32 = -1
    do {
      fd = try syscalls.open(tty, false)
      self.fd = fd
      previousMode = try syscalls.getConsoleMode(fd)
    } catch {
      if fd >= 0 { syscalls.close(fd) }
      consolePhase.store(ConsolePhase.idle, ordering: .sequentiallyConsistent)
      throw error.on(tty, fd < 0 ? "open" : "KDGETMODE")
    }
    consoleState = ConsoleRestoreState(
      fd: fd, previousMode: previousMode, setMode: syscalls.setConsoleMode, write: syscalls.write)
    installAtExitOnce()
    consolePhase.store(ConsolePhase.armed, ordering: .sequentiallyConsistent)
    if syscalls.setConsoleMode(fd, wb_kd_graphics()) < 0 {
      let code = errno
      restore()
      throw .callFailed(path: tty, call: "KDSETMODE", errno: code)
    }
    let hide: StaticString = "\u{1B}[?25l"
    _ = syscalls.write(fd, hide.utf8Start, hide.utf8CodeUnitCount)
  }

  deinit { restore() }

  /// Puts the console's mode and cursor back, once; later calls do nothing. Also closes the tty.
  public func restore() {
    guard !released else { return }
    released = true
    restoreConsoleSignalSafe()
    syscalls.close(fd)
    consoleState = nil
    consolePhase.store(ConsolePhase.idle, ordering: .sequentiallyConsistent)
  }

  /// Restores the active guard's console, if any, without needing the guard: for a fatal-error
  /// path or a signal handler about to end the process. Async-signal-safe (an atomic exchange,
  /// an ioctl and a write; `errno` is kept). The guard's own `restore()` still closes its tty.
  public static func restoreActiveConsole() {
    let saved = errno
    restoreConsoleSignalSafe()
    errno = saved
  }

  /// Whether a guard holds the console now. Reading it also initialises the state the restore
  /// reads, so a signal handler is not the first to touch it: call it before installing one.
  public static var isActive: Bool { consolePhase.load(ordering: .sequentiallyConsistent) == ConsolePhase.armed }
}

/// The states of the one console guard a process may have.
enum ConsolePhase {
  /// No guard.
  static let idle = 0
  /// A guard is being set up or torn down; a restore must not act.
  static let busy = 1
  /// The console is in graphics mode; a signal or `restore()` puts it back.
  static let armed = 2
  /// Put back; the guard has yet to let go.
  static let restored = 3
}

/// Where the console guard is: a `ConsolePhase` value. Lock-free, so a signal handler may use it.
let consolePhase = Atomic<Int>(ConsolePhase.idle)

/// What a signal handler needs to restore the console: plain values and C function pointers.
struct ConsoleRestoreState {
  var fd: Int32
  var previousMode: Int32
  var setMode: @convention(c) (Int32, Int32) -> Int32
  var write: @convention(c) (Int32, UnsafeRawPointer?, Int) -> Int
}

/// Written only while the phase is `busy` (before a restore can act), read by the restore.
nonisolated(unsafe) var consoleState: ConsoleRestoreState?

/// Puts the console back if it is armed: `KDSETMODE` with the previous mode, then `ESC [?25h`.
/// Only an atomic exchange, an ioctl and a write: async-signal-safe.
func restoreConsoleSignalSafe() {
  guard
    consolePhase.compareExchange(
      expected: ConsolePhase.armed, desired: ConsolePhase.restored, ordering: .sequentiallyConsistent
    ).exchanged, let state = consoleState
  else { return }
  _ = state.setMode(state.fd, state.previousMode)
  let show: StaticString = "\u{1B}[?25h"
  _ = state.write(state.fd, show.utf8Start, show.utf8CodeUnitCount)
}

/// Whether the `atexit` handler is in (it cannot be removed, so it goes in once per process).
private let atExitInstalled = Atomic<Bool>(false)

/// Registers `restoreConsoleSignalSafe` to run at `exit`, once per process.
private func installAtExitOnce() {
  guard atExitInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
  else { return }
  _ = atexit { restoreConsoleSignalSafe() }
}

internal import CFramebuffer
internal import Glibc
internal import Synchronization

/// Hands the Linux console to the framebuffer: switches it to graphics mode (`KDSETMODE`
/// `KD_GRAPHICS`, so the kernel stops drawing text and the blinking cursor over the board) and
/// hides the cursor (`ESC [?25l`), remembering the mode it had (`KDGETMODE`).
///
/// `restore()` puts both back (`KDSETMODE` with the previous mode, `ESC [?25h`) exactly once, on
/// every way out: `restore()` itself (call it from the executable's fatal-error path, or use
/// `restoreActiveConsole()` where the guard is out of reach), `deinit`, a normal `exit` (an
/// `atexit` handler: top-level variables of `main.swift` are never deinitialised), and `SIGINT`
/// or `SIGTERM` (`sigaction` handlers that restore, then re-raise the signal with its default
/// action so the exit status still says which signal ended the process).
///
/// **Which console.** A tty path, `/dev/tty0` by default: the foreground virtual console, which is
/// the one showing the framebuffer whoever started the process. Standard input is not used:
/// under systemd it is usually `/dev/null`, and over SSH it is a pseudo-terminal, where
/// `KDSETMODE` fails; a service bound to a console (`TTYPath=/dev/tty1`) passes that path.
///
/// **One at a time.** A signal handler captures nothing, so the fd, the previous mode and the
/// seam's `setConsoleMode` and `write` function pointers live in global state, set before the
/// handlers go in. Creating a second guard while one is active is a programming error.
public final class ConsoleGuard {
  let syscalls: FramebufferSyscalls
  /// The console's tty, for error messages.
  public let tty: String
  let fd: Int32
  /// The mode the console had before (`KD_TEXT`, usually).
  public let previousMode: Int32
  /// The signal actions replaced, put back by `restore()`.
  private var replacedActions: [(signal: Int32, action: sigaction)] = []
  private var released = false

  /// The signals that restore the console before ending the process.
  public static let handledSignals: [Int32] = [SIGINT, SIGTERM]

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
    for signo in ConsoleGuard.handledSignals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = consoleSignalHandler
      sigemptyset(&action.sa_mask)
      var old = sigaction()
      _ = sigaction(signo, &action, &old)
      replacedActions.append((signo, old))
    }
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

  /// Puts the console's mode and cursor back, once; later calls do nothing. Also puts back the
  /// signal actions this guard replaced and closes the tty.
  public func restore() {
    guard !released else { return }
    released = true
    restoreConsoleSignalSafe()
    for (signo, var old) in replacedActions.reversed() { _ = sigaction(signo, &old, nil) }
    replacedActions = []
    syscalls.close(fd)
    consoleState = nil
    consolePhase.store(ConsolePhase.idle, ordering: .sequentiallyConsistent)
  }

  /// Restores the active guard's console, if any, without needing the guard: for a fatal-error
  /// path. Async-signal-safe. The guard's own `restore()` still closes its tty later.
  public static func restoreActiveConsole() { restoreConsoleSignalSafe() }

  /// Runs what the `SIGINT`/`SIGTERM` handler runs for `signo`, without re-raising it: for tests
  /// of the restore path in this process.
  public static func handleSignalForTesting(_ signo: Int32) { handleConsoleSignal(signo, reraise: false) }
}

/// The states of the one console guard a process may have.
enum ConsolePhase {
  /// No guard.
  static let idle = 0
  /// A guard is being set up or torn down; the handlers must not act.
  static let busy = 1
  /// The console is in graphics mode; a signal or `restore()` puts it back.
  static let armed = 2
  /// Put back; the guard has yet to let go.
  static let restored = 3
}

/// Where the console guard is: a `ConsolePhase` value. Lock-free, so signal handlers may use it.
let consolePhase = Atomic<Int>(ConsolePhase.idle)

/// What the signal handler needs to restore the console: plain values and C function pointers.
struct ConsoleRestoreState {
  var fd: Int32
  var previousMode: Int32
  var setMode: @convention(c) (Int32, Int32) -> Int32
  var write: @convention(c) (Int32, UnsafeRawPointer?, Int) -> Int
}

/// Written only while the phase is `busy` (before the handlers can act), read by the handlers.
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

/// The body of the signal handler: restore, then (for real) die of `signo` with its default action.
func handleConsoleSignal(_ signo: Int32, reraise: Bool) {
  let saved = errno
  restoreConsoleSignalSafe()
  errno = saved
  guard reraise else { return }
  var action = sigaction()
  action.__sigaction_handler.sa_handler = SIG_DFL
  sigemptyset(&action.sa_mask)
  _ = sigaction(signo, &action, nil)
  // Blocked while this handler runs; delivered, with the default action, when it returns.
  _ = raise(signo)
}

/// The `SIGINT`/`SIGTERM` handler.
private let consoleSignalHandler: @convention(c) (Int32) -> Void = { signo in
  handleConsoleSignal(signo, reraise: true)
}

/// Whether the `atexit` handler is in (it cannot be removed, so it goes in once per process).
private let atExitInstalled = Atomic<Bool>(false)

/// Registers `restoreConsoleSignalSafe` to run at `exit`, once per process.
private func installAtExitOnce() {
  guard atExitInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
  else { return }
  _ = atexit { restoreConsoleSignalSafe() }
}

internal import FramebufferDisplay
internal import Glibc
internal import Runtime
internal import Synchronization
internal import TerminalDisplay

/// The signal that asked the process to stop (`SIGTERM` or `SIGINT`), 0 while none has.
private let stopSignal = Atomic<Int32>(0)
/// Set by `SIGHUP`, taken by the run loop's reload.
private let hangupFlag = Atomic<Bool>(false)
/// Whether the handlers are in (they go in once per process).
private let installed = Atomic<Bool>(false)

/// The process's stop and reload signals as flags the run loop reads.
///
/// `SIGTERM` and `SIGINT` ask the board to stop: the first only records which signal it was
/// (`stopRequested`), and the run loop returns within a turn, so every `defer` runs (sources
/// stopped, the display closed, the journal flushed). A second one while that stop is pending
/// ends the process at once, for a loop that hangs: the handler puts the screen back (the
/// console guard's and the terminal display's async-signal-safe restores) and re-raises the
/// signal with its default action, so the process dies of it as a shell or systemd expects.
/// `SIGHUP` asks for a reload (`takeHangup()`).
///
/// The handlers only do atomic operations, `ioctl`, `write`, `sigaction` and `raise`: all
/// async-signal-safe, and nothing allocates.
public enum StopSignals {
  /// Puts the handlers in for `SIGTERM`, `SIGINT` and `SIGHUP` (`sigaction`), whatever their
  /// disposition was (a parent's `SIG_IGN` included); later calls do nothing.
  public static func install() {
    guard !installed.exchange(true, ordering: .sequentiallyConsistent) else { return }
    // Every global a handler reads is initialised here, so no handler runs a lazy initialiser.
    _ = stopSignal.load(ordering: .relaxed)
    _ = hangupFlag.load(ordering: .relaxed)
    _ = ConsoleGuard.isActive
    _ = TerminalDisplay.emergencyRestoreArmed
    _ = Wakeup.signals
    var action = sigaction()
    action.__sigaction_handler.sa_handler = stopSignalHandler
    // One handler at a time: a signal arriving while another is handled waits for it.
    sigemptyset(&action.sa_mask)
    for signo in handled { sigaddset(&action.sa_mask, signo) }
    // A read or wait interrupted by a signal goes on; the run loop reads the flags.
    action.sa_flags = SA_RESTART
    for signo in handled { _ = sigaction(signo, &action, nil) }
  }

  /// The signals `install()` handles.
  static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]

  /// Which signal asked the board to stop, `SIGTERM` or `SIGINT`; nil while none has.
  public static var stopRequested: Int32? {
    let signo = stopSignal.load(ordering: .sequentiallyConsistent)
    return signo == 0 ? nil : signo
  }

  /// Whether `SIGHUP` arrived since the last call.
  public static func takeHangup() -> Bool { hangupFlag.exchange(false, ordering: .sequentiallyConsistent) }

  /// What a signal does.
  enum Reaction: Equatable {
    /// The first `SIGTERM` or `SIGINT`: the stop is recorded; the run loop returns.
    case stop
    /// A `SIGTERM` or `SIGINT` while a stop is pending: the process must end now.
    case endNow
    /// `SIGHUP`: a reload is recorded.
    case hangup
    /// Not a signal of these.
    case ignored
  }

  /// Records `signo` in the flags and says what follows: the handler's logic, without its
  /// effects on the process (tests pass flags of their own). Lock-free; allocates nothing.
  static func receive(_ signo: Int32, stop: borrowing Atomic<Int32>, hangup: borrowing Atomic<Bool>) -> Reaction {
    switch signo {
    case SIGHUP:
      hangup.store(true, ordering: .sequentiallyConsistent)
      return .hangup
    case SIGTERM, SIGINT:
      let first = stop.compareExchange(expected: 0, desired: signo, ordering: .sequentiallyConsistent).exchanged
      return first ? .stop : .endNow
    default:
      return .ignored
    }
  }

  /// The exit status of a board stopped by `signo`: 0 for `SIGTERM` (systemd's ordinary stop,
  /// not a failure to restart after), 130 for `SIGINT` (128 + 2, the shell's convention for
  /// Ctrl-C).
  public static func exitStatus(for signo: Int32) -> Int32 { signo == SIGINT ? 130 : 0 }

  /// "SIGTERM", "SIGINT" or "SIGHUP" (else "signal N"), for the stop line.
  public static func name(_ signo: Int32) -> String {
    switch signo {
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    case SIGHUP: "SIGHUP"
    default: "signal \(signo)"
    }
  }
}

/// Puts the screen back and dies of `signo` with its default action.
private func endNow(_ signo: Int32) {
  ConsoleGuard.restoreActiveConsole()
  TerminalDisplay.restoreActiveTerminal()
  var action = sigaction()
  action.__sigaction_handler.sa_handler = SIG_DFL
  sigemptyset(&action.sa_mask)
  _ = sigaction(signo, &action, nil)
  // Blocked while this handler runs; delivered to this thread, with the default action, when it
  // returns.
  _ = raise(signo)
}

/// The handler of `SIGTERM`, `SIGINT` and `SIGHUP`.
private let stopSignalHandler: @convention(c) (Int32) -> Void = { signo in
  let saved = errno
  if StopSignals.receive(signo, stop: stopSignal, hangup: hangupFlag) == .endNow { endNow(signo) }
  // The run loop sleeps until its next deadline: a stop or reload wakes it now.
  Wakeup.signal(Wakeup.signals.write)
  errno = saved
}

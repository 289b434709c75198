#if canImport(Glibc)
  internal import Glibc
#endif

/// What `leave()` sends, minus the cursor move: colours reset, autowrap on, cursor shown.
private let restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\r\n"
nonisolated(unsafe) private var restoreFD: Int32 = 1

extension TerminalDisplay {
  /// Puts the terminal back (cursor, autowrap, colours) when the process is ended by SIGINT or
  /// SIGTERM, then lets the signal end it as usual. The handler only calls `write` and `kill`,
  /// which are async-signal-safe. Call once, before the first frame.
  public static func restoreOnSignals(fd: Int32 = 1) {
    restoreFD = fd
    for signo in [SIGINT, SIGTERM] {
      signal(signo) { s in
        _ = write(restoreFD, restoreSequence.utf8Start, restoreSequence.utf8CodeUnitCount)
        signal(s, SIG_DFL)
        // kill rather than raise: the signal may be blocked on this thread but not on others.
        kill(getpid(), s)
      }
    }
  }
}

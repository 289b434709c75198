internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#endif

/// What `leave()` sends, minus the cursor move: colours reset, autowrap on, cursor shown, the
/// screen from before the board.
private let restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

/// The descriptor `restoreActiveTerminal()` writes to, -1 when no display is armed. Lock-free,
/// so a signal handler may exchange it.
private let armedFD = Atomic<Int32>(-1)

#if canImport(Glibc)
  /// The input terminal in key-at-a-time mode, -1 when none is, and its settings from before:
  /// what `restoreActiveTerminal()` puts back with `tcsetattr(2)` (async-signal-safe). Set by
  /// `TerminalSyscalls.live`'s `enterKeyMode`, cleared by its `restoreInput`.
  private let keyModeFD = Atomic<Int32>(-1)
  nonisolated(unsafe) private let keyModeSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)

  /// Keeps `settings`, the settings of `fd` before key-at-a-time mode, for a signal handler.
  func keepForEmergencyRestore(input fd: Int32, settings: termios) {
    keyModeFD.store(-1, ordering: .sequentiallyConsistent)
    keyModeSettings.pointee = settings
    keyModeFD.store(fd, ordering: .sequentiallyConsistent)
  }

  /// Forgets the settings `keepForEmergencyRestore` kept (they were put back).
  func forgetEmergencyRestoreInput() { keyModeFD.store(-1, ordering: .sequentiallyConsistent) }

  /// The signals of a crash (a Swift trap is `SIGILL` or `SIGTRAP`, `fatalError` and
  /// `abort()` can be `SIGABRT`) and `SIGQUIT`, whose handlers `armEmergencyRestore()` puts in.
  let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGQUIT]
  /// The dispositions those signals had before, indexed by signal number (preallocated, so the
  /// handler reads them without allocating).
  nonisolated(unsafe) private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
  private let crashHandlersInstalled = Atomic<Bool>(false)

  /// A crash signal's handler: the terminal back, then the disposition from before (the
  /// default, or the Swift runtime's backtracer) put back and the signal raised again, which is
  /// delivered with it when this returns (a fault also happens again at its instruction).
  private let crashHandler: @convention(c) (Int32) -> Void = { signo in
    TerminalDisplay.restoreActiveTerminal()
    if signo > 0 && signo < 65 { _ = sigaction(signo, previousActions + Int(signo), nil) }
    _ = raise(signo)
  }
#endif

extension TerminalDisplay {
  /// Lets `restoreActiveTerminal()` hand this display's terminal back from a signal handler:
  /// for a process about to die of a signal, whose `close()` will never run. `close()` (or
  /// `deinit`) disarms it. One display at a time: arming another replaces this one.
  ///
  /// The first arming also puts in handlers for the signals of a crash and `SIGQUIT` (`SIGILL`,
  /// `SIGTRAP`, `SIGABRT`, `SIGSEGV`, `SIGBUS`, `SIGFPE`, `SIGQUIT`): each restores the terminal,
  /// then lets the signal do what it did before (the default action, or the handler that was
  /// there); one that was ignored is left ignored. The stop signals are the executable's (`StopSignals` calls
  /// `restoreActiveTerminal()` itself).
  public func armEmergencyRestore() {
    _ = Self.emergencyRestoreArmed
    armedFD.store(fd, ordering: .sequentiallyConsistent)
    #if canImport(Glibc)
      guard !crashHandlersInstalled.exchange(true, ordering: .sequentiallyConsistent) else { return }
      for signo in crashSignals {
        // An ignored signal stays ignored (a shell's background job ignores SIGQUIT).
        var current = sigaction()
        guard sigaction(signo, nil, &current) == 0,
          unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != 1  // SIG_IGN
        else { continue }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = crashHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = sigaction(signo, &action, previousActions + Int(signo))
      }
    #endif
  }

  /// Takes this display off `restoreActiveTerminal()`, if it is the armed one.
  func disarmEmergencyRestore() {
    _ = armedFD.compareExchange(expected: fd, desired: -1, ordering: .sequentiallyConsistent)
  }

  /// Whether a display is armed. Reading it also initialises the state the restore reads, so a
  /// signal handler is not the first to touch it: call it before installing one.
  public static var emergencyRestoreArmed: Bool {
    #if canImport(Glibc)
      _ = keyModeFD.load(ordering: .relaxed)
      _ = keyModeSettings
      _ = previousActions
    #endif
    return armedFD.load(ordering: .sequentiallyConsistent) >= 0
  }

  /// Puts the armed display's terminal back (colours reset, autowrap on, cursor shown, the
  /// screen from before the board) and the input terminal's settings from before key-at-a-time
  /// mode, once; later calls, and calls with none armed, do nothing. Only atomic exchanges, a
  /// `write(2)` and a `tcsetattr(2)`: async-signal-safe, for a handler that then ends the
  /// process.
  public static func restoreActiveTerminal() {
    let saved = errno
    defer { errno = saved }
    let fd = armedFD.exchange(-1, ordering: .sequentiallyConsistent)
    if fd >= 0 { _ = write(fd, restoreSequence.utf8Start, restoreSequence.utf8CodeUnitCount) }
    #if canImport(Glibc)
      let input = keyModeFD.exchange(-1, ordering: .sequentiallyConsistent)
      if input >= 0 { _ = tcsetattr(input, TCSANOW, keyModeSettings) }
    #endif
  }
}

internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#endif

/// What `leave()` sends, minus the cursor move: colours reset, autowrap on, cursor shown.
private let restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\r\n"

/// The descriptor `restoreActiveTerminal()` writes to, -1 when no display is armed. Lock-free,
/// so a signal handler may exchange it.
private let armedFD = Atomic<Int32>(-1)

extension TerminalDisplay {
  /// Lets `restoreActiveTerminal()` hand this display's terminal back from a signal handler:
  /// for a process about to die of a signal, whose `close()` will never run. `close()` (or
  /// `deinit`) disarms it. One display at a time: arming another replaces this one.
  public func armEmergencyRestore() {
    armedFD.store(fd, ordering: .sequentiallyConsistent)
  }

  /// Takes this display off `restoreActiveTerminal()`, if it is the armed one.
  func disarmEmergencyRestore() {
    _ = armedFD.compareExchange(expected: fd, desired: -1, ordering: .sequentiallyConsistent)
  }

  /// Whether a display is armed. Reading it also initialises the state the restore reads, so a
  /// signal handler is not the first to touch it: call it before installing one.
  public static var emergencyRestoreArmed: Bool { armedFD.load(ordering: .sequentiallyConsistent) >= 0 }

  /// Puts the armed display's terminal back (colours reset, autowrap on, cursor shown), once;
  /// later calls, and calls with none armed, do nothing. Only an atomic exchange and a
  /// `write(2)`: async-signal-safe, for a handler that then ends the process.
  public static func restoreActiveTerminal() {
    let fd = armedFD.exchange(-1, ordering: .sequentiallyConsistent)
    guard fd >= 0 else { return }
    let saved = errno
    _ = write(fd, restoreSequence.utf8Start, restoreSequence.utf8CodeUnitCount)
    errno = saved
  }
}

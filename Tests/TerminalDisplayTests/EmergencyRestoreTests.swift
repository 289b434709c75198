import Glibc
import TerminalDisplay
import Testing

/// The restore a signal handler runs for a process about to die: a bare `write(2)` to the
/// armed display's descriptor, once, and nothing once the display is closed.
@Suite("Terminal emergency restore", .serialized)
struct EmergencyRestoreTests {
  /// What the emergency restore writes: `leave()` without the cursor move.
  static let restore = Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// A pipe whose write end is moved above 900, out of the way of the fake descriptors other
  /// tests give their displays (a display closing with the same number would disarm this one).
  struct HighPipe: ~Copyable {
    let read: Int32
    let write: Int32
    init() throws {
      var fds: [Int32] = [-1, -1]
      try #require(pipe(&fds) == 0)
      _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
      let high = fcntl(fds[1], F_DUPFD_CLOEXEC, 900)
      close(fds[1])
      try #require(high >= 900)
      read = fds[0]
      write = high
    }
    deinit {
      close(read)
      close(write)
    }

    /// Everything written so far.
    func drain() -> [UInt8] {
      var out: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
        guard n > 0 else { return out }
        out += buffer[0..<n]
      }
    }
  }

  /// A seam that keeps what `close()` writes, so the pipe holds only the emergency restore.
  final class Recorder {
    var written: [UInt8] = []
    var syscalls: TerminalSyscalls {
      TerminalSyscalls(
        write: { [self] _, bytes in
          written += bytes
          return bytes.count
        }, waitWritable: { _ in true }, windowSize: { _ in nil }, installResizeHandler: {}, takeResize: { false })
    }
  }

  @Test func anArmedDisplayIsRestoredOnceAndAClosedOneNotAtAll() throws {
    let pipe = try HighPipe()
    let recorder = Recorder()
    let display = TerminalDisplay(output: pipe.write, syscalls: recorder.syscalls, size: (4, 2))
    #expect(!TerminalDisplay.emergencyRestoreArmed)
    TerminalDisplay.restoreActiveTerminal()
    #expect(pipe.drain().isEmpty, "nothing is armed before armEmergencyRestore()")

    display.armEmergencyRestore()
    #expect(TerminalDisplay.emergencyRestoreArmed)
    TerminalDisplay.restoreActiveTerminal()
    #expect(pipe.drain() == Self.restore)
    TerminalDisplay.restoreActiveTerminal()
    #expect(pipe.drain().isEmpty, "the restore happens once")

    display.armEmergencyRestore()
    try display.close()
    #expect(!TerminalDisplay.emergencyRestoreArmed, "close() disarms")
    #expect(recorder.written.starts(with: Array("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h".utf8)), "close() left as usual")
    TerminalDisplay.restoreActiveTerminal()
    #expect(pipe.drain().isEmpty, "a closed display is not written to")
  }
}

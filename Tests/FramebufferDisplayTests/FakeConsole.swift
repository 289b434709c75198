import FramebufferDisplay
import Glibc
import Synchronization

/// The fake console behind every `FakeDevice` seam: `KDGETMODE` answers `mode`, and
/// `KDSETMODE` and `write` (C function pointers, as the signal handler needs) log to `log`.
/// Process-wide, like the console guard itself, so the tests that use it run serialized.
enum FakeConsole {
  struct State {
    var log: [String] = []
    /// What `KDGETMODE` answers (0 `KD_TEXT`, 1 `KD_GRAPHICS`).
    var mode: Int32 = 0
    /// The errno `KDGETMODE` fails with, or 0.
    var getModeFailure: Int32 = 0
    /// The errno `KDSETMODE` fails with, or 0.
    var setModeFailure: Int32 = 0
  }

  static let state = Mutex(State())

  /// Clears the log and the failures; the console is in `mode`.
  static func reset(mode: Int32 = 0) { state.withLock { $0 = State(mode: mode) } }

  static var log: [String] { state.withLock { $0.log } }

  static func getMode() throws(SyscallFailure) -> Int32 {
    let (mode, failure) = state.withLock { ($0.mode, $0.getModeFailure) }
    if failure != 0 { throw SyscallFailure(errno: failure) }
    return mode
  }

  static let setMode: @convention(c) (Int32, Int32) -> Int32 = { fd, mode in
    let failure = FakeConsole.state.withLock { s in
      s.log.append("KDSETMODE \(mode)")
      if s.setModeFailure == 0 { s.mode = mode }
      return s.setModeFailure
    }
    if failure != 0 {
      errno = failure
      return -1
    }
    return 0
  }

  static let write: @convention(c) (Int32, UnsafeRawPointer?, Int) -> Int = { fd, bytes, count in
    let text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    FakeConsole.state.withLock { $0.log.append("write \(text.replacingEscape())") }
    return count
  }
}

extension String {
  /// `ESC` written as `ESC`, for readable logs.
  func replacingEscape() -> String {
    var out = ""
    for c in self { out += c == "\u{1B}" ? "ESC" : String(c) }
    return out
  }
}

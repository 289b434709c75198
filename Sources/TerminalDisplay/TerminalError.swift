/// Why the terminal could not be written.
public enum TerminalError: Error, Equatable, Sendable {
  /// `write(2)` on `fd` failed with `errno` (not `EINTR` or `EAGAIN`, which are retried).
  case writeFailed(fd: Int32, errno: Int32)
  /// `fd` accepted no bytes for too long (`EAGAIN` and no room after waiting).
  case writeStalled(fd: Int32)
}

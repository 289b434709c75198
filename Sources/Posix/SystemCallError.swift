#if canImport(Glibc)
  internal import Glibc
#endif

/// A system call that failed: which call, on what path, and the `errno` it set — kept as values,
/// so that a caller matches the case and the edge words it (`CLIError.system`).
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call, as its manual page names it: `open`, `fstat`, `read`.
  public var call: String
  /// The path it was given, when it took one.
  public var path: String?
  public var errno: Int32

  public init(call: String, path: String? = nil, errno: Int32) {
    self.call = call
    self.path = path
    self.errno = errno
  }

  /// The failure of `call` a moment ago: `errno` as it is now (read it before anything else).
  public static func last(_ call: String, path: String? = nil) -> SystemCallError {
    SystemCallError(call: call, path: path, errno: Glibc.errno)
  }

  /// The system's words for `errno` (`strerror`).
  public var reason: String { String(cString: strerror(errno)) }

  /// "open /etc/wallboard.conf/x: Not a directory".
  public var description: String { "\(call)\(path.map { " " + $0 } ?? ""): \(reason)" }
}

#if canImport(Glibc)
  internal import Glibc
#endif

/// The one way the workspace code reads a file another program writes (`index.json`, a
/// server's `run/<slug>.info`, a markdown tree's files, a workflow file): opened without
/// waiting (`O_NONBLOCK`, so a FIFO with no writer does not hold `open` up), looked at
/// (`fstat`) and refused unless it is a regular file — a FIFO, a device or a socket is named,
/// never read — then read whole, never past `limit` bytes.
public enum RegularFile {
  /// Why a file was not read.
  public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing at the path.
    case missing
    /// Something that is not a regular file: a "FIFO", a "directory", a "symbolic link"…
    case notRegular(String)
    /// Larger than the limit: its size (or the bytes read before the limit was passed).
    case tooLarge(Int64)
    /// A call failed: which, and its `errno`.
    case failed(SystemCallError)

    public var description: String {
      switch self {
      case .missing: "no such file"
      case .notRegular(let kind): "a \(kind), not a regular file: not read"
      case .tooLarge(let n): "\(n) bytes, more than the limit"
      case .failed(let e): "\(e.call): \(e.reason)"
      }
    }
  }

  /// The whole of the regular file at `path`, at most `limit` bytes. With `followLinks: false`
  /// a symbolic link at the path itself is refused (`O_NOFOLLOW`).
  public static func read(_ path: String, limit: Int, followLinks: Bool = true) -> Result<[UInt8], ReadError> {
    precondition(limit >= 0, "a read needs a limit of at least 0 bytes")
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
    guard fd >= 0 else {
      switch errno {
      case ENOENT: return .failure(.missing)
      case ELOOP where !followLinks: return .failure(.notRegular("symbolic link"))
      default: return .failure(.failed(.last("open", path: path)))
      }
    }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return .failure(.failed(.last("fstat", path: path))) }
    guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegular(kind(st.st_mode))) }
    guard st.st_size <= limit else { return .failure(.tooLarge(Int64(st.st_size))) }
    // Read to the end even if it grew since fstat (a write in progress), never past the limit.
    let cap = limit + 1
    var out = [UInt8](repeating: 0, count: min(Int(st.st_size) + 4096, cap))
    var count = 0
    while count < out.count {
      let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(.failed(.last("read", path: path)))
      }
      if n == 0 { break }
      count += n
      if count == out.count && out.count < cap {
        out += [UInt8](repeating: 0, count: min(out.count, cap - out.count))
      }
    }
    guard count <= limit else { return .failure(.tooLarge(Int64(count))) }
    out.removeLast(out.count - count)
    return .success(out)
  }

  /// What a file of `mode` is, named: "FIFO", "directory", "character device"…
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "FIFO"
    case S_IFDIR: "directory"
    case S_IFCHR: "character device"
    case S_IFBLK: "block device"
    case S_IFSOCK: "socket"
    case S_IFLNK: "symbolic link"
    default: "special file"
    }
  }
}

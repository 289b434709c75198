#if canImport(Glibc)
  internal import Glibc
#endif

/// A small file read whole, at most `cap` bytes: a seed, a .creds file or a CA's PEM.
enum CappedFile {
  /// A file larger than this is not a seed, a .creds file or a CA bundle of a hub.
  static let cap = 64 * 1024

  /// The bytes of the regular file at `path`; errors name the file and say `operation`.
  static func read(_ path: String, operation: String) throws(NATSError) -> [UInt8] {
    func failure(_ why: String) -> NATSError { NATSError(.file, operation: operation, detail: "\(path): \(why)") }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw failure(String(cString: strerror(errno))) }
    guard (st.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
    guard st.st_size <= cap else { throw failure("\(st.st_size) bytes, more than the \(cap) read") }
    var bytes = [UInt8](repeating: 0, count: cap + 1)
    var n = 0
    while n < bytes.count {
      let r = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + n, $0.count - n) }
      if r < 0 && errno == EINTR { continue }
      guard r >= 0 else { throw failure(String(cString: strerror(errno))) }
      if r == 0 { break }
      n += r
    }
    guard n <= cap else { throw failure("more than the \(cap) bytes read") }
    return Array(bytes[0..<n])
  }
}

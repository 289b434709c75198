// Posix — the few file-system and process facts the board asks of the system, straight on
// glibc: what Foundation's FileManager and ProcessInfo gave, without linking Foundation.
//
// What lives here: `FileSystem` (a directory's names, whether a path is there and what it is,
// a file's bytes up to a cap, the current directory, a path resolved, a rename) and `Process`'s
// environment and host name. What it may import: Glibc. Nothing of the board: its callers
// (the sources, the themes, the CLI) say what a failure means.
#if canImport(Glibc)
  internal import Glibc
#endif

/// The file system, as the board uses it. Every call is one or two system calls; none blocks
/// on anything but the disk.
public enum FileSystem {
  /// What is at a path.
  public enum Kind: Equatable, Sendable { case file, directory, other }

  /// The names in directory `path` (without "." and ".."), unsorted; nil when it cannot be
  /// listed.
  public static func names(in path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var out: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { out.append(name) }
    }
    return out
  }

  /// What `path` is (symbolic links followed); nil when nothing is there or it cannot be seen.
  public static func kind(of path: String) -> Kind? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// Whether something is at `path`.
  public static func exists(_ path: String) -> Bool { kind(of: path) != nil }

  /// The size of the file at `path` in bytes; nil when there is none.
  public static func size(of path: String) -> Int? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return Int(st.st_size)
  }

  /// Why a read failed.
  public enum ReadError: Error, Equatable, Sendable {
    /// It could not be opened or read: the system's words.
    case unreadable(String)
    /// It holds more than the cap (read no further).
    case tooLarge(limit: Int)
  }

  /// The bytes of the regular file at `path`, at most `limit` (more is an error, never a silent
  /// cut). Anything else (a FIFO, a device) is refused before a byte is read: no read waits.
  public static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadError> {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return .failure(.unreadable(lastError())) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return .failure(.unreadable(lastError())) }
    guard st.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable("not a regular file")) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(.unreadable(lastError()))
      }
      if n == 0 { return .success(out) }
      guard out.count + n <= limit else { return .failure(.tooLarge(limit: limit)) }
      out.append(contentsOf: chunk[0..<n])
    }
  }

  /// The text of the file at `path` (UTF-8, invalid bytes replaced), at most `limit` bytes.
  public static func readText(_ path: String, limit: Int) -> Result<String, ReadError> {
    read(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The process's current directory ("/" when it cannot be known).
  public static var currentDirectory: String {
    guard let p = getcwd(nil, 0) else { return "/" }
    defer { free(p) }
    return String(cString: p)
  }

  /// `path` absolute, with ".", ".." and symbolic links resolved as far as it exists: the
  /// missing tail (a file not made yet) is appended to its resolved parent.
  public static func resolved(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
    if let p = realpath(absolute, nil) {
      defer { free(p) }
      return String(cString: p)
    }
    let parts = absolute.split(separator: "/", omittingEmptySubsequences: true)
    guard let last = parts.last else { return "/" }
    let parent = "/" + parts.dropLast().joined(separator: "/")
    let head = resolved(parent)
    switch last {
    case ".": return head
    case "..": return head == "/" ? "/" : String(head[..<(head.lastIndex(of: "/") ?? head.startIndex)]).nonEmpty
    default: return (head == "/" ? "" : head) + "/" + last
    }
  }

  /// The target of the symbolic link at `path`; nil when it is none.
  public static func linkTarget(_ path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes {
      readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count)
    }
    guard n > 0 && n < buffer.count else { return nil }
    return String(decoding: buffer[0..<n], as: UTF8.self)
  }

  /// Renames `from` to `to`; nil when done, else why not (the system's words).
  public static func rename(_ from: String, to: String) -> String? {
    Glibc.rename(from, to) == 0 ? nil : "cannot rename \(from) to \(to): \(lastError())"
  }

  /// The last system call's error in words.
  static func lastError() -> String { String(cString: strerror(errno)) }
}

extension String {
  fileprivate var nonEmpty: String { isEmpty ? "/" : self }
}

/// This process, as the system sees it.
public enum ProcessFacts {
  /// The environment it was started with.
  public static func environment() -> [String: String] {
    var out: [String: String] = [:]
    var p = environ
    while let entry = p.pointee {
      let s = String(cString: entry)
      if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
      p += 1
    }
    return out
  }

  /// The machine's host name ("localhost" when it has none).
  public static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "localhost" : name
  }
}

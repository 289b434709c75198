// Posix — the few file-system and process facts the board asks of the system, straight on
// glibc: what Foundation's FileManager and ProcessInfo gave, without linking Foundation.
//
// What lives here: `RegularFile` (the one capped read of a file another program may write),
// `SystemCallError`, `FileSystem` (a directory's names, whether a path is there and what it is,
// the current directory, a path resolved, a rename, directories made) and `ProcessFacts` (the
// environment, the host name). What it may import: Glibc. Nothing of the board: its callers
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
    let head = resolved("/" + parts.dropLast().joined(separator: "/"))
    switch last {
    case ".": return head
    case "..": return parent(of: head)
    default: return (head == "/" ? "" : head) + "/" + last
    }
  }

  /// The directory `path` is in, by its text ("/" for "/" and its children).
  public static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
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

  /// Renames `from` to `to`; nil when done, else the failed call.
  public static func rename(_ from: String, to: String) -> SystemCallError? {
    Glibc.rename(from, to) == 0 ? nil : .last("rename", path: from)
  }

  /// Makes directory `path` and its missing parents with `mode`; nil when it is there (made or
  /// found), else the call that failed, naming the directory it failed on.
  public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) -> SystemCallError? {
    guard !path.isEmpty else { return nil }
    if let kind = kind(of: path) {
      return kind == .directory ? nil : SystemCallError(call: "mkdir", path: path, errno: ENOTDIR)
    }
    if let slash = path.lastIndex(of: "/"), slash != path.startIndex,
      let failed = makeDirectories(String(path[..<slash]), mode: mode)
    {
      return failed
    }
    return mkdir(path, mode_t(mode)) == 0 || errno == EEXIST ? nil : .last("mkdir", path: path)
  }
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

public import Raster

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension PNG {
  /// The largest file `read(path:)` reads.
  public static let maxFileBytes = 256 << 20

  /// Writes the canvas as a PNG file at `path`, atomically: the bytes go to a temporary file in
  /// the folder of the file they replace, which is then renamed over it, so a reader sees the
  /// old file or the whole new one, never part of it. (No fsync: this guards readers, not power
  /// cuts.)
  ///
  /// The file replaced is `writeTarget(for: path)`: a symbolic link is written through (the
  /// link stays, the file it leads to gets the PNG), and a path that is not a regular file — a
  /// device node, a FIFO, a socket, a directory — is refused. A replaced file keeps its mode.
  public static func write(_ canvas: Canvas, to path: String) throws(PNGError) {
    try write(png: encode(canvas), to: path)
  }

  /// Writes the bytes of a PNG (`PNGEncoder`'s) as the file at `path`, atomically, as
  /// `write(_:to:)` does.
  public static func write(png bytes: [UInt8], to path: String) throws(PNGError) {
    let target = try writeTarget(for: path)
    let temporary = "\(target).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ioError("cannot create", temporary) }
    var old = stat()
    if stat(target, &old) == 0 && old.st_mode & S_IFMT == S_IFREG { _ = fchmod(fd, old.st_mode & 0o7777) }
    var written = 0
    let failure: PNGError? = bytes.withUnsafeBytes { buf in
      while written < buf.count {
        let n = systemWrite(fd, buf.baseAddress! + written, buf.count - written)
        if n < 0 {
          if errno == EINTR { continue }
          return ioError("cannot write", temporary)
        }
        written += n
      }
      return nil
    }
    if close(fd) != 0 && failure == nil {
      let error = ioError("cannot close", temporary)
      unlink(temporary)
      throw error
    }
    if let failure {
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, target) == 0 else {
      let error = ioError("cannot rename \(temporary) to", target)
      unlink(temporary)
      throw error
    }
  }

  /// The file `write(_:to:)` replaces for `path`: `path` itself when it is a regular file or
  /// does not exist yet; the file a symbolic link leads to (through at most 40 links, relative
  /// ones from the link's folder), which may not exist yet either. Anything else — a device
  /// node such as `/dev/null`, a FIFO, a socket, a directory — is refused (`.notRegularFile`),
  /// so that writing a PNG never replaces it with a file.
  public static func writeTarget(for path: String) throws(PNGError) -> String {
    var current = path
    for _ in 0..<40 {
      var st = stat()
      guard lstat(current, &st) == 0 else {
        if errno == ENOENT { return current }
        throw ioError("cannot look at", current)
      }
      switch st.st_mode & S_IFMT {
      case S_IFREG:
        return current
      case S_IFLNK:
        let link = try readLink(current)
        current = link.hasPrefix("/") ? link : folder(of: current) + "/" + link
      default:
        let through = current == path ? "" : " (where its link leads, \(current))"
        throw PNGError(
          .notRegularFile,
          "\(path)\(through) is \(kindName(st.st_mode)), not a regular file: refusing to replace it with a PNG")
      }
    }
    throw PNGError(.io, "\(path): too many levels of symbolic links")
  }

  /// The text of the symbolic link at `path` (`readlink(2)`).
  private static func readLink(_ path: String) throws(PNGError) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n >= 0 else { throw ioError("cannot read the link", path) }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The folder part of `path` (`.` when it has none).
  private static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// What a file of `mode` is, for messages.
  private static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "of an unknown kind"
    }
  }

  /// Reads and decodes the PNG file at `path` (at most `maxFileBytes`).
  public static func read(path: String) throws(PNGError) -> Canvas {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ioError("cannot open", path) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw ioError("cannot read", path)
      }
      if n == 0 { break }
      guard bytes.count + n <= maxFileBytes else {
        throw PNGError(.tooLarge, "\(path) is larger than \(maxFileBytes) bytes")
      }
      bytes.append(contentsOf: chunk[0..<n])
    }
    do {
      return try decode(bytes)
    } catch {
      throw PNGError(error.kind, "\(path): \(error.message)")
    }
  }

  private static func ioError(_ what: String, _ path: String) -> PNGError {
    PNGError(.io, "\(what) \(path): \(String(cString: strerror(errno)))")
  }
}

/// `write(2)`, named apart from `PNG.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

/// `read(2)`, named apart from `PNG.read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }

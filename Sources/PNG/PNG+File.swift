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
  /// the same folder, which is then renamed over `path`, so a reader sees the old file or the
  /// whole new one, never part of it. (No fsync: this guards readers, not power cuts.)
  public static func write(_ canvas: Canvas, to path: String) throws(PNGError) {
    let bytes = encode(canvas)
    let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ioError("cannot create", temporary) }
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
    guard rename(temporary, path) == 0 else {
      let error = ioError("cannot rename \(temporary) to", path)
      unlink(temporary)
      throw error
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

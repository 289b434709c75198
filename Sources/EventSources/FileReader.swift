public import Clock
internal import SourceKit
public import WallboardCore

#if canImport(Glibc)
  internal import Glibc
#endif

/// Reads a JSON Lines file (or standard input) to its end, streaming: each chunk of at most
/// 64 KiB is decoded and handed on before the next is read, so memory stays that of one chunk
/// and one line (at most `LineDecoder.maxLineBytes`) whatever the file's size.
public enum JSONLinesReader {
  /// A file that could not be read.
  public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String
    public var description: String { "\(path): \(problem)" }
  }

  /// How reading ended.
  public enum Ending: Hashable, Sendable {
    /// The end of the file (or of standard input, or a FIFO whose writers are gone).
    case end
    /// `deadline` came first: an endless input (a device, a FIFO being written) was cut off.
    case deadline
  }

  /// Hands every input of the file to `deliver` — `.connection(.live)` first, then the events
  /// (bad lines as `.rejected` naming the file and line), then `.connection(.ended)` at the end,
  /// or `.connection(.live)` saying it was cut off when `deadline` came first.
  ///
  /// Never blocks past `deadline`: the file is opened without waiting (a FIFO with no writer
  /// does not hold `open` up) and read only when `poll` says there is something.
  @discardableResult
  public static func read(
    path: String, origin: String, receivedAt: Instant, deadline: TimeLimit = .distantFuture,
    deliver: (BoardInput) -> Void
  ) throws(ReadError) -> Ending {
    let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw ReadError(path: path, problem: String(cString: strerror(errno))) }
    defer { if fd != 0 { close(fd) } }
    var st = stat()
    if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
      throw ReadError(path: path, problem: "is a directory")
    }
    var decoder = LineDecoder(origin: origin, label: path == "-" ? "stdin" : path)
    deliver(.connection(origin: origin, status: .live, at: receivedAt, detail: nil))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let left = deadline.secondsLeft
      if left <= 0 {
        deliver(
          .connection(
            origin: origin, status: .live, at: receivedAt, detail: "\(path): still being read when the time ran out"))
        return .deadline
      }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&p, 1, Int32(min(250, max(1, left * 1000))))
      if ready < 0 && errno != EINTR { throw ReadError(path: path, problem: String(cString: strerror(errno))) }
      if ready <= 0 { continue }
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw ReadError(path: path, problem: String(cString: strerror(errno)))
      }
      if n == 0 { break }
      for input in decoder.push(buffer[0..<n], receivedAt: receivedAt) { deliver(input) }
    }
    for input in decoder.finish(receivedAt: receivedAt) { deliver(input) }
    deliver(.connection(origin: origin, status: .ended, at: receivedAt, detail: nil))
    return .end
  }
}

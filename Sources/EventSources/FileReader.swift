internal import Foundation
public import WallboardCore

/// Reads a whole JSON Lines file (or standard input until it closes) into reducer inputs.
public enum JSONLinesReader {
  /// A file that could not be read.
  public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String
    public var description: String { "\(path): \(problem)" }
  }

  /// Every input in the file, then `.connection(.ended)`. Bad lines become `.rejected` inputs
  /// naming the file and line; the rest is kept.
  public static func readAll(path: String, origin: String, receivedAt: Instant) throws(ReadError) -> [BoardInput] {
    let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
    guard fd >= 0 else {
      throw ReadError(path: path, problem: String(cString: strerror(errno)))
    }
    defer { if fd != 0 { close(fd) } }
    var decoder = LineDecoder(origin: origin, label: path == "-" ? "stdin" : path)
    var inputs: [BoardInput] = [.connection(origin: origin, status: .live, at: receivedAt, detail: nil)]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw ReadError(path: path, problem: String(cString: strerror(errno)))
      }
      if n == 0 { break }
      inputs += decoder.push(buffer[0..<n], receivedAt: receivedAt)
    }
    inputs += decoder.finish(receivedAt: receivedAt)
    inputs.append(.connection(origin: origin, status: .ended, at: receivedAt, detail: nil))
    return inputs
  }
}

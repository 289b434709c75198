internal import Foundation
public import WallboardCore

#if canImport(Glibc)
  internal import Glibc
#endif

/// Follows a growing JSON Lines file like `tail -F` — reading what is there, then what is
/// appended; starting again from the top when the file is truncated; switching to the new file
/// when it is rotated (renamed away and created again) — or reads standard input until it
/// closes (`-`).
///
/// While it can read its file the source is live (it says so every few seconds, so a quiet file
/// is not mistaken for a lost connection); when the file is gone it is offline until it returns.
public final class JSONLinesFollower: @unchecked Sendable {
  public let path: String
  public let origin: String
  public var pollInterval = 0.25
  public var aliveInterval = 5.0
  private let lock = NSLock()
  private var stopped = false

  public init(path: String, origin: String) {
    self.path = path
    self.origin = origin
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let t = Thread { [self] in path == "-" ? readStandardInput(deliver) : follow(deliver) }
    t.name = "wallboard \(origin)"
    t.start()
  }

  public func stop() { lock.withLock { stopped = true } }
  var isStopped: Bool { lock.withLock { stopped } }

  static func now() -> Instant { Instant(millis: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }

  private func readStandardInput(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    var decoder = LineDecoder(origin: origin, label: "stdin")
    deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil))
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !isStopped {
      var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      if poll(&p, 1, 250) == 0 { continue }
      let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      for i in decoder.push(buffer[0..<n], receivedAt: Self.now()) { deliver(i) }
    }
    for i in decoder.finish(receivedAt: Self.now()) { deliver(i) }
    deliver(.connection(origin: origin, status: .ended, at: Self.now(), detail: "standard input closed"))
  }

  private func follow(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    var fd: Int32 = -1
    var inode: ino_t = 0
    var offset: off_t = 0
    var decoder = LineDecoder(origin: origin, label: path)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var lastAlive = Date.distantPast
    var missing = false
    defer { if fd >= 0 { close(fd) } }

    while !isStopped {
      if fd < 0 {
        fd = open(path, O_RDONLY)
        if fd < 0 {
          if !missing {
            deliver(
              .connection(
                origin: origin, status: .offline, at: Self.now(), detail: "\(path): \(String(cString: strerror(errno)))"
              ))
            missing = true
          }
          Thread.sleep(forTimeInterval: pollInterval)
          continue
        }
        var st = stat()
        fstat(fd, &st)
        inode = st.st_ino
        offset = 0
        decoder = LineDecoder(origin: origin, label: path)
        missing = false
        deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil))
        lastAlive = Date()
      }
      // Read everything there is.
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        offset += off_t(n)
        for i in decoder.push(buffer[0..<n], receivedAt: Self.now()) { deliver(i) }
        continue
      }
      if n < 0 && errno == EINTR { continue }
      // At the end: truncated, rotated, or just quiet?
      var now = stat()
      guard stat(path, &now) == 0 else {
        // Removed and not yet created again: what was read stays, but the source is not live.
        if !missing {
          deliver(.connection(origin: origin, status: .offline, at: Self.now(), detail: "\(path): removed"))
          missing = true
        }
        Thread.sleep(forTimeInterval: pollInterval)
        continue
      }
      if missing {
        // Back under the same name: a new file (rotation) or the same one.
        missing = false
        if now.st_ino == inode { deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil)) }
      }
      if now.st_ino != inode {
        // Rotated: the old file is fully read; switch to the new one.
        for i in decoder.finish(receivedAt: Self.now()) { deliver(i) }
        close(fd)
        fd = -1
        continue
      }
      if now.st_size < offset {
        // Truncated: start again from the top; a half-read line is dropped.
        lseek(fd, 0, SEEK_SET)
        offset = 0
        decoder = LineDecoder(origin: origin, label: path)
        continue
      }
      if Date().timeIntervalSince(lastAlive) >= aliveInterval {
        deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil))
        lastAlive = Date()
      }
      Thread.sleep(forTimeInterval: pollInterval)
    }
  }
}

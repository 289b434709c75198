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
///
/// Between reads it sleeps in a `FileWatcher` on the path (inotify, or polling every
/// `pollInterval` where inotify is not available), and looks again every `checkInterval` even
/// when the watcher says nothing changed (a safety net: a file on a network file system).
public final class JSONLinesFollower: @unchecked Sendable {
  public let path: String
  public let origin: String
  /// How often the path is looked at where inotify is not available (and a FIFO or device read).
  public var pollInterval = 0.25
  /// How often the path is looked at with inotify, whatever it says.
  public var checkInterval = 2.0
  public var aliveInterval = 5.0
  /// How the path is watched (`.automatic`: inotify when the kernel gives it).
  public var watchMode = FileWatcher.Mode.automatic
  private let lock = NSLock()
  private var stopped = false
  private var watcher: FileWatcher?

  public init(path: String, origin: String) {
    self.path = path
    self.origin = origin
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let t = Thread { [self] in path == "-" ? readStandardInput(deliver) : follow(deliver) }
    t.name = "wallboard \(origin)"
    t.start()
  }

  public func stop() {
    let w = lock.withLock {
      stopped = true
      return watcher
    }
    w?.wake()
  }
  var isStopped: Bool { lock.withLock { stopped } }

  static func now() -> Instant { SystemClock.now() }

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

  /// What the follower knows of the file it has open, to tell an append from a rewrite.
  struct Seen {
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var offset: Int64 = 0
    var mtime = timespec()
    /// The first bytes read (up to `sample`), and the last ones before `offset`.
    var head: [UInt8] = []
    var tail: [UInt8] = []
    static let sample = 4096

    mutating func took(_ bytes: ArraySlice<UInt8>) {
      if head.count < Seen.sample { head += bytes.prefix(Seen.sample - head.count) }
      tail += bytes.suffix(Seen.sample)
      if tail.count > Seen.sample { tail.removeFirst(tail.count - Seen.sample) }
      offset += Int64(bytes.count)
    }
  }

  /// What `stat` says of the path, as the follower needs it.
  enum PathState {
    case missing(String)
    /// There, but not something to read lines from (a directory, a socket).
    case unreadable(String)
    case file(stat)
  }

  func pathState() -> PathState {
    var st = stat()
    guard stat(path, &st) == 0 else { return .missing(String(cString: strerror(errno))) }
    switch st.st_mode & S_IFMT {
    case S_IFREG, S_IFIFO, S_IFCHR: return .file(st)
    case S_IFDIR: return .unreadable("is a directory")
    default: return .unreadable("is not a file")
    }
  }

  /// Whether the file under `fd` still holds what was read from it: its first and last sampled
  /// bytes are where they were. A file written anew (in place, within one poll, to the same or
  /// a larger size) fails this, even when its size alone looks like an append.
  static func stillHolds(_ seen: Seen, fd: Int32) -> Bool {
    func bytes(at offset: Int64, count: Int) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: count)
      let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
      return n == count ? out : []
    }
    return bytes(at: 0, count: seen.head.count) == seen.head
      && bytes(at: seen.offset - Int64(seen.tail.count), count: seen.tail.count) == seen.tail
  }

  private func follow(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    let watcher = FileWatcher(mode: watchMode, pollInterval: pollInterval, debounce: 0.02)
    watcher.watch(path)
    lock.withLock { self.watcher = watcher }
    defer { lock.withLock { self.watcher = nil } }
    var fd: Int32 = -1
    var seen = Seen()
    var decoder = LineDecoder(origin: origin, label: path)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var lastAlive = Date.distantPast
    /// Why the source is offline, while it is (said once, not every poll).
    var down: String?
    defer { if fd >= 0 { close(fd) } }

    func goDown(_ why: String) {
      if fd >= 0 {
        for i in decoder.finish(receivedAt: Self.now()) { deliver(i) }
        close(fd)
        fd = -1
      }
      if down != why {
        deliver(.connection(origin: origin, status: .offline, at: Self.now(), detail: "\(path): \(why)"))
        down = why
      }
    }
    /// Sleeps until the watcher sees a change, `checkInterval` passes (with inotify) or the
    /// next alive message is due; `short`: at most `pollInterval` (a FIFO or device, which
    /// inotify may not report).
    func pause(short: Bool = false) {
      let alive =
        fd >= 0 && down == nil ? max(0.01, aliveInterval - Date().timeIntervalSince(lastAlive)) : .infinity
      let check = short || !watcher.usesInotify ? pollInterval : checkInterval
      _ = watcher.wait(timeout: min(check, alive))
    }
    /// Reads the file again from its first byte, as a new stream (its numbering starts afresh).
    func again(_ why: String) {
      lseek(fd, 0, SEEK_SET)
      seen = Seen(device: seen.device, inode: seen.inode)
      decoder = LineDecoder(origin: origin, label: path)
      deliver(.connection(origin: origin, status: .connecting, at: Self.now(), detail: "\(path): \(why)"))
      deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil))
    }

    while !isStopped {
      if fd < 0 {
        guard case .file = pathState() else {
          switch pathState() {
          case .missing(let why), .unreadable(let why): goDown(why)
          case .file: break
          }
          pause()
          continue
        }
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
          goDown(String(cString: strerror(errno)))
          pause()
          continue
        }
        var st = stat()
        fstat(fd, &st)
        seen = Seen(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), mtime: st.st_mtim)
        decoder = LineDecoder(origin: origin, label: path)
        down = nil
        deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil))
        lastAlive = Date()
      }
      // Read everything there is.
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        seen.took(buffer[0..<n])
        for i in decoder.push(buffer[0..<n], receivedAt: Self.now()) { deliver(i) }
        continue
      }
      if n < 0 && (errno == EINTR || errno == EAGAIN) {
        if errno == EAGAIN { pause(short: true) }
        continue
      }
      if n < 0 {
        goDown(String(cString: strerror(errno)))
        continue
      }
      // At the end: removed, replaced, rotated, truncated, rewritten, or just quiet?
      switch pathState() {
      case .missing:
        // Removed and not yet created again: what was read stays, but the source is not live.
        goDown("removed")
      case .unreadable(let why):
        goDown(why)
      case .file(let now):
        if UInt64(now.st_ino) != seen.inode || UInt64(now.st_dev) != seen.device {
          // Rotated (or replaced): the old file is fully read; switch to the new one.
          for i in decoder.finish(receivedAt: Self.now()) { deliver(i) }
          close(fd)
          fd = -1
          continue
        }
        if now.st_size < seen.offset {
          again("truncated; reading it again from the top")
          continue
        }
        if now.st_mtim.tv_sec != seen.mtime.tv_sec || now.st_mtim.tv_nsec != seen.mtime.tv_nsec {
          seen.mtime = now.st_mtim
          if !Self.stillHolds(seen, fd: fd) {
            again("rewritten; reading it again from the top")
            continue
          }
          // An append: the next read takes it.
          if now.st_size > seen.offset { continue }
        }
      }
      if Date().timeIntervalSince(lastAlive) >= aliveInterval, down == nil {
        deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: nil))
        lastAlive = Date()
      }
      pause()
    }
  }
}

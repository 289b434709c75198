public import Clock
public import SourceKit
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
///
/// It says where it has read the file to (`BoardInput.fileRead`: when it opens it, then every
/// `markEvery` lines or `markInterval` seconds while lines come), so that a board restored from
/// its journal hands it back as `start`: the follower then resumes there when the file at the
/// path is still the one it read (same device and inode, at least as long, the same bytes
/// around where it stopped), else reads it from the top and says why.
public final class JSONLinesFollower: MachineShell, @unchecked Sendable {
  public typealias Machine = PollMachine
  public let path: String
  public let origin: String
  /// How often the path is looked at where inotify is not available (and a FIFO or device read).
  public var pollInterval = 0.25
  /// How often the path is looked at with inotify, whatever it says.
  public var checkInterval = 2.0
  public var aliveInterval = 5.0
  /// How the path is watched (`.automatic`: inotify when the kernel gives it).
  public var watchMode = FileWatcher.Mode.automatic
  /// Where the first read begins (see `Start`).
  public var start = Start.top
  /// Lines read between two positions said at most, and seconds while lines come.
  public var markEvery = 1000
  public var markInterval = 1.0
  private let clock: Clock
  /// Guards what another thread touches: the driver, `deliver`, the watcher, `stopping`.
  private let lock = Lock()
  private var driver: MachineDriver<PollMachine>?
  private var deliver: (@Sendable (BoardInput) -> Void)?
  private var watcher: FileWatcher?
  /// Set by a stop: a long read of a large file ends at the next chunk.
  private var stopping = false

  // What the follower holds between looks; on the driver's thread only.
  private var fd: Int32 = -1
  private var seen = Seen()
  private var decoder: LineDecoder
  private var buffer = [UInt8](repeating: 0, count: 65_536)
  private var lastAlive = -Double.infinity
  /// Why the source is offline, while it is (said once, not every poll).
  private var down: String?
  /// Where the first open begins; the others begin at the top.
  private var first: Start
  /// How this file's reading began (resumed, or from the top and why), said while it is live.
  private var note: String?
  /// Lines delivered since the last position said, and when that was.
  private var linesSinceMark = 0
  private var lastMark = -Double.infinity
  /// Standard input closed (and said so).
  private var ended = false

  public init(path: String, origin: String, start: Start = .top, clock: Clock) {
    self.clock = clock
    self.path = path
    self.origin = origin
    self.start = start
    self.first = start
    self.decoder = LineDecoder(origin: origin, label: path == "-" ? "stdin" : path)
  }

  /// Where the follower begins reading its file.
  public enum Start: Hashable, Sendable {
    /// From the top: no board was restored, or it held nothing of this source.
    case top
    /// The restored board holds this source's lines but no position (a journal an older build
    /// wrote): from the top, as before.
    case noPosition
    /// Where the restored board's position says, passing over the `passOver` lines it holds past
    /// it, if the file is still the one read.
    case resume(FilePosition, passOver: Int)
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    first = start
    let driver = MachineDriver(PollMachine(), clock: clock, name: "wallboard \(origin)")
    let watcher =
      path == "-" ? nil : FileWatcher(mode: watchMode, pollInterval: pollInterval, debounce: 0.02, clock: clock)
    watcher?.watch(path)
    lock.withLock {
      self.deliver = deliver
      self.driver = driver
      self.watcher = watcher
    }
    if path == "-" { say(.connection(origin: origin, status: .live, at: clock.now(), detail: nil)) }
    driver.start(self)
  }

  public func stop() { lock.withLock { driver }?.stop() }

  private var isStopping: Bool { lock.withLock { stopping } }

  private func say(_ input: BoardInput) { lock.withLock { deliver }?(input) }

  /// Seconds on the monotonic clock: what the alive and position intervals are timed by.
  func seconds() -> Double { clock.monotonic().seconds }

  // MARK: The shell

  /// One look: everything there is read; at the end, whether the file was removed, replaced,
  /// rotated, truncated or rewritten. Answers when to look again (a watcher's change comes
  /// sooner).
  public func perform(_ action: PollMachine.Action) -> [PollMachine.Input] {
    [.looked(path == "-" ? readStandardInput() : follow())]
  }

  /// Waits for the file to change (standard input: to be readable), at most until `deadline`.
  public func await(until deadline: Monotonic) -> [PollMachine.Input]? {
    let timeout = max(0, deadline.seconds(since: clock.monotonic()))
    guard let watcher = lock.withLock({ watcher }) else {
      var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      let ms = Int32(min(250, (timeout * 1000).rounded(.up)))
      return poll(&p, 1, ms) > 0 ? [.changed] : []
    }
    return watcher.wait(timeout: timeout).isEmpty ? [] : [.changed]
  }

  public func interrupt(stopping: Bool) {
    let w = lock.withLock {
      if stopping { self.stopping = true }
      return watcher
    }
    w?.wake()
  }

  public func finish() {
    if path == "-" {
      if !ended { endStandardInput() }
      return
    }
    // Stopped: where the lines read end is said, so that the next start need pass over none.
    if fd >= 0, linesSinceMark > 0 { mark() }
    if fd >= 0 { close(fd) }
    fd = -1
    lock.withLock { watcher = nil }
  }

  /// Reads what standard input has now; at its end, says so and ends.
  private func readStandardInput() -> PollMachine.Look {
    while !isStopping {
      var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      if poll(&p, 1, 0) == 0 { return .read(next: pollInterval) }
      let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      for i in decoder.push(buffer[0..<n], receivedAt: clock.now()) { say(i) }
    }
    guard !isStopping else { return .read(next: 0) }
    endStandardInput()
    return .ended
  }

  private func endStandardInput() {
    ended = true
    for i in decoder.finish(receivedAt: clock.now()) { say(i) }
    say(.connection(origin: origin, status: .ended, at: clock.now(), detail: "standard input closed"))
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

  /// The position `offset` bytes (`line` lines) into the file under `fd`: nil when the file holds
  /// fewer bytes.
  static func position(fd: Int32, device: UInt64, inode: UInt64, offset: Int64, line: Int) -> FilePosition? {
    let count = Int(min(offset, Int64(FilePosition.sample)))
    func bytes(at: Int64) -> [UInt8]? {
      var out = [UInt8](repeating: 0, count: count)
      let n = count == 0 ? 0 : out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(at)) }
      return n == count ? out : nil
    }
    guard let head = bytes(at: 0), let tail = bytes(at: offset - Int64(count)) else { return nil }
    return FilePosition(
      device: device, inode: inode, offset: offset, line: line, head: FilePosition.hash(head),
      tail: FilePosition.hash(tail))
  }

  /// Whether the file under `fd` (whose `fstat` is `st`) is still the one `p` was said of; nil
  /// when it is, else why not.
  static func mismatch(_ p: FilePosition, fd: Int32, st: stat) -> String? {
    if UInt64(st.st_dev) != p.device || UInt64(st.st_ino) != p.inode {
      return "another file is at the path than the one the journal read"
    }
    if Int64(st.st_size) < p.offset {
      return "it is shorter (\(st.st_size) bytes) than where the journal left it (byte \(p.offset)): truncated"
    }
    let now = position(fd: fd, device: p.device, inode: p.inode, offset: p.offset, line: p.line)
    if now?.head != p.head || now?.tail != p.tail {
      return "its bytes before where the journal left it (byte \(p.offset)) changed: rewritten"
    }
    return nil
  }

  /// `count` bytes at `offset` of the file under `fd` (fewer where it ends).
  static func sample(fd: Int32, at offset: Int64, count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    let n = count == 0 ? 0 : out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
    return Array(out.prefix(max(0, n)))
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

  private func goDown(_ why: String) {
    if fd >= 0 {
      for i in decoder.finish(receivedAt: clock.now()) { say(i) }
      close(fd)
      fd = -1
    }
    if down != why {
      say(.connection(origin: origin, status: .offline, at: clock.now(), detail: "\(path): \(why)"))
      down = why
    }
  }

  /// How long until the next look: until the watcher sees a change, `checkInterval` passes
  /// (with inotify) or the next alive message is due; `short`: at most `pollInterval` (a FIFO or
  /// device, which inotify may not report).
  private func pause(short: Bool = false) -> PollMachine.Look {
    let alive = fd >= 0 && down == nil ? max(0.01, aliveInterval - (seconds() - lastAlive)) : .infinity
    let usesInotify = lock.withLock { watcher?.usesInotify ?? false }
    let check = short || !usesInotify ? pollInterval : checkInterval
    // Lines read since the last position: it is said once `markInterval` has passed.
    let due = linesSinceMark > 0 ? max(0.01, markInterval - (seconds() - lastMark)) : .infinity
    return .read(next: min(check, alive, due))
  }

  /// Says where the file is read to: the end of the last complete line, once the lines a
  /// resumed board already holds are passed over.
  private func mark() {
    guard decoder.passingOver == 0, let partial = decoder.bytesPastLastLine,
      let p = Self.position(
        fd: fd, device: seen.device, inode: seen.inode, offset: seen.offset - Int64(partial),
        line: decoder.linesCompleted)
    else { return }
    say(.fileRead(origin: origin, at: clock.now(), through: p))
    linesSinceMark = 0
    lastMark = seconds()
  }

  /// Reads the file again from its first byte, as a new stream (its numbering starts afresh).
  private func again(_ why: String) {
    lseek(fd, 0, SEEK_SET)
    seen = Seen(device: seen.device, inode: seen.inode)
    decoder = LineDecoder(origin: origin, label: path)
    note = nil
    say(.connection(origin: origin, status: .connecting, at: clock.now(), detail: "\(path): \(why)"))
    say(.connection(origin: origin, status: .live, at: clock.now(), detail: nil))
    mark()
  }

  /// Reads until there is nothing more now; answers when to look again.
  private func follow() -> PollMachine.Look {
    let deliver: @Sendable (BoardInput) -> Void = { [weak self] in self?.say($0) }
    while !isStopping {
      if fd < 0 {
        guard case .file = pathState() else {
          switch pathState() {
          case .missing(let why), .unreadable(let why): goDown(why)
          case .file: break
          }
          return pause()
        }
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
          goDown(String(cString: strerror(errno)))
          return pause()
        }
        var st = stat()
        fstat(fd, &st)
        seen = Seen(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), mtime: st.st_mtim)
        decoder = LineDecoder(origin: origin, label: path)
        note = nil
        var resumed = false
        switch first {
        case .top: break
        case .noPosition: note = "read from the top: the journal holds no position for it"
        case .resume(let p, let passOver):
          if (st.st_mode & S_IFMT) != S_IFREG {
            note = "read from the top: it is not a regular file"
          } else if let why = Self.mismatch(p, fd: fd, st: st) {
            note = "read from the top: " + why
          } else if lseek(fd, off_t(p.offset), SEEK_SET) == off_t(p.offset) {
            // The bytes before the offset are known and unchanged: the samples start there.
            seen = Seen(device: p.device, inode: p.inode, offset: p.offset, mtime: st.st_mtim)
            seen.head = Self.sample(fd: fd, at: 0, count: Int(min(p.offset, Int64(Seen.sample))))
            seen.tail = Self.sample(
              fd: fd, at: p.offset - Int64(min(p.offset, Int64(Seen.sample))),
              count: Int(min(p.offset, Int64(Seen.sample))))
            decoder = LineDecoder(origin: origin, label: path, linesBefore: p.line, passOver: passOver)
            note =
              "resumed where the journal left it: line \(p.line + 1) (byte \(p.offset))"
              + (passOver > 0 ? ", past \(passOver) more lines it holds" : "")
            resumed = true
          } else {
            lseek(fd, 0, SEEK_SET)
            note = "read from the top: cannot seek to byte \(p.offset)"
          }
        }
        first = .top
        down = nil
        deliver(.connection(origin: origin, status: .live, at: clock.now(), detail: note.map { "\(path): \($0)" }))
        lastAlive = seconds()
        linesSinceMark = 0
        // A file read from its top is a new stream of lines (what the board held past its last
        // position no longer counts); one resumed goes on counting until its next position.
        if !resumed { mark() }
      }
      // Read everything there is.
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        seen.took(buffer[0..<n])
        let inputs = decoder.push(buffer[0..<n], receivedAt: clock.now())
        for i in inputs { deliver(i) }
        linesSinceMark += inputs.count
        if linesSinceMark >= markEvery { mark() }
        continue
      }
      if n < 0 && (errno == EINTR || errno == EAGAIN) {
        if errno == EAGAIN { return pause(short: true) }
        continue
      }
      if n < 0 {
        goDown(String(cString: strerror(errno)))
        continue
      }
      // The end before the lines a resumed board holds past its position: not the file it read.
      if decoder.passingOver > 0 {
        again("it ends before the lines the journal holds past where it left it; reading it again from the top")
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
          for i in decoder.finish(receivedAt: clock.now()) { deliver(i) }
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
      // Quiet at the end: where the lines read so far end is said (at most every `markInterval`).
      if fd >= 0, linesSinceMark > 0, seconds() - lastMark >= markInterval { mark() }
      if seconds() - lastAlive >= aliveInterval, down == nil {
        deliver(
          .connection(origin: origin, status: .live, at: clock.now(), detail: note.map { "\(path): \($0)" }))
        lastAlive = seconds()
      }
      return pause()
    }
    return .read(next: 0)
  }
}

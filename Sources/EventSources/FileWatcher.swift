public import Clock
internal import Posix
internal import SourceKit

#if canImport(Glibc)
  internal import Glibc
#endif

/// One file watcher for every follower — the JSON Lines follower, the config reloader, the
/// markdown source: inotify where the kernel gives it, polling `stat` where it does not.
///
/// A thread waits in `wait(timeout:)`, which sleeps in `poll(2)` (on the inotify descriptor and
/// a pipe `wake()` writes) until something under a watched path changed; then it waits out
/// `debounce` of quiet and returns the paths that changed. Paths are added and removed from any
/// thread. One thread waits at a time.
///
/// Caps: paths of at most `WatchPath.maxBytes` bytes, at most `maxPaths` of them (a refused path
/// is kept in `refused`, with why), events read 64 KiB at a time and at most 1 MiB a turn (a
/// storm is read over several turns; lost events, an overflow, report every path),
/// `PolledLook.maxEntries` entries looked at per polled folder.
public final class FileWatcher: @unchecked Sendable {
  public enum Mode: Sendable, Hashable { case automatic, inotify, polling }

  /// Why a path is not watched.
  public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyPath
    case pathTooLong(bytes: Int, limit: Int)
    case nulInPath(String)
    case tooManyPaths(limit: Int)

    public var description: String {
      switch self {
      case .emptyPath: "an empty path"
      case .pathTooLong(let bytes, let limit): "a path of \(bytes) bytes (at most \(limit))"
      case .nulInPath(let path): "a path with a NUL byte (\(path))"
      case .tooManyPaths(let limit): "more than \(limit) watched paths"
      }
    }
  }

  /// The most paths one watcher watches.
  public static let maxPaths = 4096
  /// The bytes of events read from inotify at a time.
  static let eventBuffer = 65_536
  /// A steady stream of changes holds `wait` up for at most this many `debounce`s.
  static let debounceCap = 4.0

  let syscalls: InotifySyscalls
  let pollInterval: Double
  let debounce: Double
  /// The inotify descriptor; -1 when polling.
  let inotifyFD: Int32
  /// The pipe `wake()` writes a byte to and `wait` polls; -1s when none could be made (then
  /// waits sleep in slices of 0.1 s).
  private let wakeFD: Int32
  private let wakeWriteFD: Int32

  let lock = Lock()
  /// The watched paths by the spelling they are reported in.
  var registrations: [String: Registration] = [:]
  /// Who uses each inotify watch (as its own watch or as an anchor).
  var users: [Int32: Set<String>] = [:]
  /// Changes seen and not yet returned.
  var pending: Set<String> = []
  /// Counts the turns that found changes, so a wait can tell a new one from old news.
  var changeTurns = 0
  private var woken = false
  private var nextScan = 0.0
  private var buffer = [UInt8](repeating: 0, count: FileWatcher.eventBuffer)
  private var _refused: [String: Refusal] = [:]

  /// automatic = inotify when the kernel gives it (inotify_init1 works, watches can be added),
  /// else polling; `debounce` s of quiet after the first change before `wait` returns.
  private let clock: Clock

  public convenience init(mode: Mode = .automatic, pollInterval: Double = 1.0, debounce: Double = 0.2, clock: Clock) {
    self.init(mode: mode, pollInterval: pollInterval, debounce: debounce, syscalls: .live, clock: clock)
  }

  /// As `init(mode:pollInterval:debounce:)`, with the kernel's inotify calls replaced (tests).
  /// `.inotify` where inotify cannot be had polls, as `.automatic` does.
  public init(mode: Mode, pollInterval: Double, debounce: Double, syscalls: InotifySyscalls, clock: Clock) {
    self.clock = clock
    precondition(pollInterval.isFinite && pollInterval > 0, "a FileWatcher's poll interval is a positive number")
    precondition(debounce.isFinite && debounce >= 0, "a FileWatcher's debounce is zero or more seconds")
    self.syscalls = syscalls
    self.pollInterval = min(pollInterval, 3600)
    self.debounce = min(debounce, 60)
    if mode == .polling {
      inotifyFD = -1
    } else {
      inotifyFD = (try? syscalls.initialize()) ?? -1
    }
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for fd in ends {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
      }
    } else {
      ends = [-1, -1]
    }
    wakeFD = ends[0]
    wakeWriteFD = ends[1]
  }

  deinit {
    if inotifyFD >= 0 { syscalls.close(inotifyFD) }
    if wakeFD >= 0 { close(wakeFD) }
    if wakeWriteFD >= 0 { close(wakeWriteFD) }
  }

  /// Whether inotify is in use (false: polling) — sources put it in their detail text.
  public var usesInotify: Bool { inotifyFD >= 0 }

  /// The watched paths that are polled although inotify is in use (a watch could not be added:
  /// the watch limit, `ENOSPC`, or no permission).
  public var polledPaths: Set<String> {
    lock.withLock { usesInotify ? Set(registrations.filter { $0.value.polled != nil }.keys) : [] }
  }

  /// Paths `watch` refused, with why.
  public var refused: [String: Refusal] { lock.withLock { _refused } }

  /// Watches a file or a folder (a folder: its direct entries being created, written,
  /// closed after writing, deleted, moved in/out). The path need not exist yet: the nearest
  /// existing parent is watched and the path is picked up when it appears. Idempotent.
  public func watch(_ path: String) {
    do throws(Refusal) {
      try add(path)
    } catch {
      lock.withLock { if _refused.count < Self.maxPaths { _refused[path] = error } }
    }
  }

  /// As `watch`, saying why a path is refused.
  public func add(_ path: String) throws(Refusal) {
    let p = try WatchPath(path, cwd: FileSystem.currentDirectory)
    lock.lock()
    defer { lock.unlock() }
    guard registrations[p.key] == nil else { return }
    guard registrations.count < Self.maxPaths else { throw .tooManyPaths(limit: Self.maxPaths) }
    registrations[p.key] = Registration(path: p)
    if usesInotify {
      resolve(p.key, report: false)
    } else {
      registrations[p.key]?.polled = PolledLook.take(p.absolute)
    }
  }

  public func unwatch(_ path: String) {
    guard let p = try? WatchPath(path, cwd: FileSystem.currentDirectory) else { return }
    lock.withLock {
      guard let r = registrations.removeValue(forKey: p.key) else { return }
      release(p.key, from: [r.own, r.anchor])
      pending = pending.filter(isReported)
    }
  }

  /// Whether `path` is still reported by some registration (itself, or an entry of one).
  private func isReported(_ path: String) -> Bool {
    if registrations[path] != nil { return true }
    let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return registrations[parent.isEmpty ? "/" : parent] != nil
  }

  /// Blocks until something changed under a watched path (then waits out `debounce`), or
  /// `timeout` s passed, or `wake()` was called. Returns the watched paths that changed (for a
  /// folder, the folder's path and the changed entries' full paths); empty on timeout/wake.
  public func wait(timeout: Double) -> Set<String> {
    let start = monotonic()
    let deadline = start + (timeout.isFinite ? max(0, min(timeout, 1e9)) : 1e9)
    // `first` and `last`: when this wait first and last saw a change (changes left by a wait
    // that was woken count as seen at its start).
    var seen = lock.withLock { pending.isEmpty ? changeTurns : changeTurns &- 1 }
    var first: Double?
    var last = start
    let step = min(pollInterval, max(debounce, 0.01))
    while true {
      let now = monotonic()
      let (turns, scanAt): (Int, Double?) = lock.withLock {
        guard registrations.values.contains(where: { $0.polled != nil }) else { return (changeTurns, nil) }
        if now >= nextScan {
          let before = changeTurns
          scan()
          // While changes come in, look again every `step` to tell when they stop.
          nextScan = now + (first == nil && changeTurns == before ? pollInterval : step)
        }
        return (changeTurns, nextScan)
      }
      if turns != seen {
        seen = turns
        last = now
        if first == nil { first = now }
      }
      var until: Double
      if let first {
        until = min(last + debounce, first + debounce * Self.debounceCap)
        if now >= until { return takePending() }
      } else {
        if now >= deadline { return [] }
        until = deadline
      }
      if let scanAt { until = min(until, scanAt) }
      if wakeFD < 0 { until = min(until, now + 0.1) }
      let ms = Int32(min(3_600_000, max(1, ((until - now) * 1000).rounded(.up))))
      let ready = syscalls.poll(inotifyFD, wakeFD, ms)
      if ready.woken {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeFD, &drain, 64) == 64 {}
      }
      if (ready.woken || wakeFD < 0) && takeWoken() { return [] }
      if ready.events { lock.withLock { readEvents() } }
    }
  }

  /// The changes seen, emptied. Under no lock.
  private func takePending() -> Set<String> {
    lock.withLock {
      defer { pending = [] }
      return pending
    }
  }

  /// Whether `wake()` was called since the last look, cleared. Under no lock.
  private func takeWoken() -> Bool {
    lock.withLock {
      defer { woken = false }
      return woken
    }
  }

  /// From any thread: makes a current or the next `wait` return at once (used by `stop()`).
  public func wake() {
    lock.withLock { woken = true }
    if wakeWriteFD >= 0 {
      var one: UInt8 = 1
      _ = write(wakeWriteFD, &one, 1)
    }
  }

  /// Looks at every polled path again; what changed goes to `pending`. Under the lock.
  private func scan() {
    var found: Set<String> = []
    for (key, r) in registrations {
      guard let old = r.polled else { continue }
      let now = PolledLook.take(r.path.absolute)
      found.formUnion(now.changes(since: old, of: r.path))
      registrations[key]?.polled = now
    }
    note(found)
  }

  /// Adds changes to `pending`. Under the lock.
  func note(_ changes: Set<String>) {
    guard !changes.isEmpty else { return }
    pending.formUnion(changes)
    changeTurns &+= 1
  }

  /// Reads what inotify has queued (at most `eventBuffer` bytes at a time, 16 times) and
  /// handles it. Under the lock.
  private func readEvents() {
    for _ in 0..<16 {
      let n: Int
      do {
        n = try buffer.withUnsafeMutableBytes { (b) throws(WatchSyscallFailure) -> Int in
          try syscalls.read(inotifyFD, b)
        }
      } catch {
        overflowed()
        return
      }
      guard n > 0 else { return }
      let (events, malformed) = buffer.withUnsafeBytes {
        InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: $0[0..<n]))
      }
      for e in events { handle(e) }
      if malformed { overflowed() }
    }
  }

  /// Seconds on the monotonic clock (what waits are timed by; never the wall clock).
  func monotonic() -> Double { clock.monotonic().seconds }
}

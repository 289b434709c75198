/// A failed syscall of the file watcher: the `errno` it left.
public struct WatchSyscallFailure: Error, Hashable, Sendable {
  /// The `errno` value, e.g. `ENOSPC`.
  public var errno: Int32

  public init(errno: Int32) { self.errno = errno }
}

/// The seam between `FileWatcher` and the kernel's inotify: every inotify call, and the
/// `poll(2)` the watcher sleeps in, goes through one of these closures.
///
/// `live` calls the kernel (Glibc's `inotify_init1`, `inotify_add_watch`, `inotify_rm_watch`,
/// `read`, `poll`, `close`); tests build a fake instead (failures injected, events queued as the
/// kernel lays them out, a log of the watches added).
public struct InotifySyscalls: Sendable {
  /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`: the inotify file descriptor.
  public var initialize: @Sendable () throws(WatchSyscallFailure) -> Int32
  /// `inotify_add_watch(fd, path, mask)`: the watch descriptor.
  public var addWatch: @Sendable (_ fd: Int32, _ path: String, _ mask: UInt32) throws(WatchSyscallFailure) -> Int32
  /// `inotify_rm_watch(fd, wd)`.
  public var removeWatch: @Sendable (_ fd: Int32, _ wd: Int32) -> Void
  /// `read(fd, buffer)` on the (non-blocking) inotify descriptor: the bytes read, 0 when
  /// nothing is queued (`EAGAIN`). The bytes are `struct inotify_event`s, as the kernel writes them.
  public var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(WatchSyscallFailure) -> Int
  /// `poll(2)` for `POLLIN` on the inotify descriptor (skipped when negative) and on the wake
  /// descriptor (skipped when negative) for at most `timeoutMs`: which of the two are readable.
  /// Interrupted (`EINTR`) or failed, neither.
  public var poll: @Sendable (_ fd: Int32, _ wake: Int32, _ timeoutMs: Int32) -> (events: Bool, woken: Bool)
  /// `close(fd)` of the inotify descriptor.
  public var close: @Sendable (_ fd: Int32) -> Void

  public init(
    initialize: @escaping @Sendable () throws(WatchSyscallFailure) -> Int32,
    addWatch: @escaping @Sendable (Int32, String, UInt32) throws(WatchSyscallFailure) -> Int32,
    removeWatch: @escaping @Sendable (Int32, Int32) -> Void,
    read: @escaping @Sendable (Int32, UnsafeMutableRawBufferPointer) throws(WatchSyscallFailure) -> Int,
    poll: @escaping @Sendable (Int32, Int32, Int32) -> (events: Bool, woken: Bool),
    close: @escaping @Sendable (Int32) -> Void
  ) {
    self.initialize = initialize
    self.addWatch = addWatch
    self.removeWatch = removeWatch
    self.read = read
    self.poll = poll
    self.close = close
  }
}

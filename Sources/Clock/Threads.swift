#if canImport(Glibc)
  internal import Glibc
#endif

// The process's locks, conditions and threads, straight on pthreads: what Foundation's `Lock`,
// `Condition` and `Thread` gave, without linking Foundation (and its ICU data) into the board.

/// A mutual-exclusion lock.
public final class Lock: @unchecked Sendable {
  fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  public init() { pthread_mutex_init(mutex, nil) }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }
  public func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` holding the lock.
  public func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A lock and a condition to wait on under it. Timed waits are on `CLOCK_MONOTONIC`, so setting
/// the wall clock (NTP on a board that booted without it) neither ends nor stretches them.
public final class Condition: @unchecked Sendable {
  private let mutex = Lock()
  private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  public init() {
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(cond, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(cond)
    cond.deallocate()
  }

  public func lock() { mutex.lock() }
  public func unlock() { mutex.unlock() }

  /// Runs `body` holding the lock.
  public func withLock<T>(_ body: () throws -> T) rethrows -> T { try mutex.withLock(body) }

  /// Wakes one waiter; called holding the lock.
  public func signal() { pthread_cond_signal(cond) }

  /// Wakes every waiter; called holding the lock.
  public func broadcast() { pthread_cond_broadcast(cond) }

  /// Waits, holding the lock, until signalled (or spuriously woken: callers look again).
  public func wait() { pthread_cond_wait(cond, mutex.mutex) }

  /// Waits, holding the lock, until signalled (true; perhaps spuriously) or until the monotonic
  /// clock reads `nanoseconds` (false).
  public func wait(untilMonotonicNanoseconds nanoseconds: Int64) -> Bool {
    var deadline = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    return pthread_cond_timedwait(cond, mutex.mutex, &deadline) != ETIMEDOUT
  }
}

/// The process's own threads.
public enum Threads {
  /// Starts a thread named `name` (as `top -H` shows it: the first 15 bytes) running `body`.
  /// A process that cannot start a thread cannot run: that is a fatal error.
  public static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
    final class Start {
      let name: String
      let body: @Sendable () -> Void
      init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
      }
    }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { raw in
        let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
        // pthread_setname_np is not in the Glibc module; the kernel's own file is the same call.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
          _ = Array(start.name.utf8.prefix(15)).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
          close(fd)
        }
        start.body()
        return nil
      }, start)
    guard status == 0 else { fatalError("cannot start thread \(name): \(String(cString: strerror(status)))") }
    pthread_detach(thread)
  }
}

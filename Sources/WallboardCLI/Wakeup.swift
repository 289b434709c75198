internal import Glibc
internal import Synchronization

/// What wakes the run loop from its sleep: a pipe that an input's arrival (`Inbox.put`), a
/// changed file and the stop and reload signals' handler write a byte to, so the loop sleeps
/// until its next deadline instead of looking at flags several times a second.
///
/// `signal()` is a single non-blocking `write(2)` (a full pipe is already awake):
/// async-signal-safe. `wait(timeout:)` is `poll(2)` on the read end, then reads that empty it.
final class Wakeup: @unchecked Sendable {
  /// The pipe's write end, which `signal()` writes to.
  let fd: Int32
  private let readEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "pipe failed: \(String(cString: strerror(errno)))")
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    readEnd = ends[0]
    fd = ends[1]
  }

  deinit {
    // The pipe the signal handlers write to stays open for the rest of the process: a handler
    // that read its number just before this could otherwise write into a file that reused it.
    // (One run a process: one pipe.)
    if !Wakeup.release(fd) {
      close(fd)
      close(readEnd)
    }
  }

  /// Wakes a `wait` now or the next one.
  func signal() { Wakeup.signal(fd) }

  /// Waits until `signal()` was called (since the last wait) or `timeout` seconds pass.
  func wait(timeout: Double) {
    var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    let ms = Int32(min(max(0, timeout) * 1000, 86_400_000).rounded(.up))
    guard poll(&p, 1, ms) > 0 else { return }
    var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while read(readEnd, &bytes, 32) > 0 {}
  }

  /// The descriptor the signal handlers wake, -1 when none.
  static let signalled = Atomic<Int32>(-1)

  /// Makes this the one the stop and reload signals wake.
  func takeSignals() { Wakeup.signalled.store(fd, ordering: .sequentiallyConsistent) }

  /// Stops the handlers writing to `fd`; true when they were.
  static func release(_ fd: Int32) -> Bool {
    signalled.compareExchange(expected: fd, desired: -1, ordering: .sequentiallyConsistent).exchanged
  }

  /// One byte written to the pipe `fd` is the write end of. Async-signal-safe.
  static func signal(_ fd: Int32) {
    guard fd >= 0 else { return }
    var one: UInt8 = 1
    _ = write(fd, &one, 1)
  }
}

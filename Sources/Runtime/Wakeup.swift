internal import Glibc

/// What wakes the run loop from its sleep, so it sleeps until its next deadline instead of
/// looking at flags several times a second: a pipe of its own, which an input's arrival
/// (`Inbox.put`) and a changed file write a byte to, and the process's one signal pipe, which
/// the stop and reload signals' handler writes to.
///
/// `signal()` is a single non-blocking `write(2)` (a full pipe is already awake):
/// async-signal-safe. `wait(timeout:)` is `poll(2)` on both read ends, then reads that empty
/// whichever is ready.
public final class Wakeup: @unchecked Sendable {
  /// The pipe's write end, which `signal()` writes to.
  let fd: Int32
  private let readEnd: Int32

  init() { (readEnd, fd) = Wakeup.makePipe() }

  deinit {
    close(fd)
    close(readEnd)
  }

  /// Wakes a `wait` now or the next one.
  func signal() { Wakeup.signal(fd) }

  /// Waits until `signal()` was called or a stop or reload signal came (since the last wait),
  /// or `timeout` seconds pass.
  func wait(timeout: Double) {
    var p = [
      pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: Wakeup.signals.read, events: Int16(POLLIN), revents: 0),
    ]
    let ms = Int32(min(max(0, timeout) * 1000, 86_400_000).rounded(.up))
    guard poll(&p, 2, ms) > 0 else { return }
    var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    for q in p where q.revents != 0 { while read(q.fd, &bytes, 32) > 0 {} }
  }

  /// The process's signal pipe: made once, before the handlers go in (`StopSignals.install`
  /// reads it), and never closed, so a handler never writes into a descriptor reused by a file.
  public static let signals: (read: Int32, write: Int32) = makePipe()

  /// One byte written to the pipe whose write end is `fd`. Async-signal-safe.
  public static func signal(_ fd: Int32) {
    var one: UInt8 = 1
    _ = write(fd, &one, 1)
  }

  /// A pipe, both ends close-on-exec and non-blocking.
  private static func makePipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "pipe failed: \(String(cString: strerror(errno)))")
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    return (ends[0], ends[1])
  }
}

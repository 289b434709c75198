public import Clock
internal import Foundation
public import WallboardCore

/// A clock that moves only when told: `advance(by:)` moves the wall and the monotonic time
/// together and releases every waiter whose deadline has passed (NIO's `EmbeddedEventLoop`
/// semantics), so a test steps time instead of sleeping. Waiters block on their own condition
/// until then; a signal of that condition wakes them as it would on the system clock.
public final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var wallMillis: Int64
  private var monoNanos: Int64 = 0
  private var waiters: [(id: Int, deadline: Monotonic, condition: Condition)] = []
  private var nextID = 0

  /// - Parameter start: the wall time it shows first; its monotonic time starts at zero.
  public init(start: Instant = Instant(seconds: 1_700_000_000)) { wallMillis = start.millis }

  /// The `Clock` to pass to what is tested.
  public var clock: Clock {
    Clock(
      now: { [self] in lock.withLock { Instant(millis: wallMillis) } },
      monotonic: { [self] in lock.withLock { Monotonic(nanoseconds: monoNanos) } },
      wait: { [self] deadline, condition in wait(until: deadline, on: condition) },
      sinceBoot: { [self] in lock.withLock { Double(monoNanos) / 1e9 } })
  }

  /// The wall time now.
  public var now: Instant { lock.withLock { Instant(millis: wallMillis) } }
  /// The monotonic time now.
  public var monotonic: Monotonic { lock.withLock { Monotonic(nanoseconds: monoNanos) } }
  /// How many waits are blocked now (a test waits for a thread to reach its wait).
  public var waiting: Int { lock.withLock { waiters.count } }

  /// Moves both times by `seconds` and releases the waiters whose deadline has passed.
  public func advance(by seconds: Double) {
    precondition(seconds >= 0, "a test clock moves forward only")
    let due: [Condition] = lock.withLock {
      wallMillis += Int64((seconds * 1000).rounded())
      monoNanos += Int64((seconds * 1e9).rounded())
      let now = Monotonic(nanoseconds: monoNanos)
      return waiters.filter { $0.deadline <= now }.map(\.condition)
    }
    // The waiter holds its condition from the look at the time until it waits, so this
    // broadcast cannot fall between the two.
    for c in due {
      c.lock()
      c.broadcast()
      c.unlock()
    }
  }

  /// Blocks until `waiting` reaches `count` (a thread has reached its wait), up to `timeout`
  /// real seconds; false when it did not.
  public func waitForWaiters(_ count: Int = 1, timeout: Double = 10) -> Bool {
    let end = Monotonic(nanoseconds: 0).adding(seconds: timeout)
    var spent = Monotonic(nanoseconds: 0)
    while spent < end {
      if waiting >= count { return true }
      usleep(1000)
      spent = spent.adding(seconds: 0.001)
    }
    return waiting >= count
  }

  private func wait(until deadline: Monotonic, on condition: Condition) -> Bool {
    let id: Int? = lock.withLock {
      guard Monotonic(nanoseconds: monoNanos) < deadline else { return nil }
      nextID += 1
      waiters.append((nextID, deadline, condition))
      return nextID
    }
    guard let id else { return false }
    condition.wait()
    return lock.withLock {
      waiters.removeAll { $0.id == id }
      return Monotonic(nanoseconds: monoNanos) < deadline
    }
  }
}

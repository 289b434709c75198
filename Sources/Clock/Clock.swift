public import WallboardCore

/// The one clock: the wall time events are stamped with, the monotonic time waits and timers
/// run on, and the wait itself. `App` makes `.system` and passes it down; nothing below it reads
/// a real clock (`make lint` checks: `scripts/clock-reads.sh`). Tests pass a `TestClock`'s, whose
/// `advance(by:)` moves both times and releases the waiters whose deadlines passed.
///
/// Wall and monotonic time are different types (`Instant`, `Monotonic`), so a timer cannot be set
/// on the wall clock (which NTP steps) nor an event stamped with the monotonic one.
public struct Clock: Sendable {
  private let wall: @Sendable () -> Instant
  private let mono: @Sendable () -> Monotonic
  private let waiter: @Sendable (Monotonic, Condition) -> Bool
  private let boot: @Sendable () -> Double?

  /// - Parameters:
  ///   - now: the wall time, for stamping.
  ///   - monotonic: a time no wall-clock step moves, for waiting and timers.
  ///   - wait: waits on a locked condition until it is signalled (true) or the deadline passes
  ///     (false), as ``Condition.wait(untilMonotonicNanoseconds:)` does.
  ///   - sinceBoot: seconds since the machine booted (suspend included), when known.
  public init(
    now: @escaping @Sendable () -> Instant, monotonic: @escaping @Sendable () -> Monotonic,
    wait: @escaping @Sendable (Monotonic, Condition) -> Bool,
    sinceBoot: @escaping @Sendable () -> Double? = { nil }
  ) {
    self.wall = now
    self.mono = monotonic
    self.waiter = wait
    self.boot = sinceBoot
  }

  /// The wall time, to the millisecond: what events and lines are stamped with.
  public func now() -> Instant { wall() }

  /// The monotonic time: what waits, retries and timers are measured on.
  public func monotonic() -> Monotonic { mono() }

  /// Waits on `condition`, which the caller holds locked, until it is signalled (true) or
  /// `deadline` passes on this clock (false). As with any condition, a true may be spurious:
  /// callers look again at what they wait for.
  @discardableResult
  public func wait(until deadline: Monotonic, on condition: Condition) -> Bool { waiter(deadline, condition) }

  /// Waits on `condition`, which the caller holds locked, until `done()` holds (true) or
  /// `deadline` passes first (false); `done()` is looked at again after every signal.
  public func wait(until deadline: Monotonic, on condition: Condition, for done: () -> Bool) -> Bool {
    while !done() {
      if monotonic() >= deadline { return false }
      _ = wait(until: deadline, on: condition)
    }
    return true
  }

  /// Waits until `deadline` with nothing to wake the wait early.
  public func sleep(until deadline: Monotonic) {
    let condition = Condition()
    condition.lock()
    defer { condition.unlock() }
    while monotonic() < deadline { _ = wait(until: deadline, on: condition) }
  }

  /// Waits `seconds` on this clock.
  public func sleep(seconds: Double) { sleep(until: monotonic().adding(seconds: seconds)) }

  /// Seconds since the machine booted (`CLOCK_BOOTTIME`), nil when not known.
  public func secondsSinceBoot() -> Double? { boot() }

  /// This clock with another wall time (the simulation's, a replay's): the same monotonic time
  /// and waits.
  public func stamping(with now: @escaping @Sendable () -> Instant) -> Clock {
    Clock(now: now, monotonic: mono, wait: waiter, sinceBoot: boot)
  }
}

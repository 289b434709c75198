internal import WallboardCore

/// A deadline on a clock's monotonic time, with the clock that tells when it has passed: what a
/// finite read that must stop in time is handed.
public struct TimeLimit: Sendable {
  public let clock: Clock
  public let at: Monotonic

  public init(clock: Clock, at: Monotonic) {
    self.clock = clock
    self.at = at
  }

  /// `seconds` from now on `clock`.
  public init(clock: Clock, seconds: Double) { self.init(clock: clock, at: clock.monotonic().adding(seconds: seconds)) }

  /// No limit: never passes, and reads no clock.
  public static let distantFuture = TimeLimit(
    clock: Clock(now: { .init(millis: 0) }, monotonic: { Monotonic(nanoseconds: 0) }, wait: { _, _ in false }),
    at: Monotonic(nanoseconds: .max))

  /// Seconds left (infinity for no limit; zero or less once passed).
  public var secondsLeft: Double { at.nanoseconds == .max ? .infinity : at.seconds(since: clock.monotonic()) }

  /// Whether it has passed.
  public var passed: Bool { secondsLeft <= 0 }
}

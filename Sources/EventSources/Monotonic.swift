internal import Foundation
internal import WallboardCore

/// The clock waits and retries are timed by: `CLOCK_MONOTONIC`, which a wall-clock step (NTP
/// setting the time of a board that booted without one) never moves. Events are stamped with
/// the injected clock; only scheduling uses this.
enum Monotonic {
  /// Seconds since an arbitrary start.
  static func seconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// The same, as an `Instant` (for the pure machines that schedule in instants).
  static func instant() -> Instant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Instant(millis: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
  }
}

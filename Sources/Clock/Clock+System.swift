internal import Foundation
internal import WallboardCore

#if canImport(Glibc)
  internal import Glibc
#endif

extension Clock {
  /// The real clocks: the one place the process reads them. The wall time is the system's
  /// (`Date`), to the millisecond; the monotonic one is `CLOCK_MONOTONIC`, which setting the
  /// time (NTP on a board that booted without it) never moves; waits are `NSCondition`'s.
  public static let system = Clock(
    now: { Instant(millis: Int64((Date().timeIntervalSince1970 * 1000).rounded())) },
    monotonic: { Monotonic(nanoseconds: systemMonotonicNanoseconds()) },
    wait: { deadline, condition in
      let left = deadline.seconds(since: Monotonic(nanoseconds: systemMonotonicNanoseconds()))
      guard left > 0 else { return false }
      // NSCondition waits on a wall-clock date; the wait is short-lived and callers look again.
      return condition.wait(until: Date(timeIntervalSinceNow: min(left, 86_400 * 365)))
    },
    sinceBoot: {
      var ts = timespec()
      guard clock_gettime(CLOCK_BOOTTIME, &ts) == 0 else { return nil }
      return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    })

  private static func systemMonotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
  }
}

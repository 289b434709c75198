internal import WallboardCore

#if canImport(Glibc)
  internal import Glibc
#endif

extension Clock {
  /// The real clocks: the one place the process reads them. The wall time is the system's
  /// (`CLOCK_REALTIME`), to the millisecond; the monotonic one is `CLOCK_MONOTONIC`, which
  /// setting the time (NTP on a board that booted without it) never moves; waits are a
  /// `Condition`'s, on the same monotonic clock.
  public static let system = Clock(
    now: {
      var ts = timespec()
      clock_gettime(CLOCK_REALTIME, &ts)
      return Instant(millis: Int64(ts.tv_sec) * 1000 + (Int64(ts.tv_nsec) + 500_000) / 1_000_000)
    },
    monotonic: { Monotonic(nanoseconds: systemMonotonicNanoseconds()) },
    wait: { deadline, condition in
      guard deadline.nanoseconds > systemMonotonicNanoseconds() else { return false }
      return condition.wait(untilMonotonicNanoseconds: deadline.nanoseconds)
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

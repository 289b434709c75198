/// A moment on the monotonic clock: nanoseconds since an arbitrary start (the boot, for the
/// system clock; zero, for a test clock). For waiting and timers only; never shown or stored.
public struct Monotonic: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var nanoseconds: Int64

  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
  /// `seconds` after the clock's start: what tests step in.
  public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

  /// Seconds since the clock's start.
  public var seconds: Double { Double(nanoseconds) / 1e9 }

  public static func < (a: Monotonic, b: Monotonic) -> Bool { a.nanoseconds < b.nanoseconds }

  /// This deadline moved by `seconds` (may be fractional or negative; infinity saturates).
  public func adding(seconds: Double) -> Monotonic {
    let sum = Double(nanoseconds) + seconds * 1e9
    if sum >= 9.2e18 { return Monotonic(nanoseconds: .max) }
    if sum <= -9.2e18 { return Monotonic(nanoseconds: -.max) }
    return Monotonic(nanoseconds: nanoseconds + Int64((seconds * 1e9).rounded()))
  }

  /// Seconds from `earlier` to this deadline (negative when `earlier` is later).
  public func seconds(since earlier: Monotonic) -> Double {
    Double(nanoseconds) / 1e9 - Double(earlier.nanoseconds) / 1e9
  }

  public var description: String { "\(seconds) s" }
}

extension Monotonic {
  /// Later than any deadline a clock reaches.
  public static let distantFuture = Monotonic(nanoseconds: .max)
}

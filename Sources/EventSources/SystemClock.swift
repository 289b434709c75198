internal import Foundation
public import WallboardCore

/// The system's clock, to the millisecond: the one real clock, which the executable passes
/// down; a source that was handed no clock reads this one.
public enum SystemClock {
  @Sendable public static func now() -> Instant {
    Instant(millis: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
  }
}

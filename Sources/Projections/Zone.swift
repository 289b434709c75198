internal import Foundation
public import WallboardCore

/// An IANA time zone, for turning instants into local dates and local midnights into instants.
public struct Zone: Sendable, Hashable {
  public let identifier: String
  private let tz: TimeZone

  /// `nil` when the identifier names no zone this system knows.
  public init?(_ identifier: String) {
    guard let tz = TimeZone(identifier: identifier) else { return nil }
    self.identifier = identifier
    self.tz = tz
  }

  public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
  public func hash(into h: inout Hasher) { h.combine(identifier) }

  public static let utc = Zone("UTC")!

  /// The system's zone.
  public static var current: Zone { Zone(TimeZone.current.identifier) ?? .utc }

  /// Offset from UTC at `t`, in seconds.
  public func offset(at t: Instant) -> Int {
    tz.secondsFromGMT(for: Date(timeIntervalSince1970: t.seconds))
  }

  /// The local calendar date of `t`.
  public func date(of t: Instant) -> CivilDate {
    Instant(millis: t.millis + Int64(offset(at: t)) * 1000).utcDate
  }

  /// The local wall-clock time of `t` as seconds after local midnight.
  public func secondsIntoDay(_ t: Instant) -> Int {
    let local = t.millis / 1000 + Int64(offset(at: t))
    return Int(((local % 86_400) + 86_400) % 86_400)
  }

  /// The instant local midnight begins `date` (the first instant of the day).
  public func startOfDay(_ date: CivilDate) -> Instant {
    let local = Int64(date.daysSinceEpoch) * 86_400
    var guess = local - Int64(offset(at: Instant(seconds: local)))
    guess = local - Int64(offset(at: Instant(seconds: guess)))
    return Instant(seconds: guess)
  }

  /// The last millisecond of `date`.
  public func endOfDay(_ date: CivilDate) -> Instant {
    Instant(millis: startOfDay(date.adding(days: 1)).millis - 1)
  }
}

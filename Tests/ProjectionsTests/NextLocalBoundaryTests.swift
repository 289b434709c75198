import TestSupport
import Testing
import WallboardCore

@testable import Projections
@testable import ZoneFiles

/// `Zone.nextLocalBoundary`: the local minute (or date) read at `t` holds until the boundary,
/// and a minute turns there — at whole minutes, at midnight, and at daylight-saving switches of
/// zones a whole hour, half an hour and 45 minutes off UTC.
@Suite struct NextLocalBoundaryTests {
  static let zones = [
    "UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham",
  ]

  /// Through 2026 at uneven steps, and every second around Berlin's and Lord Howe's switches.
  static let instants: [Instant] =
    stride(from: Int64(1_767_225_600_000), to: 1_798_761_600_000, by: 3_600_000 * 7 + 59_321).map(Instant.init(millis:))
    + [Make.t("2026-03-29T00:59:00Z"), Make.t("2026-10-25T00:59:00Z"), Make.t("2026-04-04T14:59:00Z")].flatMap { t in
      (0..<120).map { Instant(millis: t.millis + Int64($0) * 1000) }
    }

  static func minute(_ t: Instant, _ zone: Zone) -> (CivilDate, Int) { (zone.date(of: t), zone.secondsIntoDay(t) / 60) }

  @Test(arguments: zones)
  func theLocalMinuteHoldsUntilTheBoundaryAndTurnsThere(name: String) throws {
    let zone = try #require(Zone(name))
    for t in Self.instants {
      let next = zone.nextLocalBoundary(after: t, every: 60)
      #expect(next > t && next.millis - t.millis <= 60_000, "\(name) \(t)")
      let before = Self.minute(Instant(millis: next.millis - 1), zone)
      #expect(before == Self.minute(t, zone), "\(name) \(t): the minute changed before \(next)")
      #expect(Self.minute(next, zone) != Self.minute(t, zone), "\(name) \(t): nothing turned at \(next)")
    }
  }

  @Test(arguments: zones)
  func theLocalDateHoldsUntilMidnightOrTheSwitch(name: String) throws {
    let zone = try #require(Zone(name))
    for t in Self.instants {
      let next = zone.nextLocalBoundary(after: t, every: 86_400)
      #expect(next > t)
      #expect(zone.date(of: Instant(millis: next.millis - 1)) == zone.date(of: t), "\(name) \(t)")
      // The date turns there, unless it is the zone's switch (which moves the time, not the day).
      let switched = zone.offset(at: Instant(millis: next.millis - 1)) != zone.offset(at: next)
      #expect(switched || zone.date(of: next) != zone.date(of: t), "\(name) \(t) → \(next)")
    }
  }
}

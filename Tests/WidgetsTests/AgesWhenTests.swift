import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets

/// How the board says when something happened: an age under a week, else the date; never a
/// negative age for data from after the moment shown.
@Suite("Ages and dates")
struct AgesWhenTests {
  static let at = Make.t("2026-11-20T12:00:00Z")

  @Test(arguments: [
    ("2026-11-20T11:59:30Z", "30 s ago"),
    ("2026-11-20T09:00:00Z", "3 h ago"),
    ("2026-11-13T12:00:01Z", "6 d ago"),
    ("2026-11-13T12:00:00Z", "13 Nov"),
    ("2026-03-09T14:30:00Z", "9 Mar"),
    ("2025-12-24T10:00:00Z", "24 Dec 2025"),
    // Clocks a little apart: now; later than that: its date.
    ("2026-11-20T12:00:30Z", "0 s ago"),
    ("2026-11-21T09:00:00Z", "21 Nov"),
  ])
  func whenSaysAnAgeOrADate(_ then: String, _ expected: String) {
    #expect(Ages.when(Make.t(then), at: Self.at, zone: .utc) == expected)
  }

  @Test func theFreshnessLineOfDataMonthsOldIsItsDate() throws {
    var s = BoardState()
    Reducer.reduce(into: &s, .connection(origin: "orchestra-md:/ws", status: .live, at: Self.at, detail: nil))
    Reducer.reduce(
      into: &s,
      Event(
        origin: "orchestra-md:/ws", time: Make.t("2026-03-09T14:30:00Z"), receivedAt: Self.at,
        body: .boardSnapshot(BoardSnapshot(features: [Make.feature("A")]))))
    let row = try #require(FrameModel(state: s, at: Self.at, now: Self.at, zone: .utc, unit: .auto).sources.first)
    #expect(row.status == .live)
    #expect(row.age == "updated 9 Mar")
  }
}

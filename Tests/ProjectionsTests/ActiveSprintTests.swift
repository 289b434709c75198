import Projections
import TestSupport
import Testing
import WallboardCore
import ZoneFiles

/// The active sprint: forced, named by a snapshot, by date for declared sprints, by their
/// events for the others.
@Suite("The active sprint")
struct ActiveSprintTests {
  typealias M = Make

  static func declared(_ id: String, _ start: String, _ end: String, tz: String? = nil) -> Sprint {
    var s = M.sprint(id, start: start, end: end, timeZone: tz)
    s.activation = .dates
    s.membershipLabel = "sprint:\(id)"
    return s
  }

  static func board(_ sprints: [Sprint], plus events: [Event] = []) -> BoardState {
    M.state(
      [M.event("2026-11-01T08:00:00Z", .boardSnapshot(BoardSnapshot(sprints: sprints)), origin: "declared")] + events)
  }

  static let s1 = declared("s1", "2026-11-02", "2026-11-13")
  static let s2 = declared("s2", "2026-11-16", "2026-11-27")
  static let long = declared("long", "2026-11-01", "2026-11-30")

  @Test(
    arguments: [
      ("2026-11-01T12:00:00Z", nil),
      ("2026-11-02T00:00:00Z", "s1"),
      ("2026-11-13T23:59:59Z", "s1"),
      ("2026-11-14T12:00:00Z", nil),
      ("2026-11-16T09:00:00Z", "s2"),
      ("2026-11-28T00:00:00Z", nil),
    ] as [(String, String?)])
  func theSprintWhoseDatesHoldToday(now: String, expected: String?) {
    let s = Self.board([Self.s1, Self.s2])
    #expect(s.activeSprint(at: M.t(now), zone: .utc)?.id == expected)
  }

  @Test func ofSeveralTheLatestStart() {
    let s = Self.board([Self.s1, Self.long, Self.s2])
    #expect(s.activeSprint(at: M.t("2026-11-01T12:00:00Z"), zone: .utc)?.id == "long")
    #expect(s.activeSprint(at: M.t("2026-11-05T12:00:00Z"), zone: .utc)?.id == "s1")
    #expect(s.activeSprint(at: M.t("2026-11-20T12:00:00Z"), zone: .utc)?.id == "s2")
  }

  @Test func theDayIsTheSprintsOwnZoneElseTheBoards() {
    // 2026-11-13T23:30Z is already the 14th in Berlin: s1 has ended there.
    let berlin = Self.board([Self.declared("s1", "2026-11-02", "2026-11-13", tz: "Europe/Berlin")])
    let zones = ZoneBook.read(for: berlin)
    #expect(berlin.activeSprint(at: M.t("2026-11-13T23:30:00Z"), zone: .utc, sprintZones: zones) == nil)
    // The projections read no zone file: a zone not given is the board's.
    #expect(berlin.activeSprint(at: M.t("2026-11-13T23:30:00Z"), zone: .utc)?.id == "s1")
    let board = Self.board([Self.s1])
    #expect(board.activeSprint(at: M.t("2026-11-13T23:30:00Z"), zone: .utc)?.id == "s1")
    #expect(board.activeSprint(at: M.t("2026-11-13T23:30:00Z"), zone: Zone("Europe/Berlin")!) == nil)
    #expect(board.activeSprint(at: M.t("2026-11-01T23:30:00Z"), zone: Zone("Europe/Berlin")!)?.id == "s1")
  }

  @Test func withoutNowOrHoldingNoneADeclaredSprintIsNotActive() {
    let s = Self.board([Self.s1])
    #expect(s.activeSprint() == nil, "no date to hold")
    #expect(s.activeSprint(at: M.t("2026-12-01T12:00:00Z"), zone: .utc) == nil, "so the flow shows")
  }

  @Test func aForcedSprintWinsAndAnUnknownOneIsSaid() {
    let s = Self.board([Self.s1, Self.s2])
    let now = M.t("2026-11-05T12:00:00Z")
    #expect(s.activeSprint(preferred: "s2", at: now, zone: .utc)?.id == "s2")
    #expect(s.missingSprint(preferred: "s2") == nil)
    #expect(s.activeSprint(preferred: "s9", at: now, zone: .utc) == nil)
    #expect(s.missingSprint(preferred: "s9") == "s9")
    #expect(s.missingSprint(preferred: nil) == nil)
  }

  @Test func eventSprintsKeepTheirRulesBesideDeclaredOnes() {
    // A started, unclosed sprint from events: active whatever the date, unless a declared one
    // holds today.
    let evented = M.sprint("e1", start: "2026-10-01", end: "2026-10-14")
    let events = [
      M.event("2026-11-01T09:00:00Z", .sprintCreated(evented)),
      M.event("2026-11-01T09:00:00Z", .sprintStarted(id: "e1", startedAt: nil, patch: SprintPatch())),
    ]
    let s = Self.board([Self.s1], plus: events)
    #expect(s.activeSprint(at: M.t("2026-11-05T12:00:00Z"), zone: .utc)?.id == "s1")
    #expect(s.activeSprint(at: M.t("2026-12-05T12:00:00Z"), zone: .utc)?.id == "e1")
    // Created but never started: still the latest created of the event sprints, not a declared one.
    let unstarted = Self.board([Self.s1], plus: [M.event("2026-11-01T09:00:00Z", .sprintCreated(evented))])
    #expect(unstarted.activeSprint(at: M.t("2026-12-05T12:00:00Z"), zone: .utc)?.id == "e1")
  }
}

import Projections
import TestSupport
import Testing
import WallboardCore
import ZoneFiles

/// Issue 22, item 6: the projections read no zone file. The zones a board's sprints name are
/// read at the edge (`ZoneBook`), each once, and handed to the projections as a value; before,
/// `Burndown.compute`, `activeSprint` and `nextProjectionChange` each read the sprint's zone
/// file from disk every time they ran.
@Suite struct ZoneBookTests {
  static func board(_ zones: [String?]) -> BoardState {
    Make.state(
      zones.enumerated().map { i, z in
        Make.event(
          "2026-11-01T09:00:00Z",
          .sprintCreated(Make.sprint("s\(i)", start: "2026-11-02", end: "2026-11-13", members: [], timeZone: z)))
      })
  }

  @Test func eachNameIsReadOnceAndAnUnknownOneIsRemembered() {
    var book = ZoneBook()
    let s = Self.board(["Europe/Berlin", "Asia/Tokyo", nil, "Europe/Berlin", "Nowhere/Atlantis", "UTC"])
    let first = book.zones(for: s)
    #expect(first.zones.map(\.identifier) == ["Asia/Tokyo", "Europe/Berlin", "UTC"])
    #expect(book.reads == 4, "Berlin, Tokyo, Atlantis and UTC, once each")
    for _ in 0..<100 { #expect(book.zones(for: s) == first) }
    #expect(book.reads == 4, "never again")
  }

  @Test func aSprintWithoutItsZoneCountsInTheBoards() throws {
    let s = Self.board(["Nowhere/Atlantis"])
    let sprint = try #require(s.sprints["s0"])
    let berlin = try #require(Zone("Europe/Berlin"))
    #expect(ZoneBook.read(for: s).zone(of: sprint, else: berlin) == berlin)
  }

  /// A sprint naming a new zone reaches the kept content: the zones are in the memo's key.
  @Test func aNewSprintZoneMakesTheContentAgain() {
    var memo = ProjectionMemo()
    var book = ZoneBook()
    let at = Make.t("2026-11-05T12:00:00Z")
    let before = Self.board([nil])
    _ = memo.content(
      state: before, version: 1, at: at, zone: .utc, settings: ViewSettings(), sprintZones: book.zones(for: before))
    let after = Self.board([nil, "Pacific/Honolulu"])
    let c = memo.content(
      state: after, version: 1, at: at, zone: .utc, settings: ViewSettings(), sprintZones: book.zones(for: after))
    #expect(memo.computed == 2)
    #expect(c.sprintZones.zones.map(\.identifier) == ["Pacific/Honolulu"])
  }
}

import TestSupport
import Testing
import WallboardCLI
import WallboardCore

/// The text board's recent changes name features by their titles, shortened; the id after them.
@Suite("Titles on the text board")
struct TextBoardRecentTests {
  @Test func recentChangesSayTheTitle() throws {
    var s = BoardState()
    let long = String(repeating: "Make the export faster ", count: 4)
    for e in [
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Feature(id: "A", title: "Login flow", status: "todo"))),
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Feature(id: "B", title: long, status: "todo"))),
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Feature(id: "C", status: "todo"))),
      Make.status("2026-11-18T11:00:00Z", "A", "done"),
      Make.status("2026-11-18T11:05:00Z", "B", "in-progress"),
      Make.status("2026-11-18T11:10:00Z", "C", "in-progress"),
    ] {
      Reducer.reduce(into: &s, e)
    }
    let at = Make.t("2026-11-19T12:00:00Z")
    let lines = TextBoard.render(state: s, at: at, now: at, zone: .utc, unit: .auto).split(separator: "\n")
    #expect(lines.contains("  Login flow (A) → done  11:00"), "\(lines)")
    #expect(lines.contains("  C → in-progress  11:10"), "\(lines)")
    let b = try #require(lines.first { $0.hasSuffix("(B) → in-progress  11:05") }, "\(lines)")
    #expect(b.hasPrefix("  Make the export faster"))
    #expect(b.contains("… (B)"))
  }
}

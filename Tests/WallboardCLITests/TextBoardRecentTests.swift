import Runtime
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
    #expect(lines.contains("  Login flow (A) → Done  11:00"), "\(lines)")
    #expect(lines.contains("  C → In progress  11:10"), "\(lines)")
    let b = try #require(lines.first { $0.hasSuffix("(B) → In progress  11:05") }, "\(lines)")
    #expect(b.hasPrefix("  Make the export faster"))
    #expect(b.contains("… (B)"))
  }

  /// An id two projects hold is shown with its project, so two features never read as one.
  @Test func anIdOfTwoProjectsIsShownWithItsProject() {
    var s = BoardState()
    for e in [
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Feature(id: "A", projectId: "web", status: "todo"))),
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Feature(id: "A", projectId: "api", status: "todo"))),
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Feature(id: "B", projectId: "api", status: "todo"))),
      Make.event(
        "2026-11-18T11:00:00Z", .workflowTransitioned(featureId: "A", to: "done", from: nil, at: nil, project: "api")),
      Make.status("2026-11-18T11:05:00Z", "B", "done"),
    ] {
      Reducer.reduce(into: &s, e)
    }
    let at = Make.t("2026-11-19T12:00:00Z")
    let lines = TextBoard.render(state: s, at: at, now: at, zone: .utc, unit: .auto).split(separator: "\n")
    #expect(lines.contains("  api/A → Done  11:00"), "\(lines)")
    #expect(lines.contains("  B → Done  11:05"), "an id only one project holds stays bare: \(lines)")
  }

  /// A source that wants a look says why on its line: the files it cannot read.
  @Test func aSourceThatCannotReadAFileSaysWhich() {
    var s = BoardState()
    let origin = "orchestra-md:/ws"
    let why = "1 feature file unreadable: B.md:3: a tab in the indentation · markdown /ws/.projects"
    _ = Reducer.reduce(
      into: &s, .connection(origin: origin, status: .live, at: Make.t("2026-11-19T12:00:00Z"), detail: why))
    _ = Reducer.reduce(
      into: &s,
      .rejected(
        origin: origin, at: Make.t("2026-11-19T12:00:00Z"), reason: "/ws/.projects/p/B.md:3: a tab in the indentation"))
    let at = Make.t("2026-11-19T12:00:00Z")
    let text = TextBoard.render(state: s, at: at, now: at, zone: .utc, unit: .auto)
    #expect(text.contains("● \(origin): live"), "\(text)")
    #expect(text.contains(why), "\(text)")
  }
}

import Projections
import TestSupport
import Testing
import WallboardCore

/// Issue 20, item 14: every state is named the same way on the board — capitalised, words apart —
/// whether its name comes from the workflow, an old spelling the workflow still reads, or a status
/// the workflow does not know; `backlog` is never the one lowercase state among capitalised ones.
@Suite("State labels")
struct StateLabelTests {
  typealias M = Make

  @Test(arguments: [
    ("To do", "To do"), ("in review", "In review"), ("backlog", "Backlog"), ("needs_edits", "Needs edits"),
    ("ready-for-testing", "Ready for testing"), ("QA", "QA"), ("éclat", "Éclat"), ("", ""), ("-", "-"),
  ])
  func aLabelIsCapitalisedAndItsWordsSpaced(raw: String, shown: String) {
    #expect(StateLabel.display(raw) == shown)
  }

  @Test func everyTallyAndFlowStateIsCapitalisedTheSameWay() throws {
    var settings = BoardSettings()
    settings.workflow = .upstream
    let s = M.state(
      [
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", status: "backlog"))),
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", status: "triage-later"))),
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("C", status: "todo"))),
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("D", status: "documented"))),
      ], from: BoardState(settings: settings))
    let scope = BoardScope(state: s, sprint: nil)
    let tallies = Tally.compute(state: s, scope: scope)
    #expect(tallies.first { $0.state == "backlog" }?.label == "Backlog")
    #expect(tallies.first { $0.state == "documented" }?.label == "Documented")
    #expect(tallies.first { $0.state == "triage-later" }?.label == "Triage later")
    #expect(tallies.first { $0.state == "in-progress" }?.label == "In progress")
    let at = try Instant(rfc3339: "2026-11-02T09:00:00Z")
    let flow = Flow.compute(state: s, scope: scope, sprint: nil, at: at, zone: .utc, days: 3)
    for label in tallies.map(\.label) + flow.states.map(\.label) {
      #expect(label.first.map { String($0) == String($0).uppercased() } ?? false, "\(label) is not capitalised")
      #expect(!label.contains("-") && !label.contains("_"), "\(label) keeps a separator")
    }
  }
}

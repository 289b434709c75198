import Projections
import TestSupport
import Testing
import WallboardCore

/// A board that has just met a workspace charts a sprint declared over days it did not watch:
/// the remaining work falls on the days of the trail's moves to done.
@Suite("Burndown from backfilled history")
struct BurndownBackfillTests {
  typealias M = Make

  @Test func remainingWorkFallsOnTheDaysOfTheTrailsMovesToDone() throws {
    let members = ["A", "B", "C", "D"].map { M.feature($0, status: "todo", estimate: "M", labels: ["sprint:s1"]) }
    var features = members
    features[0].status = "done"
    features[1].status = "done"
    features[2].status = "in-review"
    func moves(_ pairs: [(String, String)]) -> [StatusMove] { pairs.map { StatusMove(at: M.t($0.0), status: $0.1) } }
    let history: [FeatureKey: [StatusMove]] = [
      "A": moves([
        ("2026-10-28T09:00:00Z", "todo"), ("2026-11-03T10:00:00Z", "in-review"), ("2026-11-04T15:00:00Z", "done"),
      ]),
      "B": moves([("2026-10-28T09:00:00Z", "in-progress"), ("2026-11-06T11:00:00Z", "done")]),
      "C": moves([("2026-10-28T09:00:00Z", "in-progress"), ("2026-11-05T11:00:00Z", "in-review")]),
      "D": moves([("2026-10-28T09:00:00Z", "todo")]),
    ]
    // The sprint comes from another source (a JSON Lines file); the board first sees the
    // workspace on 11-09, a week into the sprint.
    let s = M.state([
      M.event(
        "2026-11-01T00:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13")),
        origin: "jsonl:sprints"),
      M.event(
        "2026-11-09T12:00:00Z", .boardSnapshot(BoardSnapshot(features: features, history: history)),
        origin: "orchestra-db:/ws.db"),
    ])
    let b = Burndown.compute(
      state: s, sprint: try #require(s.activeSprint()), at: M.t("2026-11-09T12:00:00Z"), boardZone: .utc)
    #expect(b.unit == .points)
    #expect(b.committed == 8, "all four members known from the sprint's start")
    #expect(Array(b.remaining.prefix(8)) == [8, 8, 6, 6, 4, 4, 4, 4])
    #expect(b.remaining.dropFirst(8).allSatisfy { $0 == nil })
    #expect(
      b.steps.filter { $0.kind == .burn }.map(\.at) == [M.t("2026-11-04T15:00:00Z"), M.t("2026-11-06T11:00:00Z")])
    #expect(b.stepsFrom == b.startMoment)
  }
}

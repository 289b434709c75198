import Projections
import TestSupport
import Testing
import WallboardCore

@Suite("Blocked work and rework")
struct BlockedTests {
  typealias S = Stuck

  /// Two projects holding the same id `B`, a third kept off the board by the filter.
  static func board() -> BoardState {
    let settings = BoardSettings(filter: FeatureFilter(projects: ["p1", "p2"]))
    return Make.state(
      [
        S.create("2026-11-01T09:00:00Z", "B", project: "p1"),
        S.create("2026-11-01T09:00:00Z", "B", project: "p2", status: "done"),
        S.create("2026-11-01T09:00:00Z", "H", project: "p3", status: "in-progress"),
        S.create("2026-11-01T09:00:00Z", "J", project: "p3", status: "done"),
        S.create("2026-11-01T09:00:00Z", "L", project: "p1", status: "rejected"),
        // Waits on its own project's B (not done), not on p2's B (done); X is held nowhere.
        S.create("2026-11-01T10:00:00Z", "A", project: "p1", dependsOn: ["B", "p2/B", "X"], assignee: "ann"),
        S.move("2026-11-03T10:00:00Z", "A", project: "p1", "in-progress"),
        // p2's C waits on p2's B, which is done: not blocked.
        S.create("2026-11-01T11:00:00Z", "C", project: "p2", dependsOn: ["B"]),
        // p2's D names p1's B across projects.
        S.create("2026-11-02T11:00:00Z", "D", project: "p2", dependsOn: ["p1/B"]),
        // Blocked by its status alone.
        S.create("2026-11-01T12:00:00Z", "E", project: "p1", status: "blocked"),
        // Done itself: never blocked.
        S.create("2026-11-01T12:00:00Z", "F", project: "p1", status: "done", dependsOn: ["B"]),
        // A dependency the filter keeps off the board still blocks while it is not done.
        S.create("2026-11-04T12:00:00Z", "G", project: "p1", dependsOn: ["p3/H", "p3/J"]),
        // A rejected dependency is not done.
        S.create("2026-11-05T12:00:00Z", "K", project: "p1", dependsOn: ["L"]),
        // Moves in and out of todo: since the last entry.
        S.create("2026-10-20T12:00:00Z", "M", project: "p1", dependsOn: ["B"]),
        S.move("2026-10-21T12:00:00Z", "M", project: "p1", "in-progress"),
        S.move("2026-11-02T12:00:00Z", "M", project: "p1", "todo"),
      ], from: BoardState(settings: settings))
  }

  @Test func listsEveryUnfinishedFeatureWaitingOnWorkNotDone() {
    let items = Blocked.compute(state: Self.board())
    #expect(
      items.map(\.key) == [
        S.key("p1", "E"), S.key("p2", "D"), S.key("p1", "M"), S.key("p1", "A"), S.key("p1", "G"), S.key("p1", "K"),
      ])
    let byKey = Dictionary(uniqueKeysWithValues: items.map { ($0.key, $0) })
    let a = byKey[S.key("p1", "A")]!
    #expect(a.waitsOn == [S.key("p1", "B")])
    #expect(a.title == "T A" && a.assignee == "ann" && a.status == "in-progress")
    #expect(a.since == Make.t("2026-11-03T10:00:00Z"))
    #expect(byKey[S.key("p2", "D")]!.waitsOn == [S.key("p1", "B")])
    #expect(byKey[S.key("p2", "D")]!.written(S.key("p1", "B")) == "p1/B")
    #expect(a.written(S.key("p1", "B")) == "B")
    #expect(byKey[S.key("p1", "E")]!.waitsOn == [])
    #expect(byKey[S.key("p1", "G")]!.waitsOn == [S.key("p3", "H")])
    #expect(byKey[S.key("p1", "K")]!.waitsOn == [S.key("p1", "L")])
    #expect(byKey[S.key("p1", "M")]!.since == Make.t("2026-11-02T12:00:00Z"))
  }

  @Test func sinceFallsBackToUpdatedAtThenUnknownLast() {
    var s = Self.board()
    // No history for A: its updatedAt; none for E either, and no updatedAt: unknown, last.
    s.history[S.key("p1", "A")] = nil
    s.history[S.key("p1", "E")] = nil
    s.features[S.key("p1", "A")]!.updatedAt = Make.t("2026-10-01T00:00:00Z")
    let items = Blocked.compute(state: s)
    #expect(items.first?.key == S.key("p1", "A"))
    #expect(items.first?.since == Make.t("2026-10-01T00:00:00Z"))
    #expect(items.last?.key == S.key("p1", "E"))
    #expect(items.last?.since == nil)
  }

  @Test func reworkCountsEachReturnToNeedsEdits() {
    let s = Make.state(
      [
        S.create("2026-11-01T09:00:00Z", "R", project: "p1", assignee: "bo"),
        S.move("2026-11-02T09:00:00Z", "R", project: "p1", "in-review"),
        S.move("2026-11-03T09:00:00Z", "R", project: "p1", "needs-edits"),
        S.move("2026-11-04T09:00:00Z", "R", project: "p1", "in-progress"),
        S.move("2026-11-05T09:00:00Z", "R", project: "p1", "in-review"),
        S.move("2026-11-06T09:00:00Z", "R", project: "p1", "needs-edits"),
        S.create("2026-11-05T12:00:00Z", "Q", project: "p2", status: "needs-edits"),
        // Same id, other project, not in rework.
        S.create("2026-11-01T12:00:00Z", "R", project: "p2", status: "in-review"),
      ], from: BoardState(settings: BoardSettings(workflow: .upstream)))
    let items = Blocked.rework(state: s)
    #expect(
      items == [
        ReworkItem(key: S.key("p2", "Q"), title: "T Q", assignee: nil, times: 1, since: Make.t("2026-11-05T12:00:00Z")),
        ReworkItem(
          key: S.key("p1", "R"), title: "T R", assignee: "bo", times: 2, since: Make.t("2026-11-06T09:00:00Z")),
      ])
    // Without history: once, since unknown.
    var bare = s
    bare.history[S.key("p1", "R")] = nil
    #expect(
      Blocked.rework(state: bare).last
        == ReworkItem(key: S.key("p1", "R"), title: "T R", assignee: "bo", times: 1, since: nil))
  }
}

import TestSupport
import Testing
import WallboardCore

/// `BoardSettings.filter` at the board's door: whole states compared.
@Suite("The board's filter")
struct FilterTests {
  typealias M = Make

  static let web = BoardSettings(filter: FeatureFilter(labels: ["team:web"]))

  static func labelled(_ id: String, _ labels: [String], project: String? = "p1", assignee: String? = nil) -> Feature {
    var f = M.feature(id, labels: labels, projectId: project)
    f.assignee = assignee
    return f
  }

  static func relabel(_ time: String, _ id: String, _ labels: [String]) -> Event {
    var p = FeaturePatch(id: id)
    p.labels = labels
    return M.event(time, .featureUpdated(p))
  }

  @Test func onlyMatchingFeaturesReachTheBoard() {
    let s = M.state(
      [
        M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("A", ["team:web"]))),
        M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("B", ["team:api"]))),
      ], from: BoardState(settings: Self.web))
    #expect(s.features.keys.map(\.id).sorted() == ["A"])
    #expect(s.history(of: "B") == nil)
    #expect(s.hiddenCount == 1)
    #expect(s.statusOrder == ["todo"])
  }

  @Test func aLabelChangeMovesAFeatureOutAndItsHistoryRecordsItGone() throws {
    var s = M.state(
      [M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("A", ["team:web"])))],
      from: BoardState(settings: Self.web))
    Reducer.reduce(into: &s, Self.relabel("2026-11-03T09:00:00Z", "A", ["team:api"]))
    #expect(s.feature("A") == nil)
    #expect(s.hiddenCount == 1)
    // Like a delete: no sprint refers to it, so its history goes with it.
    #expect(s.history(of: "A") == nil)

    // The same on a board where a sprint refers to it: the history keeps it, recorded gone.
    let sprint = M.sprint("S1", start: "2026-11-02", end: "2026-11-13", members: ["A"])
    var t = M.state(
      [
        M.event("2026-11-02T08:00:00Z", .sprintCreated(sprint)),
        M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("A", ["team:web"]))),
        Self.relabel("2026-11-03T09:00:00Z", "A", ["team:api"]),
      ], from: BoardState(settings: Self.web))
    let last = try #require(t.history(of: "A")?.versions.last)
    #expect(last.exists == false)
    #expect(last.at == M.t("2026-11-03T09:00:00Z"))
    #expect(members(t, sprint.id).isEmpty)

    // Changes while hidden are kept; the label that matches again brings it back whole.
    Reducer.reduce(into: &t, M.status("2026-11-04T09:00:00Z", "A", "done"))
    #expect(t.feature("A") == nil)
    Reducer.reduce(into: &t, Self.relabel("2026-11-05T09:00:00Z", "A", ["team:web"]))
    let back = try #require(t.feature("A"))
    #expect(back.status == "done")
    #expect(back.title == "Feature A")
    #expect(t.hiddenCount == 0)
    let versions = try #require(t.history(of: "A")?.versions)
    #expect(versions.map(\.exists) == [true, false, true])
    #expect(versions.last?.status == "done")
    #expect(t.recent.last?.featureId == "A" && t.recent.last?.from == nil, "it enters as if created")
  }

  @Test func aFilteredBoardEqualsTheBoardOfTheMatchingFeaturesEvents() {
    let events = [
      M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("A", ["team:web"]))),
      M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("B", ["team:api"]))),
      M.status("2026-11-03T09:00:00Z", "A", "in-progress"),
      M.status("2026-11-03T10:00:00Z", "B", "done"),
      M.event("2026-11-04T09:00:00Z", .featureDeleted(id: "B")),
    ]
    let filtered = M.state(events, from: BoardState(settings: Self.web))
    let only = M.state([events[0], events[2]], from: BoardState(settings: Self.web))
    // Events about hidden features are taken (counted) but change nothing shown.
    #expect(filtered.counters.applied == 5)
    #expect(filtered.features == only.features)
    #expect(filtered.history == only.history)
    #expect(Array(filtered.recent) == Array(only.recent))
    #expect(filtered.hiddenCount == 0, "the hidden feature's delete forgets it")
  }

  @Test func aSnapshotIsFilteredAndItsNoLongerMatchingFeaturesLeave() {
    let origin = "orchestra-db:/ws"
    func snap(_ time: String, _ fs: [Feature], seq: Int64) -> Event {
      M.event(time, .boardSnapshot(BoardSnapshot(features: fs, seq: seq)), origin: origin)
    }
    let settings = BoardSettings(filter: FeatureFilter(projects: ["web"]))
    var s = M.state(
      [
        snap(
          "2026-11-02T09:00:00Z",
          [Self.labelled("A", [], project: "web"), Self.labelled("B", [], project: "api")], seq: 1)
      ], from: BoardState(settings: settings))
    #expect(s.features.keys.map(\.id).sorted() == ["A"])
    #expect(s.hiddenCount == 1)
    // A moves to api, B to web: they change places.
    Reducer.reduce(
      into: &s,
      snap(
        "2026-11-03T09:00:00Z", [Self.labelled("A", [], project: "api"), Self.labelled("B", [], project: "web")], seq: 2
      ))
    #expect(s.features.keys.map(\.id).sorted() == ["B"])
    #expect(s.hiddenCount == 1)
    // Another source's features stay whatever this snapshot hides.
    Reducer.reduce(
      into: &s,
      M.event("2026-11-03T10:00:00Z", .featureCreated(Self.labelled("C", [], project: "web")), origin: "jsonl:x"))
    Reducer.reduce(into: &s, snap("2026-11-04T09:00:00Z", [], seq: 3))
    #expect(s.features.keys.map(\.id).sorted() == ["C"])
    #expect(s.hiddenCount == 0)
  }

  @Test(arguments: [
    (FeatureFilter(projects: ["web"]), [true, false, false, true]),
    (FeatureFilter(labels: ["a", "b"]), [true, true, false, false]),
    (FeatureFilter(assignees: ["ana"]), [true, false, true, false]),
    (FeatureFilter(projects: ["web", "api"], labels: ["b"]), [false, true, false, false]),
    (FeatureFilter.all, [true, true, true, true]),
  ])
  func matchesAnyValueOfEveryKeySet(filter: FeatureFilter, expected: [Bool]) {
    let fs = [
      Self.labelled("1", ["a"], project: "web", assignee: "ana"),
      Self.labelled("2", ["x", "b"], project: "api", assignee: "bo"),
      Self.labelled("3", [], project: nil, assignee: "ana"),
      Self.labelled("4", ["A"], project: "web", assignee: nil),
    ]
    #expect(fs.map(filter.matches) == expected)
  }

  @Test func hiddenFeaturesAreHeldToTheFeatureLimit() {
    var settings = Self.web
    settings.limits.maxFeatures = 2
    let s = M.state(
      (1...4).map { M.event("2026-11-02T09:00:00Z", .featureCreated(Self.labelled("H\($0)", ["team:api"]))) },
      from: BoardState(settings: settings))
    #expect(s.hiddenCount == 2)
    #expect(s.counters.ignored == 2)
  }
}

/// The ids of a sprint's members now, as `BoardState.membership` decides.
func members(_ s: BoardState, _ sprintId: String) -> [String] {
  s.features.values.filter { s.membership(of: $0).contains(sprintId) }.map(\.id).sorted()
}

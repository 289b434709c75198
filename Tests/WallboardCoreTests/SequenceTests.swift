import TestSupport
import Testing
import WallboardCore

@Suite("Sequence numbers: one cursor rule, no false gaps, no roll-back")
struct SequenceTests {
  typealias M = Make

  static func rejected(seq: Int64?, publisher: String? = nil, origin: String = "test") -> BoardInput {
    .rejected(
      origin: origin, at: M.t("2026-11-01T09:00:30Z"), reason: "payload.status: expected a string",
      position: seq.map { StreamPosition(publisher: publisher, seq: $0) })
  }

  @Test func aRejectedPayloadWithAReadableSeqIsNoGap() {
    var s = M.state([M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A")), seq: 1)])
    #expect(Reducer.reduce(into: &s, Self.rejected(seq: 2)) == .rejected("payload.status: expected a string"))
    Reducer.reduce(into: &s, .event(M.status("2026-11-01T09:01:00Z", "A", "done", seq: 3)))
    #expect(s.origins["test"]?.gaps == 0)
    #expect(s.origins["test"]?.needsResync == false)
    #expect(s.origins["test"]?.rejected == 1)
    #expect(s.features["A"]?.status == "done")
  }

  @Test func aRejectionWithoutANumberLeavesTheGapToBeSeen() {
    var s = M.state([M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A")), seq: 1)])
    Reducer.reduce(into: &s, Self.rejected(seq: nil))
    Reducer.reduce(into: &s, .event(M.status("2026-11-01T09:01:00Z", "A", "done", seq: 3)))
    #expect(s.origins["test"]?.gaps == 1)
    #expect(s.origins["test"]?.lastGap == 2...2)
  }

  @Test func anIgnoredTopicAdvancesTheCursor() {
    var s = BoardState()
    #expect(
      Reducer.reduce(into: &s, M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A")), seq: 1)) == .applied)
    #expect(
      Reducer.reduce(into: &s, M.event("2026-11-01T09:00:10Z", .unknown(topic: "note.created"), seq: 2))
        == .ignored(nil))
    Reducer.reduce(into: &s, M.status("2026-11-01T09:01:00Z", "A", "done", seq: 3))
    #expect(s.origins["test"]?.gaps == 0)
    #expect(s.origins["test"]?.needsResync == false)
  }

  @Test func theReducerSaysWhatItDid() {
    var s = BoardState()
    #expect(Reducer.reduce(into: &s, M.event("2026-11-01T09:00:00Z", .heartbeat, seq: 4)) == .applied)
    #expect(Reducer.reduce(into: &s, M.event("2026-11-01T09:00:00Z", .heartbeat, seq: 4)) == .duplicate)
    #expect(
      Reducer.reduce(into: &s, M.event("2026-11-01T09:00:00Z", .featureDeleted(id: "X"), seq: 5))
        == .ignored(.unknownFeature(topic: "feature.deleted", FeatureKey(id: "X"))))
    #expect(s.origins["test"]?.lastError == "feature.deleted: unknown feature X")
  }

  @Test func aResyncSnapshotOlderThanWhatWasAppliedIsIgnored() {
    // As the Orchestra source delivers them: live events name their publisher, a snapshot
    // (the answer to `board_snapshot`) names none and carries its own seq.
    var s = M.state([
      M.event("2026-11-01T09:00:00Z", .boardSnapshot(BoardSnapshot(features: [M.feature("A")], seq: 10)), seq: 10),
      M.status("2026-11-01T09:01:00Z", "A", "in-progress", seq: 11).with(publisher: "tools.features"),
      M.status("2026-11-01T09:02:00Z", "A", "done", seq: 12).with(publisher: "tools.features"),
    ])
    let stale = M.event(
      "2026-11-01T09:03:00Z", .boardSnapshot(BoardSnapshot(features: [M.feature("A", status: "todo")], seq: 10)),
      seq: 10)
    #expect(
      Reducer.reduce(into: &s, stale) == .ignored(.staleSnapshot(seq: 10, applied: 12)))
    #expect(s.origins["test"]?.lastError == "board.snapshot at seq 10 is older than seq 12 already applied")
    #expect(s.features["A"]?.status == "done")
    // The stream goes on without another resync.
    Reducer.reduce(
      into: &s, M.status("2026-11-01T09:04:00Z", "A", "in-review", seq: 13).with(publisher: "tools.features"))
    #expect(s.features["A"]?.status == "in-review")
    #expect(s.origins["test"]?.gaps == 0)
    #expect(s.origins["test"]?.needsResync == false)
  }

  @Test func aSnapshotAfterAReconnectIsFollowedEvenBackwards() {
    var s = M.state([
      M.event("2026-11-01T09:00:00Z", .boardSnapshot(BoardSnapshot(features: [M.feature("A")], seq: 10))),
      M.status("2026-11-01T09:02:00Z", "A", "done", seq: 11),
    ])
    // The server restarted and counts from the start again.
    Reducer.reduce(
      into: &s, .connection(origin: "test", status: .reconnecting, at: M.t("2026-11-01T09:05:00Z"), detail: nil))
    let restarted = M.event(
      "2026-11-01T09:06:00Z", .boardSnapshot(BoardSnapshot(features: [M.feature("A", status: "in-review")], seq: 2)))
    #expect(Reducer.reduce(into: &s, restarted) == .applied)
    #expect(s.features["A"]?.status == "in-review")
    Reducer.reduce(into: &s, M.status("2026-11-01T09:07:00Z", "A", "done", seq: 3))
    #expect(s.features["A"]?.status == "done")
    #expect(s.origins["test"]?.gaps == 0)
  }

  @Test func theCursorRuleStepByStep() {
    var c = SequenceCursor()
    #expect(c.advance(StreamPosition(publisher: "a", seq: 5)) == .next)
    #expect(c.advance(StreamPosition(publisher: "a", seq: 6)) == .next)
    #expect(c.advance(StreamPosition(publisher: "a", seq: 6)) == .duplicate(last: 6))
    #expect(c.advance(StreamPosition(publisher: "a", seq: 9)) == .gap(missing: 7...8))
    #expect(c.snapshot(seq: 20) == .follow)
    #expect(c.advance(StreamPosition(publisher: "b", seq: 20)) == .duplicate(last: 20))
    #expect(c.advance(StreamPosition(publisher: "b", seq: 21)) == .next)
    #expect(c.snapshot(seq: 15) == .stale(applied: 21))
    #expect(c.highest == 21)
    c.restart()
    #expect(c.snapshot(seq: 1) == .follow)
    #expect(c.advance(StreamPosition(publisher: "a", seq: 2)) == .next)
  }
}

@Suite("Sources do not erase each other")
struct ContributionTests {
  typealias M = Make

  static let fileSprint = M.sprint("S1", start: "2026-11-02", end: "2026-11-13", members: ["F1"])

  static func fromFile() -> [Event] {
    [
      M.event("2026-11-02T08:00:00Z", .sprintCreated(fileSprint), origin: "jsonl:team.jsonl"),
      M.event("2026-11-02T08:00:00Z", .featureCreated(M.feature("F1")), origin: "jsonl:team.jsonl"),
    ]
  }

  static func serverSnapshot(_ features: [Feature], seq: Int64 = 1) -> Event {
    M.event(
      "2026-11-02T09:00:00Z", .boardSnapshot(BoardSnapshot(features: features, sprints: [], seq: seq)),
      origin: "orchestra://127.0.0.1:50101")
  }

  @Test(arguments: [true, false])
  func aSnapshotReplacesOnlyItsOwnSourcesPart(serverFirst: Bool) {
    let server = Self.serverSnapshot([M.feature("O1"), M.feature("O2")])
    let s = M.state(serverFirst ? [server] + Self.fromFile() : Self.fromFile() + [server])
    #expect(s.sprints["S1"] == Self.fileSprint)
    #expect(s.features.keys.sorted() == ["F1", "O1", "O2"])
    #expect(s.activeSprintId == nil)
  }

  @Test func aLaterSnapshotRemovesWhatItsSourceNoLongerHas() {
    var s = M.state(Self.fromFile() + [Self.serverSnapshot([M.feature("O1"), M.feature("O2")])])
    Reducer.reduce(
      into: &s,
      M.event(
        "2026-11-02T10:00:00Z", .boardSnapshot(BoardSnapshot(features: [M.feature("O2")], seq: 2)),
        origin: "orchestra://127.0.0.1:50101"))
    #expect(s.features.keys.sorted() == ["F1", "O2"])
    #expect(s.sprints["S1"] != nil)
  }

  @Test func aSnapshotsActiveSprintIsClearedOnlyByItsOwnSource() {
    let named = M.event(
      "2026-11-02T09:00:00Z",
      .boardSnapshot(BoardSnapshot(sprints: [Self.fileSprint], activeSprintId: "S1", seq: 1)), origin: "a")
    let other = M.event("2026-11-02T09:30:00Z", .boardSnapshot(BoardSnapshot(seq: 1)), origin: "b")
    var s = M.state([named, other])
    #expect(s.activeSprintId == "S1")
    Reducer.reduce(into: &s, M.event("2026-11-02T10:00:00Z", .boardSnapshot(BoardSnapshot(seq: 2)), origin: "a"))
    #expect(s.activeSprintId == nil)
    #expect(s.sprints.isEmpty)
  }

  @Test func workflowsAreReplacedPerSource() {
    let wf = Workflow(states: [WorkflowState(id: "open"), WorkflowState(id: "shipped", terminal: true)])
    var s = M.state([M.event("2026-11-02T08:00:00Z", .workflowDefined(projectId: "p1", workflow: wf), origin: "a")])
    Reducer.reduce(
      into: &s,
      M.event(
        "2026-11-02T09:00:00Z",
        .boardSnapshot(BoardSnapshot(workflows: [WorkflowDefinition(projectId: "p2", workflow: .upstream)])),
        origin: "b"))
    #expect(s.workflows["p1"] == wf)
    #expect(s.workflows["p2"] == .upstream)
  }
}

@Suite("Done is the done state")
struct DoneStateTests {
  @Test func seedAndUpstreamSayDoneApartFromRejected() {
    #expect(Workflow.seed.isDone("done"))
    #expect(!Workflow.seed.isDone("rejected"))
    #expect(!Workflow.seed.isDone("cancelled"))
    #expect(Workflow.seed.isCompleted("rejected"))
    #expect(Workflow.upstream.isDone("done"))
    #expect(!Workflow.seed.isDone("in-review"))
  }

  @Test func aCustomWorkflowSaysWhichTerminalStatesAreDone() {
    let wf = Workflow(states: [
      WorkflowState(id: "open"),
      WorkflowState(id: "shipped", terminal: true),
      WorkflowState(id: "wontfix", terminal: true),
      WorkflowState(id: "parked", terminal: true, done: false),
      WorkflowState(id: "in-progress", done: true),
    ])
    #expect(wf.isDone("shipped"))
    #expect(!wf.isDone("wontfix"))
    #expect(!wf.isDone("parked"))
    #expect(!wf.isDone("in-progress"), "a state that is not terminal is never done")
  }
}

/// The reducer's reasons as values, and the lines they are shown as.
@Suite struct IgnoredReasonTests {
  @Test(arguments: [
    (
      Ignored.unknownFeature(topic: "feature.deleted", FeatureKey(project: "web", id: "F-1")),
      "feature.deleted: unknown feature web/F-1"
    ),
    (
      .ambiguousFeature(topic: "feature.updated", id: "F", projects: ["a", "b", "c", "d"]),
      "feature.updated: F is a feature of 4 projects (a, b, c, …); the event names none"
    ),
    (.unknownSprint(topic: "sprint.closed", id: "S9"), "sprint.closed: unknown sprint S9"),
    (
      .badSprint(
        topic: "sprint.created",
        .endsBeforeStart(id: "S1", start: Make.d("2026-11-10"), end: Make.d("2026-11-02"))),
      "sprint.created: sprint S1 ends (2026-11-02) before it starts (2026-11-10)"
    ),
    (.featureLimit(limit: 5, FeatureKey(id: "X"), hidden: true), "feature limit of 5 reached: X not kept"),
    (.featureLimit(limit: 5, FeatureKey(id: "X"), hidden: false), "feature limit of 5 reached: X not added"),
  ])
  func eachReasonSaysItself(reason: Ignored, line: String) {
    #expect(reason.description == line)
  }

  @Test func aSprintThatEndsBeforeItStartsIsIgnoredAsSuch() {
    var s = BoardState()
    let bad = Make.sprint("S1", start: "2026-11-10", end: "2026-11-02")
    let r = Reducer.reduce(into: &s, Make.event("2026-11-01T09:00:00Z", .sprintCreated(bad)))
    #expect(
      r
        == .ignored(
          .badSprint(
            topic: "sprint.created",
            .endsBeforeStart(id: "S1", start: Make.d("2026-11-10"), end: Make.d("2026-11-02")))))
    #expect(s.sprints.isEmpty)
  }
}

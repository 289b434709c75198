import TestSupport
import Testing
import WallboardCore

@Suite("The reducer")
struct ReducerTests {
  typealias M = Make

  @Test func createsAndUpdatesFeatures() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", status: "Todo", points: 3))),
      M.status("2026-11-02T09:00:00Z", "A", "in_progress"),
    ])
    #expect(s.features["A"]?.status == "in-progress")
    #expect(s.features["A"]?.points == 3)
    #expect(s.counters.applied == 2)
    #expect(s.recent.last?.to == "in-progress")
    #expect(s.history["A"]?.versions.count == 2)
  }

  @Test func nullClearsAndAbsentKeeps() {
    var patch = FeaturePatch(id: "A")
    patch.assignee = .some(nil)
    patch.title = "New"
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(Feature(id: "A", title: "Old", assignee: "ana", points: 2))),
      M.event("2026-11-01T10:00:00Z", .featureUpdated(patch)),
    ])
    #expect(s.features["A"]?.assignee == nil)
    #expect(s.features["A"]?.title == "New")
    #expect(s.features["A"]?.points == 2)
  }

  @Test func duplicateSeqIsIgnoredAndCounted() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A")), seq: 1),
      M.status("2026-11-01T10:00:00Z", "A", "done", seq: 2),
      M.status("2026-11-01T11:00:00Z", "A", "todo", seq: 2),
      M.status("2026-11-01T11:00:00Z", "A", "todo", seq: 1),
    ])
    #expect(s.features["A"]?.status == "done")
    #expect(s.counters.duplicates == 2)
    #expect(s.counters.applied == 2)
    #expect(s.origins["test"]?.duplicates == 2)
  }

  @Test func seqIsPerPublisher() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .heartbeat, seq: 5, publisher: "a"),
      M.event("2026-11-01T09:00:00Z", .heartbeat, seq: 5, publisher: "b"),
    ])
    #expect(s.counters.applied == 2)
    #expect(s.counters.duplicates == 0)
  }

  @Test func gapMarksTheSourceUntilASnapshot() {
    var s = M.state([
      M.event("2026-11-01T09:00:00Z", .heartbeat, seq: 1),
      M.event("2026-11-01T09:01:00Z", .heartbeat, seq: 4),
    ])
    #expect(s.origins["test"]?.gaps == 1)
    #expect(s.origins["test"]?.needsResync == true)
    #expect(s.counters.applied == 2)
    Reducer.reduce(into: &s, M.event("2026-11-01T09:02:00Z", .boardSnapshot(BoardSnapshot(seq: 9)), seq: 5))
    #expect(s.origins["test"]?.needsResync == false)
    #expect(s.origins["test"]?.cursor.last[""] == 9)
  }

  @Test func unknownTopicIsCountedAndIgnored() {
    let s = M.state([M.event("2026-11-01T09:00:00Z", .unknown(topic: "note.created"))])
    #expect(s.counters.ignored == 1)
    #expect(s.counters.applied == 0)
    #expect(s.features.isEmpty)
  }

  @Test func rejectionsAreCountedWithTheReason() {
    var s = BoardState()
    Reducer.reduce(
      into: &s, .rejected(origin: "jsonl:x", at: M.t("2026-11-01T09:00:00Z"), reason: "x:3: topic: missing"))
    #expect(s.counters.rejected == 1)
    #expect(s.origins["jsonl:x"]?.rejected == 1)
    #expect(s.origins["jsonl:x"]?.lastError == "x:3: topic: missing")
  }

  @Test func unknownStateIsKeptInFirstSeenOrder() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", status: "waiting-on-legal"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", status: "todo"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("C", status: "parked"))),
    ])
    #expect(s.features["A"]?.status == "waiting-on-legal")
    #expect(s.statusOrder == ["waiting-on-legal", "todo", "parked"])
  }

  @Test func deleteRemovesAndRecords() {
    let s = M.state([
      M.event(
        "2026-11-01T09:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A"]))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A"))),
      M.event("2026-11-03T09:00:00Z", .featureDeleted(id: "A")),
      M.event("2026-11-03T09:00:00Z", .featureDeleted(id: "nope")),
    ])
    #expect(s.features["A"] == nil)
    #expect(s.history["A"]?.versions.last?.exists == false)
    #expect(s.counters.ignored == 1)
  }

  @Test func membershipFromListsLabelsAndSprintId() {
    let s = M.state([
      M.event(
        "2026-11-01T09:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A"]))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", labels: ["sprint:s1"]))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("C", sprintId: "s1"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("D"))),
    ])
    #expect(s.membership(of: s.features["A"]!) == ["s1"])
    #expect(s.membership(of: s.features["B"]!) == ["s1"])
    #expect(s.membership(of: s.features["C"]!) == ["s1"])
    #expect(s.membership(of: s.features["D"]!) == [])
  }

  @Test func sprintEventsForUnknownSprintsAreIgnoredWithAReason() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .sprintStarted(id: "x", startedAt: nil, patch: SprintPatch())),
      M.event("2026-11-01T09:00:00Z", .sprintScopeChanged(sprintId: "x", added: ["A"], removed: [])),
      M.event("2026-11-01T09:00:00Z", .sprintClosed(id: "x", closedAt: nil)),
    ])
    #expect(s.counters.ignored == 3)
    #expect(s.origins["test"]?.lastError == "sprint.closed: unknown sprint x")
  }

  @Test func snapshotReplacesButKeepsHistory() {
    var s = M.state([
      M.event(
        "2026-11-01T09:00:00Z",
        .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A", "B"]))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", points: 3))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", points: 5))),
      M.event("2026-11-02T08:00:00Z", .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch())),
    ])
    let snap = BoardSnapshot(
      features: [M.feature("A", status: "done", points: 3)],
      sprints: [M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A"])],
      activeSprintId: "s1")
    Reducer.reduce(into: &s, M.event("2026-11-04T10:00:00Z", .boardSnapshot(snap)))
    #expect(s.features.keys.sorted() == ["A"])
    #expect(s.features["A"]?.status == "done")
    #expect(s.sprints["s1"]?.startedAt == M.t("2026-11-02T08:00:00Z"), "a snapshot never forgets the start")
    #expect(s.activeSprintId == "s1")
    #expect(s.history["A"]?.versions.count == 2)
    #expect(s.history["B"]?.versions.last?.exists == false)
    #expect(s.history["B"]?.version(atOrBefore: M.t("2026-11-03T00:00:00Z"))?.exists == true)
  }

  @Test func olderSnapshotInAStreamNeverRollsBack() {
    var s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A")), seq: 10)
    ])
    Reducer.reduce(
      into: &s, M.event("2026-11-01T09:00:00Z", .boardSnapshot(BoardSnapshot(features: [], seq: 5)), seq: 11))
    #expect(s.features["A"] != nil)
    #expect(s.counters.ignored == 1)
  }

  @Test func bootstrapSnapshotFromARestartedServerResetsTheCursors() {
    // The server restarted and counts from 1 again: its snapshot is the truth, and the events
    // after it apply rather than being dropped as duplicates.
    var s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A")), seq: 40, publisher: "tools"),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B")), seq: 41, publisher: "tools"),
    ])
    // The connection dropped and was made again: a new stream, whose bootstrap may go back.
    Reducer.reduce(
      into: &s, .connection(origin: "test", status: .reconnecting, at: M.t("2026-11-01T09:59:00Z"), detail: nil))
    Reducer.reduce(
      into: &s, M.event("2026-11-01T10:00:00Z", .boardSnapshot(BoardSnapshot(features: [M.feature("A")], seq: 2))))
    #expect(s.features.keys.sorted() == ["A"])
    Reducer.reduce(into: &s, M.status("2026-11-01T10:01:00Z", "A", "done", seq: 3).with(publisher: "tools"))
    #expect(s.features["A"]?.status == "done")
    #expect(s.counters.duplicates == 0)
  }

  @Test func historyNeverGoesBackInTime() {
    let s = M.state([
      M.event("2026-11-05T09:00:00Z", .featureCreated(M.feature("A"))),
      M.status("2026-11-03T09:00:00Z", "A", "done"),
    ])
    let v = s.history["A"]!.versions
    #expect(v.map(\.at) == [M.t("2026-11-05T09:00:00Z")], "same moment: the later fact replaces")
    #expect(v.last?.status == "done")
  }

  @Test func historyIsCapped() {
    var settings = BoardSettings()
    settings.limits.maxVersionsPerFeature = 4
    var events = [M.event("2026-11-01T00:00:00Z", .featureCreated(M.feature("A")))]
    for i in 1...10 {
      events.append(M.status("2026-11-01T10:\(i < 10 ? "0\(i)" : "\(i)"):00Z", "A", i % 2 == 0 ? "todo" : "done"))
    }
    let s = M.state(events, from: BoardState(settings: settings))
    #expect(s.history["A"]!.versions.count <= 4)
  }

  @Test func featureCapIgnoresNewFeatures() {
    var settings = BoardSettings()
    settings.limits.maxFeatures = 2
    let s = M.state(
      ["A", "B", "C"].map { M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature($0))) },
      from: BoardState(settings: settings))
    #expect(s.features.count == 2)
    #expect(s.counters.ignored == 1)
    #expect(s.origins["test"]?.lastError?.contains("feature limit") == true)
  }

  @Test func workflowDefinedPerProject() {
    let wf = Workflow(states: [WorkflowState(id: "open"), WorkflowState(id: "closed", terminal: true)])
    let s = M.state([M.event("2026-11-01T09:00:00Z", .workflowDefined(projectId: "p", workflow: wf))])
    #expect(s.workflow(forProject: "p") == wf)
    #expect(s.workflow(forProject: "q") == .seed)
  }

  @Test func connectionStatusIsRecorded() {
    var s = BoardState()
    Reducer.reduce(
      into: &s, .connection(origin: "o", status: .reconnecting, at: M.t("2026-11-01T09:00:00Z"), detail: "refused"))
    #expect(s.origins["o"]?.connection == .reconnecting)
    #expect(s.origins["o"]?.connectionDetail == "refused")
  }
}

extension Event {
  func with(publisher: String) -> Event {
    var e = self
    e.publisher = publisher
    return e
  }
}

@Suite struct RelayedInputTests {
  let position = RelayPosition(stream: 5, sequence: 9)

  @Test func aRelayedInputIsAppliedAsItselfAndItsPositionKeptInTheSameStep() {
    var direct = BoardState()
    var relayed = BoardState()
    let e = BoardInput.event(Make.event("2026-11-02T09:00:00Z", .featureCreated(Make.feature("F-1")), seq: 1))
    let r1 = Reducer.reduce(into: &direct, e)
    let r2 = Reducer.reduce(into: &relayed, .relayed(via: "nats://h:1/B", position: position, input: e))
    #expect(r1 == r2)
    #expect(relayed.origins["nats://h:1/B"]?.relayed == position)
    relayed.origins["nats://h:1/B"] = nil
    #expect(relayed == direct)
  }

  @Test func aRelayedWholeBoardReplacesTheBoardAndKeepsThePosition() {
    var board = BoardState()
    _ = Reducer.reduce(into: &board, .event(Make.event("2026-11-02T09:00:00Z", .featureCreated(Make.feature("old")))))
    var published = BoardState()
    _ = Reducer.reduce(
      into: &published, .event(Make.event("2026-11-02T09:00:00Z", .featureCreated(Make.feature("new")))))
    var store = BoardStore(state: board)
    store.markRestored()
    store.apply(.relayed(via: "w", position: position, input: .restored(published)))
    #expect(store.state.features.values.map(\.id) == ["new"])
    #expect(store.state.origins["w"]?.relayed == position)
    #expect(store.restoredFrom == nil, "a published board is the board now, not a memory")
  }
}

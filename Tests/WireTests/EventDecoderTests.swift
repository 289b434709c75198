import Foundation
import Testing
import WallboardCore
import Wire

let received = Instant(millis: 1_800_000_000_000)

func t(_ s: String) -> Instant { try! Instant(rfc3339: s) }
func d(_ s: String) -> CivilDate { CivilDate(parsing: s)! }

/// Decodes an envelope written as JSON text.
func decode(_ json: String, limits: EventLimits = EventLimits()) throws(EventDecodingError) -> Event {
  try EventDecoder(limits: limits).decode(
    line: Array(json.utf8), origin: "test", receivedAt: received)
}

/// Decodes `payload` under `topic`.
func body(
  _ topic: String, _ payload: String, limits: EventLimits = EventLimits()
)
  throws(EventDecodingError) -> Event.Body
{
  try decode(#"{"topic":"\#(topic)","payload":\#(payload)}"#, limits: limits).body
}

@Suite("Event decoder: envelope")
struct EnvelopeTests {
  @Test func readsEveryEnvelopeKey() throws {
    let e = try decode(
      #"{"topic":"feature.updated","event_type":"status_changed","time":"2026-11-03T09:15:00Z","seq":42,"source":"tools.features","payload":{"id":"FEAT-ABC","status":"in-review"}}"#
    )
    #expect(
      e
        == Event(
          origin: "test", publisher: "tools.features", seq: 42, time: t("2026-11-03T09:15:00Z"),
          receivedAt: received, eventType: "status_changed",
          body: .featureUpdated(FeaturePatch(id: "FEAT-ABC", status: "in-review"))))
  }

  @Test func timeDefaultsToReceivedAt() throws {
    let e = try decode(#"{"topic":"heartbeat","payload":{}}"#)
    #expect(e.time == received)
    #expect(e.seq == nil && e.publisher == nil && e.eventType == nil)
    #expect(e.body == .heartbeat)
    #expect(try decode(#"{"topic":"heartbeat","time":null,"payload":{}}"#).time == received)
  }

  @Test func unknownTopicIsNotAnError() throws {
    #expect(try body("feature.renamed", #"{"x":[1,2]}"#) == .unknown(topic: "feature.renamed"))
  }

  @Test func heartbeatAcceptsAnything() throws {
    #expect(try body("heartbeat", #"{"load":[1,{"a":null}],"ok":true}"#) == .heartbeat)
  }

  static let rejected: [(String, String)] = [
    ("{\"topic\":", "line: not JSON (at byte 9: unexpected end of input, expected a value)"),
    ("[1]", "envelope: expected an object, found an array"),
    (#"{"payload":{}}"#, "topic: missing"),
    (#"{"topic":7,"payload":{}}"#, "topic: expected a string, found a number"),
    (#"{"topic":"heartbeat"}"#, "payload: missing"),
    (#"{"topic":"heartbeat","payload":[]}"#, "payload: expected an object, found an array"),
    (#"{"topic":"heartbeat","payload":null}"#, "payload: expected an object, found null"),
    (
      #"{"topic":"heartbeat","time":"yesterday","payload":{}}"#,
      #"time: "yesterday" is not an RFC 3339 time"#
    ),
    (
      #"{"topic":"heartbeat","time":"2026-02-30T00:00:00Z","payload":{}}"#,
      #"time: "2026-02-30T00:00:00Z" is out of range (years 1970…9999, valid dates)"#
    ),
    (
      #"{"topic":"heartbeat","time":1700000000,"payload":{}}"#,
      "time: expected a string, found a number"
    ),
    (#"{"topic":"heartbeat","seq":"42","payload":{}}"#, "seq: expected an integer, found a string"),
    (#"{"topic":"heartbeat","seq":1.5,"payload":{}}"#, "seq: expected an integer, found 1.5"),
    (#"{"topic":"heartbeat","seq":-1,"payload":{}}"#, "seq: must not be negative, found -1"),
    (
      #"{"topic":"heartbeat","seq":1e16,"payload":{}}"#,
      "seq: greater than 2^53 − 1 (9007199254740991): beyond it, numbers cannot be told apart"
    ),
    (
      #"{"topic":"heartbeat","source":true,"payload":{}}"#,
      "source: expected a string, found a boolean"
    ),
    (
      #"{"topic":"heartbeat","event_type":{},"payload":{}}"#,
      "event_type: expected a string, found an object"
    ),
  ]

  @Test("rejects a bad envelope naming the key", arguments: rejected)
  func rejects(json: String, message: String) throws {
    let error = try #require(throws: EventDecodingError.self) { try decode(json) }
    #expect(error.description == message)
  }

  /// Issue 9, item 16: `9007199254740993` was read as 2^53 and accepted — another number than
  /// the one sent. 2^53 − 1 is the last that JSON numbers hold apart from their neighbours.
  @Test func seqUpTo2To53Minus1() throws {
    #expect(try decode(#"{"topic":"heartbeat","seq":9007199254740991,"payload":{}}"#).seq == (1 << 53) - 1)
    for big in ["9007199254740992", "9007199254740993", "9007199254740994", "18446744073709551617"] {
      let error = try #require(throws: EventDecodingError.self) {
        try decode(#"{"topic":"heartbeat","seq":\#(big),"payload":{}}"#)
      }
      #expect(error.path == "seq", "\(big)")
    }
    #expect(try decode(#"{"topic":"heartbeat","seq":0,"payload":{}}"#).seq == 0)
  }
}

@Suite("Event decoder: topics")
struct TopicTests {
  static let cases: [(String, String, Event.Body)] = [
    ("feature.created", #"{"id":"F-1"}"#, .featureCreated(Feature(id: "F-1"))),
    (
      "feature.created",
      #"{"id":"F-2","project_id":"P","title":"Login","status":"In_Progress","priority":"high","kind":"bug","assignee":"ann","labels":["ui","sprint:s1"],"estimate":"M","points":2.5,"sprint_id":"s1","created_at":"2026-11-01T08:00:00Z","updated_at":"2026-11-02T08:00:00+01:00","depends_on":["F-1","api/F-9"],"extra":{"ignored":true}}"#,
      .featureCreated(
        Feature(
          id: "F-2", projectId: "P", title: "Login", status: "in-progress", priority: "high",
          kind: "bug", assignee: "ann", labels: ["ui", "sprint:s1"], estimate: "M", points: 2.5,
          sprintId: "s1", createdAt: t("2026-11-01T08:00:00Z"),
          updatedAt: t("2026-11-02T07:00:00Z"), dependsOn: ["F-1", "api/F-9"]))
    ),
    ("feature.created", #"{"id":"F-3","estimate":3}"#, .featureCreated(Feature(id: "F-3", estimate: "3"))),
    (
      "feature.created", #"{"id":"F-4","estimate":1.5,"assignee":null}"#,
      .featureCreated(Feature(id: "F-4", estimate: "1.5"))
    ),
    (
      "feature.updated", #"{"feature_id":"F-1","status":"DONE"}"#,
      .featureUpdated(FeaturePatch(id: "F-1", status: "done"))
    ),
    ("feature.deleted", #"{"id":"F-1"}"#, .featureDeleted(id: "F-1")),
    ("feature.deleted", #"{"feature_id":"F-9"}"#, .featureDeleted(id: "F-9")),
    (
      "workflow.transitioned",
      #"{"feature_id":"F-1","to":"In Review","from":"in_progress","at":"2026-11-03T10:00:00Z"}"#,
      .workflowTransitioned(featureId: "F-1", to: "in-review", from: "in-progress", at: t("2026-11-03T10:00:00Z"))
    ),
    (
      "workflow.transitioned", #"{"id":"F-2","to":"done"}"#,
      .workflowTransitioned(featureId: "F-2", to: "done", from: nil, at: nil)
    ),
    (
      "workflow.defined",
      #"{"project_id":"P","states":[{"id":"To_Do","label":"To do"},{"id":"doing","active_work":true},{"id":"done","terminal":true}],"initial_state":"to-do"}"#,
      .workflowDefined(
        projectId: "P",
        workflow: Workflow(
          states: [
            WorkflowState(id: "to-do", label: "To do"), WorkflowState(id: "doing", activeWork: true),
            WorkflowState(id: "done", terminal: true),
          ], initialState: "to-do"))
    ),
    (
      "workflow.defined", #"{"states":[{"id":"open"}]}"#,
      .workflowDefined(projectId: nil, workflow: Workflow(states: [WorkflowState(id: "open")]))
    ),
    (
      "sprint.created", #"{"id":"s1","start_date":"2026-11-02","end_date":"2026-11-13"}"#,
      .sprintCreated(Sprint(id: "s1", name: "s1", startDate: d("2026-11-02"), endDate: d("2026-11-13")))
    ),
    (
      "sprint.created",
      #"{"id":"s2","name":"Sprint 2","goal":"Ship","start_date":"2026-11-16","end_date":"2026-11-16","feature_ids":["A","B"],"non_working_days":["Friday","sat"],"holidays":["2026-11-16"],"time_zone":"Europe/Paris","started_at":"2026-11-16T08:00:00Z","closed_at":"2026-11-17T08:00:00Z"}"#,
      .sprintCreated(
        Sprint(
          id: "s2", name: "Sprint 2", goal: "Ship", startDate: d("2026-11-16"), endDate: d("2026-11-16"),
          featureIds: ["A", "B"], nonWorkingDays: [.fri, .sat], holidays: [d("2026-11-16")],
          timeZone: "Europe/Paris", startedAt: t("2026-11-16T08:00:00Z"), closedAt: t("2026-11-17T08:00:00Z")))
    ),
    ("sprint.started", #"{"id":"s1"}"#, .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch())),
    (
      "sprint.started",
      #"{"id":"s1","started_at":"2026-11-02T08:00:00Z","name":"One","goal":null,"end_date":"2026-11-20","non_working_days":[]}"#,
      .sprintStarted(
        id: "s1", startedAt: t("2026-11-02T08:00:00Z"),
        patch: {
          var p = SprintPatch()
          p.name = "One"
          p.goal = .some(nil)
          p.endDate = d("2026-11-20")
          p.nonWorkingDays = []
          return p
        }())
    ),
    (
      "sprint.scope_changed", #"{"sprint_id":"s1","added":["D"]}"#,
      .sprintScopeChanged(sprintId: "s1", added: ["D"], removed: [])
    ),
    (
      "sprint.scope_changed", #"{"sprint_id":"s1","removed":["A","B"]}"#,
      .sprintScopeChanged(sprintId: "s1", added: [], removed: ["A", "B"])
    ),
    ("sprint.closed", #"{"id":"s1"}"#, .sprintClosed(id: "s1", closedAt: nil)),
    (
      "sprint.closed", #"{"id":"s1","closed_at":"2026-11-13T17:00:00Z"}"#,
      .sprintClosed(id: "s1", closedAt: t("2026-11-13T17:00:00Z"))
    ),
    (
      "board.snapshot",
      #"{"features":[{"id":"A","status":"todo","points":3},{"id":"B"}],"sprints":[{"id":"s1","start_date":"2026-11-02","end_date":"2026-11-13","started_at":"2026-11-02T08:00:00Z"}],"workflows":[{"states":[{"id":"todo"},{"id":"done","terminal":true}]}],"active_sprint_id":"s1","seq":77}"#,
      .boardSnapshot(
        BoardSnapshot(
          features: [Feature(id: "A", status: "todo", points: 3), Feature(id: "B")],
          sprints: [
            Sprint(
              id: "s1", name: "s1", startDate: d("2026-11-02"), endDate: d("2026-11-13"),
              startedAt: t("2026-11-02T08:00:00Z"))
          ],
          workflows: [
            WorkflowDefinition(
              projectId: nil,
              workflow: Workflow(states: [WorkflowState(id: "todo"), WorkflowState(id: "done", terminal: true)]))
          ], activeSprintId: "s1", seq: 77))
    ),
    ("board.snapshot", #"{"features":[],"sprints":[]}"#, .boardSnapshot(BoardSnapshot())),
    ("heartbeat", "{}", .heartbeat),
    (
      "agents.locks",
      #"{"locks":[{"feature_id":"F-1","project_id":"web","session_id":"s1","locked_at":"2026-11-02 09:00:00"}]}"#,
      .agentLocks([
        AgentLock(feature: FeatureKey(project: "web", id: "F-1"), session: "s1", lockedAt: t("2026-11-02T09:00:00Z"))
      ])
    ),
  ]

  @Test("each topic decodes to its body", arguments: cases)
  func decodes(topic: String, payload: String, expected: Event.Body) throws {
    #expect(try body(topic, payload) == expected)
  }

  @Test func everyContractTopicIsCovered() {
    #expect(Set(Self.cases.map(\.0)) == Set(Event.topics))
  }

  @Test func featureUpdatedTellsNullFromAbsent() throws {
    let b = try body(
      "feature.updated",
      #"{"id":"F","assignee":null,"points":null,"sprint_id":"s2","estimate":"L","labels":[],"depends_on":["G"]}"#)
    var expected = FeaturePatch(id: "F")
    expected.dependsOn = ["G"]
    expected.assignee = .some(nil)
    expected.points = .some(nil)
    expected.sprintId = .some("s2")
    expected.estimate = .some("L")
    expected.labels = []
    #expect(b == .featureUpdated(expected))
    guard case .featureUpdated(let p) = b else { return }
    #expect(p.title == nil && p.status == nil && p.priority == nil && p.projectId == nil)
    #expect(p.kind == nil && p.createdAt == nil)
  }

  @Test func featureUpdatedEverything() throws {
    let b = try body(
      "feature.updated",
      #"{"id":"F","project_id":null,"title":"T","status":"in_docs","priority":"low","kind":null,"labels":["x"],"estimate":null,"points":5,"sprint_id":null,"created_at":"2026-11-01T00:00:00Z","updated_at":"2026-11-02T00:00:00Z"}"#
    )
    var expected = FeaturePatch(id: "F")
    expected.projectId = .some(nil)
    expected.title = "T"
    expected.status = "in-docs"
    expected.priority = .some("low")
    expected.kind = .some(nil)
    expected.labels = ["x"]
    expected.estimate = .some(nil)
    expected.points = .some(5)
    expected.sprintId = .some(nil)
    expected.createdAt = t("2026-11-01T00:00:00Z")
    expected.updatedAt = t("2026-11-02T00:00:00Z")
    #expect(b == .featureUpdated(expected))
  }

  @Test func decodeSnapshotIsPublic() throws {
    let json = try JSONParser.parse(#"{"features":[{"id":"A"}],"sprints":[]}"#)
    guard case .object(let o) = json else {
      Issue.record("not an object")
      return
    }
    #expect(try EventDecoder().decodeSnapshot(o) == BoardSnapshot(features: [Feature(id: "A")]))
  }
}

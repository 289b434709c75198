import Foundation
import TestSupport
import Testing
import WallboardCore
import Wire

@Suite("Event decoder: rejections")
struct RejectionTests {
  static let sprint = #""start_date":"2026-11-02","end_date":"2026-11-13""#

  /// (topic, payload, the error's description).
  static let cases: [(String, String, String)] = [
    // Required keys.
    ("feature.created", "{}", "payload.id: missing"),
    ("feature.updated", #"{"status":"done"}"#, "payload.id: missing (or feature_id)"),
    ("feature.deleted", "{}", "payload.id: missing (or feature_id)"),
    ("workflow.transitioned", #"{"to":"done"}"#, "payload.feature_id: missing (or id)"),
    ("workflow.transitioned", #"{"feature_id":"F"}"#, "payload.to: missing"),
    ("workflow.defined", "{}", "payload.states: missing"),
    ("sprint.created", #"{\#(sprint)}"#, "payload.id: missing"),
    ("sprint.created", #"{"id":"s","end_date":"2026-11-13"}"#, "payload.start_date: missing"),
    ("sprint.created", #"{"id":"s","start_date":"2026-11-13"}"#, "payload.end_date: missing"),
    ("sprint.started", "{}", "payload.id: missing"),
    ("sprint.scope_changed", #"{"added":["A"]}"#, "payload.sprint_id: missing"),
    ("sprint.closed", "{}", "payload.id: missing"),
    ("board.snapshot", #"{"sprints":[]}"#, "payload.features: missing"),
    ("board.snapshot", #"{"features":[]}"#, "payload.sprints: missing"),
    // Wrong types.
    ("feature.created", #"{"id":7}"#, "payload.id: expected a string, found a number"),
    ("feature.created", #"{"id":null}"#, "payload.id: expected a string, found null"),
    ("feature.created", #"{"id":"F","title":["x"]}"#, "payload.title: expected a string, found an array"),
    ("feature.created", #"{"id":"F","status":3}"#, "payload.status: expected a string, found a number"),
    ("feature.created", #"{"id":"F","labels":"ui"}"#, "payload.labels: expected an array of strings, found a string"),
    ("feature.created", #"{"id":"F","labels":["ui",4]}"#, "payload.labels[1]: expected a string, found a number"),
    ("feature.created", #"{"id":"F","points":"3"}"#, "payload.points: expected a number, found a string"),
    ("feature.created", #"{"id":"F","points":-1}"#, "payload.points: must not be negative, found -1"),
    ("feature.created", #"{"id":"F","points":1000001}"#, "payload.points: greater than 1000000"),
    ("feature.created", #"{"id":"F","estimate":true}"#, "payload.estimate: expected a string, found a boolean"),
    ("feature.created", #"{"id":"F","sprint_id":1}"#, "payload.sprint_id: expected a string, found a number"),
    (
      "feature.created", #"{"id":"F","created_at":"2026-11-03"}"#,
      #"payload.created_at: "2026-11-03" is not an RFC 3339 time"#
    ),
    ("feature.created", #"{"id":""}"#, "payload.id: must not be empty"),
    ("feature.created", #"{"id":"F","status":"  "}"#, "payload.status: must not be empty"),
    ("feature.updated", #"{"id":"F","title":null}"#, "payload.title: must not be null"),
    ("feature.updated", #"{"id":"F","status":null}"#, "payload.status: must not be null"),
    ("feature.updated", #"{"id":"F","labels":null}"#, "payload.labels: must not be null"),
    ("feature.updated", #"{"id":"F","depends_on":null}"#, "payload.depends_on: must not be null"),
    (
      "feature.created", #"{"id":"F","depends_on":"FEAT-1"}"#,
      "payload.depends_on: expected an array of strings, found a string"
    ),
    ("feature.updated", #"{"feature_id":"F","points":[]}"#, "payload.points: expected a number, found an array"),
    ("feature.deleted", #"{"feature_id":{}}"#, "payload.feature_id: expected a string, found an object"),
    ("workflow.transitioned", #"{"feature_id":"F","to":null}"#, "payload.to: expected a string, found null"),
    (
      "workflow.transitioned", #"{"feature_id":"F","to":"done","at":"soon"}"#,
      #"payload.at: "soon" is not an RFC 3339 time"#
    ),
    ("workflow.defined", #"{"states":[]}"#, "payload.states: must not be empty"),
    ("workflow.defined", #"{"states":{}}"#, "payload.states: expected an array of objects, found an object"),
    ("workflow.defined", #"{"states":["todo"]}"#, "payload.states[0]: expected an object, found a string"),
    ("workflow.defined", #"{"states":[{"label":"x"}]}"#, "payload.states[0].id: missing"),
    (
      "workflow.defined", #"{"states":[{"id":"a","terminal":"yes"}]}"#,
      "payload.states[0].terminal: expected a boolean, found a string"
    ),
    (
      "workflow.defined", #"{"states":[{"id":"In_Review"},{"id":"in-review"}]}"#,
      #"payload.states[1].id: duplicate state "in-review""#
    ),
    (
      "workflow.defined", #"{"states":[{"id":"a"}],"initial_state":"b"}"#,
      #"payload.initial_state: "b" is not one of the states"#
    ),
    // Dates.
    (
      "sprint.created", #"{"id":"s","start_date":"2026-13-01","end_date":"2026-11-13"}"#,
      #"payload.start_date: "2026-13-01" is not a YYYY-MM-DD date"#
    ),
    (
      "sprint.created", #"{"id":"s","start_date":"2026-11-02","end_date":"2026-02-29"}"#,
      #"payload.end_date: "2026-02-29" is not a YYYY-MM-DD date"#
    ),
    (
      "sprint.created", #"{"id":"s","start_date":"2026-11-2","end_date":"2026-11-13"}"#,
      #"payload.start_date: "2026-11-2" is not a YYYY-MM-DD date"#
    ),
    (
      "sprint.created", #"{"id":"s","start_date":20261102,"end_date":"2026-11-13"}"#,
      "payload.start_date: expected a string, found a number"
    ),
    (
      "sprint.created", #"{"id":"s","start_date":"2026-11-13","end_date":"2026-11-02"}"#,
      #"payload.end_date: "2026-11-02" is before start_date "2026-11-13""#
    ),
    (
      "sprint.created", #"{"id":"s",\#(sprint),"holidays":["2026-11-05","5 Nov"]}"#,
      #"payload.holidays[1]: "5 Nov" is not a YYYY-MM-DD date"#
    ),
    (
      "sprint.created", #"{"id":"s",\#(sprint),"non_working_days":["sun","funday"]}"#,
      #"payload.non_working_days[1]: "funday" is not a weekday name"#
    ),
    (
      "sprint.created", #"{"id":"s",\#(sprint),"feature_ids":"A"}"#,
      "payload.feature_ids: expected an array of strings, found a string"
    ),
    ("sprint.created", #"{"id":"s",\#(sprint),"feature_ids":["A",""]}"#, "payload.feature_ids[1]: must not be empty"),
    (
      "sprint.created", #"{"id":"s",\#(sprint),"closed_at":"2026-11-13T25:00:00Z"}"#,
      #"payload.closed_at: "2026-11-13T25:00:00Z" is out of range (years 1970…9999, valid dates)"#
    ),
    (
      "sprint.started", #"{"id":"s","start_date":"2026-11-13","end_date":"2026-11-02"}"#,
      #"payload.end_date: "2026-11-02" is before start_date "2026-11-13""#
    ),
    ("sprint.started", #"{"id":"s","name":null}"#, "payload.name: must not be null"),
    ("sprint.started", #"{"id":"s","started_at":12}"#, "payload.started_at: expected a string, found a number"),
    ("sprint.scope_changed", #"{"sprint_id":"s","added":[1]}"#, "payload.added[0]: expected a string, found a number"),
    (
      "sprint.scope_changed", #"{"sprint_id":"s","removed":{}}"#,
      "payload.removed: expected an array of strings, found an object"
    ),
    (
      "sprint.closed", #"{"id":"s","closed_at":"2026-11-13"}"#,
      #"payload.closed_at: "2026-11-13" is not an RFC 3339 time"#
    ),
    // Snapshots name the element.
    (
      "board.snapshot", #"{"features":[{"id":"A"},{"id":"B","status":false}],"sprints":[]}"#,
      "payload.features[1].status: expected a string, found a boolean"
    ),
    (
      "board.snapshot", #"{"features":[],"sprints":[{"id":"s","start_date":"2026-11-31","end_date":"2026-12-01"}]}"#,
      #"payload.sprints[0].start_date: "2026-11-31" is not a YYYY-MM-DD date"#
    ),
    (
      "board.snapshot", #"{"features":[],"sprints":[],"workflows":[{"states":[{"id":"a"},{"id":"a"}]}]}"#,
      #"payload.workflows[0].states[1].id: duplicate state "a""#
    ),
    (
      "board.snapshot", #"{"features":{},"sprints":[]}"#,
      "payload.features: expected an array of objects, found an object"
    ),
    ("board.snapshot", #"{"features":[],"sprints":[],"seq":-2}"#, "payload.seq: must not be negative, found -2"),
    (
      "board.snapshot", #"{"features":[],"sprints":[],"active_sprint_id":""}"#,
      "payload.active_sprint_id: must not be empty"
    ),
  ]

  @Test("rejects a bad payload naming the key", arguments: cases)
  func rejects(topic: String, payload: String, message: String) throws {
    let error = try #require(throws: EventDecodingError.self) { try body(topic, payload) }
    #expect(error.description == message)
  }

  @Test func errorDescriptionIsPathThenProblem() {
    let e = EventDecodingError(path: "payload.status", problem: "expected a string, found a number")
    #expect(e.description == "payload.status: expected a string, found a number")
  }
}

@Suite("Event decoder: caps")
struct CapTests {
  @Test func idLength() throws {
    let ok = String(repeating: "a", count: 256)
    #expect(try body("feature.deleted", #"{"id":"\#(ok)"}"#) == .featureDeleted(id: ok))
    let error = try #require(throws: EventDecodingError.self) {
      try body("feature.deleted", #"{"id":"\#(ok)é"}"#)
    }
    #expect(error.description == "payload.id: longer than 256 bytes")
  }

  @Test func titleAndOtherStrings() throws {
    let title = String(repeating: "t", count: 4_097)
    let e1 = try #require(throws: EventDecodingError.self) {
      try body("feature.created", #"{"id":"F","title":"\#(title)"}"#)
    }
    #expect(e1.description == "payload.title: longer than 4096 bytes")
    let label = String(repeating: "l", count: 1_025)
    let e2 = try #require(throws: EventDecodingError.self) {
      try body("feature.created", #"{"id":"F","labels":["ok","\#(label)"]}"#)
    }
    #expect(e2.description == "payload.labels[1]: longer than 1024 bytes")
  }

  @Test func dependencyCount() throws {
    let ids = (0...256).map { "\"F\($0)\"" }.joined(separator: ",")
    let error = try #require(throws: EventDecodingError.self) {
      try body("feature.created", #"{"id":"F","depends_on":[\#(ids)]}"#)
    }
    #expect(error.description == "payload.depends_on: more than 256 entries")
  }

  @Test func labelCount() throws {
    let labels = (0...256).map { "\"l\($0)\"" }.joined(separator: ",")
    let error = try #require(throws: EventDecodingError.self) {
      try body("feature.created", #"{"id":"F","labels":[\#(labels)]}"#)
    }
    #expect(error.description == "payload.labels: more than 256 entries")
  }

  @Test func listsAndSnapshots() throws {
    var limits = EventLimits()
    limits.maxListCount = 2
    limits.maxSnapshotFeatures = 1
    limits.maxSnapshotSprints = 1
    limits.maxWorkflowStates = 2
    let cases: [(String, String, String)] = [
      ("sprint.scope_changed", #"{"sprint_id":"s","added":["a","b","c"]}"#, "payload.added: more than 2 entries"),
      (
        "sprint.created", #"{"id":"s","start_date":"2026-11-02","end_date":"2026-11-13","feature_ids":["a","b","c"]}"#,
        "payload.feature_ids: more than 2 entries"
      ),
      (
        "board.snapshot", #"{"features":[{"id":"a"},{"id":"b"}],"sprints":[]}"#, "payload.features: more than 1 entries"
      ),
      ("board.snapshot", #"{"features":[],"sprints":[{},{}]}"#, "payload.sprints: more than 1 entries"),
      ("workflow.defined", #"{"states":[{"id":"a"},{"id":"b"},{"id":"c"}]}"#, "payload.states: more than 2 entries"),
    ]
    for (topic, payload, message) in cases {
      let error = try #require(throws: EventDecodingError.self) {
        try body(topic, payload, limits: limits)
      }
      #expect(error.description == message)
    }
    #expect(
      try body("sprint.scope_changed", #"{"sprint_id":"s","added":["a","b"]}"#, limits: limits)
        == .sprintScopeChanged(sprintId: "s", added: ["a", "b"], removed: []))
  }

  @Test func jsonLimitsApplyToLines() throws {
    var limits = EventLimits()
    limits.json.maxDepth = 2
    let error = try #require(throws: EventDecodingError.self) {
      try decode(#"{"topic":"heartbeat","payload":{"a":{}}}"#, limits: limits)
    }
    #expect(error.description == "line: not JSON (at byte 36: nesting deeper than 2)")
  }
}

@Suite("Event decoder: worked example")
struct WorkedExampleTests {
  /// `Tests/Fixtures/reference/examples/worked-example.jsonl`, the project's copy.
  static var exampleURL: URL {
    Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl")
  }

  @Test func decodesNineEventsWithTheRightBodies() throws {
    let data = try Data(contentsOf: Self.exampleURL)
    var framer = JSONLinesFramer()
    let items = framer.push(Array(data)) + framer.finish()
    let decoder = EventDecoder()
    var events: [Event] = []
    for item in items {
      guard case .line(let bytes, _) = item else {
        Issue.record("unexpected \(item)")
        continue
      }
      events.append(try decoder.decode(line: bytes, origin: "jsonl:example", receivedAt: received))
    }
    try #require(events.count == 9)
    let created = ["A": 3.0, "B": 5, "C": 2, "D": 8].sorted { $0.key < $1.key }.map { id, points in
      Event.Body.featureCreated(Feature(id: id, title: "Feature \(id)", status: "todo", points: points))
    }
    let expected: [Event.Body] =
      created + [
        .sprintCreated(
          Sprint(
            id: "s1", name: "Sprint 1", startDate: d("2026-11-02"), endDate: d("2026-11-13"),
            featureIds: ["A", "B", "C"])),
        .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch()),
        .featureUpdated(FeaturePatch(id: "B", status: "in-progress")),
        .featureUpdated(FeaturePatch(id: "B", status: "done")),
        .sprintScopeChanged(sprintId: "s1", added: ["D"], removed: []),
      ]
    #expect(events.map(\.body) == expected)
    #expect(events.map(\.seq) == (1...9).map { Int64($0) })
    #expect(events.allSatisfy { $0.publisher == "example" && $0.origin == "jsonl:example" })
    #expect(events[5].time == t("2026-11-02T08:00:00Z"))
    #expect(events[8].time == t("2026-11-05T11:00:00Z"))
  }
}

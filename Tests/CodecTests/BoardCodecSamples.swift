import TestSupport

@testable import Codec
@testable import WallboardCore

/// Hand-built values for the codec's tests: every input and body case, every optional field
/// present and absent, every "set to nil" distinction, extremes, and a board whose every
/// internal field holds something.
enum CodecSamples {
  typealias M = Make

  static let t0 = M.t("2026-11-02T09:00:00Z")
  /// The last moment an instant may hold: 9999-12-31T23:59:59.999Z.
  static let lastMoment = Instant(millis: Instant.endOfYear9999 - 1)

  /// A feature with every field set, non-ASCII and awkward numbers included.
  static let fullFeature = Feature(
    id: "F-ü1", projectId: "P1", title: "Zürich ✓ 日本語 🚀", status: "in-progress", priority: "high",
    kind: "bug", assignee: "Zoë", labels: ["team-a", "sprint:S2", ""], estimate: "XL", points: -0.0,
    sprintId: "S1", createdAt: Instant(millis: 0), updatedAt: lastMoment, dependsOn: ["F-2", "P2/F-ü1", ""])

  /// A feature with every optional field absent and empty strings.
  static let bareFeature = Feature(id: "", title: "", status: "")

  /// Features whose points are the doubles that are easy to lose.
  static let awkwardPoints: [Double] = [
    -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.0 / 3.0, -1e-300,
  ]

  /// Patches: nothing mentioned, everything set, everything that can be cleared cleared.
  static var patches: [FeaturePatch] {
    var set = FeaturePatch(id: "F-1")
    set.projectId = "P2"
    set.title = "Neu: Überschrift"
    set.status = "done"
    set.priority = "low"
    set.kind = "task"
    set.assignee = "Åsa"
    set.labels = ["x", "y"]
    set.estimate = "3"
    set.points = 2.5
    set.sprintId = "S2"
    set.createdAt = t0
    set.updatedAt = lastMoment
    set.dependsOn = ["F-0", "P1/F-9"]
    var cleared = FeaturePatch(id: "F-2")
    cleared.projectId = .some(nil)
    cleared.priority = .some(nil)
    cleared.kind = .some(nil)
    cleared.assignee = .some(nil)
    cleared.estimate = .some(nil)
    cleared.points = .some(nil)
    cleared.sprintId = .some(nil)
    cleared.labels = []
    cleared.dependsOn = []
    cleared.title = ""
    var mixed = FeaturePatch(id: "F-3", status: "in-review")
    mixed.points = .some(-0.0)
    mixed.priority = .some(nil)
    return [FeaturePatch(id: "F-0"), set, cleared, mixed]
  }

  static let fullSprint = Sprint(
    id: "S1", name: "Sprint ①", goal: "Ship it", startDate: M.d("2026-11-02"), endDate: M.d("2026-11-13"),
    featureIds: ["F-1", "F-2"], nonWorkingDays: [.sat, .sun, .wed], holidays: [M.d("2026-11-11"), M.d("2026-11-05")],
    timeZone: "Europe/Zürich", startedAt: t0, closedAt: lastMoment, membershipLabel: "team-a",
    activation: .dates)

  static let bareSprint = Sprint(
    id: "S2", name: "", startDate: M.d("1970-01-01"), endDate: M.d("9999-12-31"), nonWorkingDays: [])

  static var sprintPatches: [SprintPatch] {
    var set = SprintPatch()
    set.name = "Renamed"
    set.goal = "A goal"
    set.startDate = M.d("2026-11-03")
    set.endDate = M.d("2026-11-14")
    set.featureIds = ["F-9"]
    set.nonWorkingDays = [.mon, .tue, .wed, .thu, .fri, .sat, .sun]
    set.holidays = [M.d("2026-11-04")]
    set.timeZone = "UTC"
    var cleared = SprintPatch()
    cleared.goal = .some(nil)
    cleared.timeZone = .some(nil)
    cleared.nonWorkingDays = []
    cleared.holidays = []
    cleared.featureIds = []
    return [SprintPatch(), set, cleared]
  }

  /// A workflow whose states carry every combination of flags, with aliases.
  static var oddWorkflow: Workflow {
    var states = [
      WorkflowState(id: "Open", label: "Öffnen"),
      WorkflowState(id: "doing", label: "", activeWork: true),
      WorkflowState(id: "shipped", terminal: true, activeWork: true),
      WorkflowState(id: "rejected", terminal: true),
    ]
    // A combination no initialiser makes (done but not terminal) still round-trips.
    var odd = WorkflowState(id: "odd")
    odd.done = true
    states.append(odd)
    var w = Workflow(states: states, initialState: "doing", aliases: ["old": "Open", "ünï": "shipped"])
    w.initialState = "Not Normalised"
    return w
  }

  static var snapshot: BoardSnapshot {
    BoardSnapshot(
      features: [fullFeature, bareFeature], sprints: [fullSprint, bareSprint],
      workflows: [
        WorkflowDefinition(projectId: nil, workflow: .seed), WorkflowDefinition(projectId: "P1", workflow: oddWorkflow),
      ],
      activeSprintId: "S1", seq: Int64.max,
      history: [
        "F-ü1": [StatusMove(at: Instant(millis: 0), status: "todo"), StatusMove(at: t0, status: "in-progress")],
        "B": [],
      ])
  }

  /// Every body case, several with their optional fields both present and absent.
  static var bodies: [Event.Body] {
    var out: [Event.Body] = [
      .featureCreated(fullFeature), .featureCreated(bareFeature), .featureDeleted(id: "F-1"),
      .featureDeleted(id: ""),
      .workflowTransitioned(featureId: "F-1", to: "done", from: "in-review", at: t0),
      .workflowTransitioned(featureId: "F-1", to: "done", from: nil, at: nil),
      .workflowDefined(projectId: nil, workflow: .seed), .workflowDefined(projectId: "P1", workflow: .upstream),
      .workflowDefined(projectId: "", workflow: oddWorkflow),
      .sprintCreated(fullSprint), .sprintCreated(bareSprint),
      .sprintScopeChanged(sprintId: "S1", added: ["F-3", "F-4"], removed: ["F-1"]),
      .sprintScopeChanged(sprintId: "S1", added: [], removed: []),
      .sprintClosed(id: "S1", closedAt: lastMoment), .sprintClosed(id: "S1", closedAt: nil),
      .boardSnapshot(snapshot), .boardSnapshot(BoardSnapshot()), .heartbeat, .unknown(topic: "thing.happened"),
      .unknown(topic: ""),
    ]
    out += patches.map { .featureUpdated($0) }
    out += sprintPatches.map { .sprintStarted(id: "S1", startedAt: t0, patch: $0) }
    out.append(.sprintStarted(id: "S1", startedAt: nil, patch: SprintPatch()))
    out += awkwardPoints.map { p in
      var f = bareFeature
      f.points = p
      return .featureCreated(f)
    }
    return out
  }

  /// Every input case: each body in an event, events with and without their optional envelope
  /// fields, rejections, connections, and a restored board.
  static var inputs: [BoardInput] {
    var out = bodies.map { BoardInput.event(Event(origin: "sim", time: t0, body: $0)) }
    out += [
      .event(
        Event(
          origin: "orchestra://höst:7000", publisher: "orchestra", seq: Int64.max, time: lastMoment,
          receivedAt: Instant(millis: 0), eventType: "status", body: .heartbeat)),
      .event(
        Event(origin: "", publisher: "", seq: Int64.min, time: Instant(millis: 0), eventType: "", body: .heartbeat)),
      .event(Event(origin: "jsonl:/tmp/x", seq: 0, time: t0, receivedAt: t0.adding(seconds: 1), body: .heartbeat)),
      .rejected(origin: "jsonl:/a", at: t0, reason: "line 3: key \"time\": not RFC 3339"),
      .rejected(origin: "jsonl:/a", at: t0, reason: "", position: StreamPosition(publisher: nil, seq: Int64.min)),
      .rejected(origin: "jsonl:/a", at: t0, reason: "bad", position: StreamPosition(publisher: "pub", seq: 42)),
      .restored(BoardState()), .restored(richState),
      .relayed(
        via: "nats://hub:4222/TEAM", position: RelayPosition(stream: Int64.min, sequence: UInt64.max),
        input: .restored(richState)),
      .relayed(
        via: "", position: RelayPosition(stream: 0, sequence: 0),
        input: .rejected(origin: "nats://hub:4222/TEAM", at: t0, reason: "message 3: bad")),
    ]
    for status in [ConnectionStatus.connecting, .live, .reconnecting, .offline, .ended] {
      out.append(.connection(origin: "sim", status: status, at: t0, detail: nil))
      out.append(.connection(origin: "sim", status: status, at: lastMoment, detail: "détail"))
    }
    return out
  }

  /// A board whose every field, internal ones included, holds something: built by the reducer
  /// from events covering the filter, sprints by list and by label, gaps, duplicates, a backfilled
  /// snapshot from a second source, then given extremes directly.
  static var richState: BoardState {
    var settings = BoardSettings(
      workflow: oddWorkflow, estimateScale: try! EstimateScale(sizes: ["S": 1, "XXL": 13, "Ω": 0.5]),
      filter: FeatureFilter(projects: ["P1"], labels: [], assignees: []))
    settings.limits.recentTransitions = 2
    settings.limits.maxSprints = 9
    var s = BoardState(settings: settings)
    var labelled = fullSprint
    labelled.id = "S3"
    labelled.activation = .events
    labelled.closedAt = nil
    let a = Feature(id: "A", projectId: "P1", title: "Α", status: "Open", labels: ["team-a"], estimate: "XXL")
    let b = Feature(id: "B", projectId: "P1", status: "doing", labels: ["sprint:S1"], points: 3)
    let hidden = Feature(id: "H", projectId: "P2", title: "hidden", status: "Open")
    let events: [Event] = [
      Event(origin: "sim", publisher: "p", seq: 1, time: t0, body: .sprintCreated(fullSprint)),
      Event(origin: "sim", publisher: "p", seq: 2, time: t0, body: .sprintCreated(labelled)),
      Event(origin: "sim", publisher: "p", seq: 3, time: t0, body: .featureCreated(a)),
      Event(origin: "sim", publisher: "p", seq: 4, time: t0, body: .featureCreated(b)),
      Event(origin: "sim", publisher: "p", seq: 5, time: t0, body: .featureCreated(hidden)),
      Event(
        origin: "sim", publisher: "p", seq: 9, time: t0.adding(seconds: 60),
        body: .featureUpdated(FeaturePatch(id: "A", status: "shipped"))),
      Event(origin: "sim", publisher: "p", seq: 9, time: t0.adding(seconds: 61), body: .heartbeat),
      Event(
        origin: "sim", publisher: "p", seq: 10, time: t0.adding(seconds: 120),
        body: .workflowTransitioned(featureId: "B", to: "shipped", from: "doing", at: nil)),
      Event(
        origin: "sim", seq: 11, time: t0.adding(seconds: 130),
        body: .workflowDefined(projectId: "P1", workflow: .upstream)),
      Event(
        origin: "db", seq: 7, time: t0.adding(seconds: 180),
        body: .boardSnapshot(
          BoardSnapshot(
            features: [Feature(id: "C", projectId: "P1", status: "todo", sprintId: "S1")], sprints: [],
            workflows: [WorkflowDefinition(projectId: "P9", workflow: .seed)], activeSprintId: "S1", seq: 7,
            history: ["C": [StatusMove(at: Instant(millis: 1000), status: "Open")]]))),
      Event(origin: "sim", publisher: "p", seq: 12, time: t0.adding(seconds: 240), body: .unknown(topic: "x")),
    ]
    // A connection change restarts the cursor: before the snapshot, which sets its floor.
    Reducer.reduce(into: &s, .connection(origin: "db", status: .reconnecting, at: t0, detail: "down"))
    for e in events { Reducer.reduce(into: &s, e) }
    Reducer.reduce(into: &s, .rejected(origin: "sim", at: t0, reason: "bad line", position: nil))
    // Extremes no short run reaches.
    s.counters.applied = 1 << 53
    s.counters.ignored = -(1 << 53)
    var o = OriginState()
    o.events = -1
    o.gaps = 1 << 53
    o.lastError = ""
    o.lastHeard = lastMoment
    o.lastEventAt = Instant(millis: 0)
    o.connection = .ended
    o.connectionSince = t0
    o.connectionDetail = "→"
    o.lastChangeAt = t0
    o.needsResync = true
    o.lastGap = Int64.min...Int64.max
    o.cursor = SequenceCursor(last: ["": Int64.min, "z": Int64.max], floor: Int64.min, restarted: false)
    o.historyFrom = lastMoment
    s.origins["extreme"] = o
    return s
  }
}

public import WallboardCore

/// Caps on what one event may carry. Every string is measured in UTF-8 bytes.
public struct EventLimits: Hashable, Sendable {
  /// Caps of the JSON parse itself (`decode(line:)`).
  public var json = JSONLimits()
  /// Ids: features, sprints, projects, workflow states. Empty ids are always rejected.
  public var maxIdBytes = 256
  /// Titles, sprint names and goals.
  public var maxTextBytes = 4_096
  /// Every other string (labels, priority, kind, assignee, estimate, time zone, topic…).
  public var maxStringBytes = 1_024
  public var maxLabels = 256
  /// Entries of one `depends_on`.
  public var maxDependencies = Feature.maxDependencies
  /// `feature_ids`, `added`, `removed`.
  public var maxListCount = 100_000
  public var maxSnapshotFeatures = 100_000
  public var maxSnapshotSprints = 1_000
  public var maxSnapshotWorkflows = 1_000
  public var maxWorkflowStates = 256
  /// Points, and numeric estimates: 0…`maxPoints` (at most `Feature.maxPoints`, which the
  /// board applies whatever decoded them).
  public var maxPoints = Feature.maxPoints
  /// Locks of one `agents.locks` (at most `AgentLock.maxPerSource`, which the board keeps).
  public var maxAgentLocks = AgentLock.maxPerSource

  public init() {}
}

/// Why a JSON value is not a valid event: the JSON path of the offending key and the problem.
public struct EventDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `payload.features[3].status`, `time`, `line`.
  public var path: String
  public var problem: String

  public init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  /// The envelope's `source` and `seq`, when they were read before the problem was found: the
  /// event's number arrived even though the event did not.
  public var position: StreamPosition?

  /// `payload.status: expected a string, found a number`.
  public var description: String { "\(path): \(problem)" }
}

/// Decodes events of the contract (`docs/events.md`) from JSON Lines or parsed JSON.
///
/// Pure: time enters only as `receivedAt`. Unknown topics decode to `.unknown(topic:)`; unknown
/// keys are ignored; wrong types are errors, never coerced (the one exception: a numeric
/// `estimate` becomes its string). An optional key whose value is `null` reads as absent,
/// except in `feature.updated` and `sprint.started`, where `null` clears a nullable field.
public struct EventDecoder: Sendable {
  public var limits: EventLimits

  public init(limits: EventLimits = EventLimits()) { self.limits = limits }

  /// Decodes one JSON Lines line (without its newline).
  public func decode(
    line: [UInt8], origin: String, receivedAt: Instant
  ) throws(EventDecodingError)
    -> Event
  {
    let envelope: JSONValue
    do throws(JSONError) {
      envelope = try JSONParser.parse(line, limits: limits.json)
    } catch {
      throw EventDecodingError(path: "line", problem: "not JSON (\(error))")
    }
    return try decode(envelope: envelope, origin: origin, receivedAt: receivedAt)
  }

  /// Decodes a parsed envelope: `topic`, `event_type`, `time`, `seq`, `source`, `payload`.
  public func decode(
    envelope: JSONValue, origin: String, receivedAt: Instant
  )
    throws(EventDecodingError) -> Event
  {
    guard case .object(let object) = envelope else {
      throw EventDecodingError(
        path: "envelope", problem: "expected an object, found \(envelope.kindDescription)")
    }
    let env = Fields(object, path: "", limits: limits)
    // The number first: whatever else is wrong, an event with a readable `seq` arrived.
    let seq = try env.sequenceNumber("seq")
    let publisher = try env.string("source", .other)
    let position = seq.map { StreamPosition(publisher: publisher, seq: $0) }
    do throws(EventDecodingError) {
      let topic = try env.requiredString("topic", .other)
      let eventType = try env.string("event_type", .other)
      let time = try env.instant("time") ?? receivedAt
      let payload = try env.requiredObject("payload")
      return Event(
        origin: origin, publisher: publisher, seq: seq, time: time, receivedAt: receivedAt,
        eventType: eventType, body: try body(topic: topic, payload: payload))
    } catch {
      var e = error
      e.position = position
      throw e
    }
  }

  /// Decodes a payload by topic (also used for Orchestra payloads converted to JSON).
  public func body(topic: String, payload: JSONObject) throws(EventDecodingError) -> Event.Body {
    let p = Fields(payload, path: "payload", limits: limits)
    switch topic {
    case "feature.created": return .featureCreated(try feature(p))
    case "feature.updated": return .featureUpdated(try featurePatch(p))
    case "feature.deleted":
      return .featureDeleted(id: try p.requiredId("id", or: "feature_id"), project: try p.project() ?? nil)
    case "workflow.transitioned":
      return .workflowTransitioned(
        featureId: try p.requiredId("feature_id", or: "id"), to: try p.requiredState("to"),
        from: try p.state("from"), at: try p.instant("at"), project: try p.project() ?? nil)
    case "workflow.defined":
      let d = try workflowDefinition(p)
      return .workflowDefined(projectId: d.projectId, workflow: d.workflow)
    case "sprint.created": return .sprintCreated(try sprint(p))
    case "sprint.started":
      return .sprintStarted(
        id: try p.requiredId("id"), startedAt: try p.instant("started_at"),
        patch: try sprintPatch(p))
    case "sprint.scope_changed":
      return .sprintScopeChanged(
        sprintId: try p.requiredId("sprint_id"),
        added: try p.ids("added", max: limits.maxListCount) ?? [],
        removed: try p.ids("removed", max: limits.maxListCount) ?? [])
    case "sprint.closed":
      return .sprintClosed(id: try p.requiredId("id"), closedAt: try p.instant("closed_at"))
    case "board.snapshot": return .boardSnapshot(try snapshot(p))
    case "heartbeat": return .heartbeat
    case "agents.locks": return .agentLocks(try agentLocks(p))
    default: return .unknown(topic: topic)
    }
  }

  /// Decodes a `board.snapshot` payload (also the result of Orchestra's `board_snapshot` tool).
  public func decodeSnapshot(_ payload: JSONObject) throws(EventDecodingError) -> BoardSnapshot {
    try snapshot(Fields(payload, path: "payload", limits: limits))
  }
}

/// One thing that happened, as every source produces it (see `docs/events.md`).
public struct Event: Hashable, Sendable {
  /// The Wallboard source it came through (`sim`, `jsonl:/path`, `orchestra://host:port`).
  public var origin: String
  /// The publisher id of the envelope's `source` key.
  public var publisher: String?
  /// Sequence number, increasing per publisher.
  public var seq: Int64?
  /// When the thing happened (the envelope's `time`, else the receive time).
  public var time: Instant
  /// When this board received it (drives staleness; `time` may be old or simulated).
  public var receivedAt: Instant
  /// Informational sub-type.
  public var eventType: String?
  public var body: Body

  public init(
    origin: String, publisher: String? = nil, seq: Int64? = nil, time: Instant,
    receivedAt: Instant? = nil, eventType: String? = nil, body: Body
  ) {
    self.origin = origin
    self.publisher = publisher
    self.seq = seq
    self.time = time
    self.receivedAt = receivedAt ?? time
    self.eventType = eventType
    self.body = body
  }

  /// What the event says, by topic.
  public enum Body: Hashable, Sendable {
    case featureCreated(Feature)
    case featureUpdated(FeaturePatch)
    /// `project` names the feature's project; nil: the feature of that id (see
    /// `BoardState.resolve`).
    case featureDeleted(id: String, project: String? = nil)
    case workflowTransitioned(featureId: String, to: String, from: String?, at: Instant?, project: String? = nil)
    case workflowDefined(projectId: String?, workflow: Workflow)
    case sprintCreated(Sprint)
    case sprintStarted(id: String, startedAt: Instant?, patch: SprintPatch)
    case sprintScopeChanged(sprintId: String, added: [String], removed: [String])
    case sprintClosed(id: String, closedAt: Instant?)
    case boardSnapshot(BoardSnapshot)
    case heartbeat
    /// `agents.locks`: every agent session's lock the source reads now (upstream's
    /// `session_locks`), replacing the set this origin said before (`BoardState.agentLocks`).
    case agentLocks([AgentLock])
    /// A topic this version does not know: counted and ignored.
    case unknown(topic: String)
  }

  /// The topics of the contract, as written on the wire.
  public static let topics = [
    "feature.created", "feature.updated", "feature.deleted", "workflow.transitioned",
    "workflow.defined", "sprint.created", "sprint.started", "sprint.scope_changed",
    "sprint.closed", "board.snapshot", "heartbeat", "agents.locks",
  ]
}

/// The authoritative whole board, for bootstrap and resync.
public struct BoardSnapshot: Hashable, Sendable {
  public var features: [Feature]
  public var sprints: [Sprint]
  /// Workflows by project id (`nil` key = the board's default).
  public var workflows: [WorkflowDefinition]
  public var activeSprintId: String?
  /// The last sequence number the snapshot reflects.
  public var seq: Int64?
  /// The past of features the source could reconstruct (an audit trail), by feature, oldest
  /// first: written into a feature's history only before what the board already knows of it
  /// (see `BoardState.backfill`). Empty for sources that have no past to tell.
  public var history: [FeatureKey: [StatusMove]]

  public init(
    features: [Feature] = [], sprints: [Sprint] = [], workflows: [WorkflowDefinition] = [],
    activeSprintId: String? = nil, seq: Int64? = nil, history: [FeatureKey: [StatusMove]] = [:]
  ) {
    self.features = features
    self.sprints = sprints
    self.workflows = workflows
    self.activeSprintId = activeSprintId
    self.seq = seq
    self.history = history
  }
}

/// A workflow and the project it belongs to (`nil` = every project).
public struct WorkflowDefinition: Hashable, Sendable {
  public var projectId: String?
  public var workflow: Workflow
  public init(projectId: String?, workflow: Workflow) {
    self.projectId = projectId
    self.workflow = workflow
  }
}

/// What the reducer consumes: events, the rejections of events that could not be decoded, and
/// changes in a source's connection.
public enum BoardInput: Hashable, Sendable {
  case event(Event)
  /// An input line or frame that was not a valid event. `reason` names the key; `position` is
  /// the envelope's `source` and `seq` when they could still be read, so that the number counts
  /// as arrived (it is no gap).
  case rejected(origin: String, at: Instant, reason: String, position: StreamPosition? = nil)
  /// A source's connection changed.
  case connection(origin: String, status: ConnectionStatus, at: Instant, detail: String?)
  /// A followed file's source has read its file `through` a position (and counts the lines it
  /// delivers after it): what a board restored from the journal resumes the file at.
  case fileRead(origin: String, at: Instant, through: FilePosition)
  /// A whole board read back from a journal (a snapshot a run saved), or a published board a
  /// wall bootstraps from: it replaces the state, settings included. Only a journal's reader and
  /// a relay deliver it, first, before what followed it.
  indirect case restored(BoardState)
  /// An input another board took and published (`wallboard publish`), as a wall following it
  /// (`nats://…`, the origin `via`) read it at `position` of the broker's stream: applied as the
  /// input itself, and the position kept in the same step (`OriginState.relayed`), so that a
  /// wall's journal always agrees with what it applied and a restart goes on after it. `input`
  /// is never itself relayed (the codec refuses it).
  indirect case relayed(via: String, position: RelayPosition, input: BoardInput)

  /// The input itself, a relayed one's inner input: what it says, wherever it came from.
  public var payload: BoardInput {
    if case .relayed(_, _, let inner) = self { inner } else { self }
  }

  /// Whether another board took it first (`relayed`).
  public var isRelayed: Bool {
    if case .relayed = self { true } else { false }
  }
}

/// Where a wall read a published board to: the broker's stream, named by when it was created
/// (a stream deleted and made anew is another stream, its positions another count), and the
/// sequence of the last message applied.
public struct RelayPosition: Hashable, Sendable, CustomStringConvertible {
  /// When the stream was created, in nanoseconds since 1970 (the broker's clock).
  public var stream: Int64
  /// The stream sequence of the last message applied (0: none yet, the board came whole).
  public var sequence: UInt64
  public init(stream: Int64, sequence: UInt64) {
    self.stream = stream
    self.sequence = sequence
  }
  public var description: String { "\(sequence)" }
}

/// A source's connection as its driver sees it. `stale` is not here: it is derived from the
/// time since the source was last heard (see Projections).
public enum ConnectionStatus: String, Hashable, Sendable {
  case connecting, live, reconnecting, offline, ended
}

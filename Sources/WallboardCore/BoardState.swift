/// Everything the board knows, built only by `Reducer.reduce(into:_:)`.
///
/// `Equatable` so that tests apply events and compare whole states; `Hashable` so that a
/// restored board (`BoardInput.restored`) is an input like the others.
public struct BoardState: Hashable, Sendable {
  public var settings: BoardSettings
  /// Every feature on the board, by (project, id).
  public package(set) var features: [FeatureKey: Feature] = [:]
  public package(set) var sprints: [String: Sprint] = [:]
  /// Sprint ids in the order they were first created, oldest first.
  public package(set) var sprintOrder: [String] = []
  /// Workflows defined by `workflow.defined` or a snapshot, by project id (`""` = no project).
  public package(set) var workflows: [String: Workflow] = [:]
  /// The active sprint a snapshot named, if any.
  public package(set) var activeSprintId: String?
  /// Each feature's relevant history, for burndowns. Kept across snapshots.
  public package(set) var history: [FeatureKey: FeatureHistory] = [:]
  /// Every status ever seen, in first-seen order (unknown states are tallied in this order).
  public package(set) var statusOrder: [String] = []
  package var statusSeen: Set<String> = []
  /// Sprints that list a feature explicitly (`feature_ids`, `sprint.scope_changed`), by the
  /// member as the list names it: `project/id` (one project's feature) or a bare id (the feature
  /// of that id in every project).
  package var explicitSprints: [String: [String]] = [:]
  /// Sprints that take as members the features carrying a label (`Sprint.membershipLabel`), by
  /// label; each list sorted.
  package var labelSprints: [String: [String]] = [:]
  /// Features the filter keeps off the board, kept so that a change that makes one match can
  /// bring it in whole (see `BoardState+Filter.swift`).
  package var hidden: [FeatureKey: HiddenFeature] = [:]
  /// The projects holding each id, over `features` and `hidden`: how an event that names a
  /// feature by its id alone finds it.
  package var projectsById = ProjectsById()
  /// Which source contributed each feature, sprint and workflow: a snapshot replaces only its own.
  package var contributions = Contributions()
  /// What each Wallboard source has delivered, by origin name.
  public package(set) var origins: [String: OriginState] = [:]
  public package(set) var counters = EventCounters()
  /// The latest status transitions, newest last (up to twice the limit; see `recent`).
  package var recentBuffer: [Transition] = []
  /// The time of the latest event applied.
  public package(set) var lastEventTime: Instant?
  /// The agent sessions' locks on features (`AgentLock`), by the origin that read them: each
  /// source's set replaces its own (`agents.locks`).
  public package(set) var agentLocks: [String: [AgentLock]] = [:]

  public init(settings: BoardSettings = BoardSettings()) { self.settings = settings }

  /// The latest status transitions, newest last, at most `limits.recentTransitions`.
  public var recent: ArraySlice<Transition> { recentBuffer.suffix(settings.limits.recentTransitions) }

  /// The workflow that governs a project's features.
  public func workflow(forProject projectId: String?) -> Workflow {
    if let p = projectId, let w = workflows[p] { return w }
    return workflows[""] ?? settings.workflow
  }

  /// The sprints a feature is a member of, from its own fields, the sprints' lists and their
  /// membership labels, sorted. The one place membership is decided (history records it so).
  public func membership(of feature: Feature) -> [String] {
    BoardState.membership(explicit: listedIn(feature.key), own: namedSprints(of: feature))
  }

  /// The sprints whose lists name the feature: as `project/id`, or by its bare id.
  func listedIn(_ key: FeatureKey) -> [String]? {
    guard !key.project.isEmpty, let bare = explicitSprints[key.id] else { return explicitSprints[key.qualified] }
    guard let qualified = explicitSprints[key.qualified] else { return bare }
    return qualified + bare.filter { !qualified.contains($0) }
  }

  /// The sprints a feature names: `Feature.ownSprintIds`, then the sprints whose membership
  /// label it carries.
  func namedSprints(of f: Feature) -> [String] {
    var ids = f.ownSprintIds
    guard !labelSprints.isEmpty else { return ids }
    for l in f.labels {
      for s in labelSprints[l] ?? [] where !ids.contains(s) { ids.append(s) }
    }
    return ids
  }

  static func membership(explicit: [String]?, own: [String]) -> [String] {
    var ids = explicit ?? []
    for s in own where !ids.contains(s) { ids.append(s) }
    return ids.count > 1 ? ids.sorted() : ids
  }
}

/// Which Wallboard source (origin name) contributed each feature, sprint and workflow, by id.
package struct Contributions: Hashable, Sendable {
  package var features: [FeatureKey: String] = [:]
  package var sprints: [String: String] = [:]
  /// By project id (`""` = every project).
  package var workflows: [String: String] = [:]
  /// The source whose snapshot named the active sprint.
  package var activeSprint: String?

  package init() {}
}

/// Board configuration the reducer and projections read.
public struct BoardSettings: Hashable, Sendable {
  /// The workflow when no `workflow.defined` says otherwise: the seed's 13 states.
  public var workflow: Workflow
  public var estimateScale: EstimateScale
  public var limits: Limits
  /// The features the board shows; the others the reducer keeps off it.
  public var filter: FeatureFilter

  public init(
    workflow: Workflow = .seed, estimateScale: EstimateScale = .standard, limits: Limits = Limits(),
    filter: FeatureFilter = .all
  ) {
    self.workflow = workflow
    self.estimateScale = estimateScale
    self.limits = limits
    self.filter = filter
  }

  /// Caps that keep memory flat on a board that runs for months.
  public struct Limits: Hashable, Sendable {
    public var maxFeatures = 100_000
    public var maxSprints = 256
    public var maxVersionsPerFeature = 512
    public var recentTransitions = 32
    /// The longest sprint, start to end inclusive: a longer one is ignored with a reason.
    public var maxSprintDays = 366
    public init() {}
  }
}

/// A feature as it stood from `at` on: only what burndowns need.
public struct FeatureVersion: Hashable, Sendable {
  public var at: Instant
  public var status: String
  /// Resolved points (`points`, else the estimate through the board's scale); nil = unestimated.
  public var points: Double?
  /// Sprint ids the feature was a member of, sorted.
  public var sprints: [String]
  /// `false` once deleted (or absent from a snapshot).
  public var exists: Bool

  public init(at: Instant, status: String, points: Double?, sprints: [String], exists: Bool) {
    self.at = at
    self.status = status
    self.points = points
    self.sprints = sprints
    self.exists = exists
  }

  func sameFacts(as o: FeatureVersion) -> Bool {
    status == o.status && points == o.points && exists == o.exists && sprints == o.sprints
  }
}

/// A feature's versions in time order.
public struct FeatureHistory: Hashable, Sendable {
  public package(set) var versions: [FeatureVersion] = []

  public init(versions: [FeatureVersion] = []) { self.versions = versions }

  /// The version in force at `t` (the last one at or before it).
  public func version(atOrBefore t: Instant) -> FeatureVersion? {
    var lo = 0
    var hi = versions.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if versions[mid].at <= t { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? nil : versions[lo - 1]
  }

  /// The version in force just before `t` (the last one strictly before it).
  public func version(before t: Instant) -> FeatureVersion? {
    version(atOrBefore: Instant(millis: t.millis - 1))
  }
}

/// What one Wallboard source has delivered and how its connection stands.
public struct OriginState: Hashable, Sendable {
  public var events = 0
  public var rejected = 0
  public var duplicates = 0
  public var gaps = 0
  public var lastError: String?
  /// The receive time of the last thing heard (event, rejected line, heartbeat).
  public var lastHeard: Instant?
  /// The time of the last event applied from this source.
  public var lastEventAt: Instant?
  public var connection: ConnectionStatus?
  public var connectionSince: Instant?
  public var connectionDetail: String?
  /// The time of the last applied event that changed the board (heartbeats do not): when this
  /// source's data last changed, on the events' own clock.
  public var lastChangeAt: Instant?
  /// A sequence gap has been seen and no snapshot has resynced it yet.
  public var needsResync = false
  /// The numbers of the last gap seen.
  public var lastGap: ClosedRange<Int64>?
  /// The source's sequence numbers (the one rule, shared with the Orchestra session).
  public package(set) var cursor = SequenceCursor()
  /// From when the board knows the history of this source's features: the earliest move a
  /// snapshot backfilled, else the time of its first snapshot. Nil before any snapshot.
  public package(set) var historyFrom: Instant?
  /// Where the source last said it had read its file to (a followed `jsonl:` file); nil for
  /// every other source.
  public package(set) var file: FilePosition?
  /// The lines (events and rejections) this origin delivered since `file` was said: a source
  /// resuming at `file` passes over as many.
  public package(set) var linesPastFile = 0
  /// Where a wall following a published board (`nats://…`) read its stream to: the position of
  /// the last relayed input applied; nil for every other source.
  public package(set) var relayed: RelayPosition?
  public init() {}
}

/// Totals over every source.
public struct EventCounters: Hashable, Sendable {
  public var applied = 0
  public var duplicates = 0
  public var rejected = 0
  public var ignored = 0
  public init() {}
}

/// A status change, for the "recent changes" list.
public struct Transition: Hashable, Sendable {
  public var featureId: String
  /// The feature's project, nil when it names none.
  public var project: String? = nil
  public var title: String
  public var from: String?
  public var to: String
  public var at: Instant

  package init(featureId: String, project: String? = nil, title: String, from: String?, to: String, at: Instant) {
    self.featureId = featureId
    self.project = project
    self.title = title
    self.from = from
    self.to = to
    self.at = at
  }
}

public import WallboardCore
public import Wire
internal import WorkspaceFormats

/// Reads an Orchestra server's features through its tools, for a server that publishes no
/// events (upstream's orchestrator): one pass asks `list_projects`, then each project's
/// `list_features` a page at a time, then `get_feature` for each feature that is new or whose
/// row changed since the last pass (its card adds what the table lacks and the body's audit
/// trail); the pass ends with the whole board as a snapshot, when anything changed.
///
/// A pure value: `begin()` gives the first request, `take(_:)` each answer and gives the next
/// request or the pass's end. The machine (`OrchestraSessionMachine`) asks the shell to make the
/// calls and decides when a pass begins.
public struct FeatureToolsReader: Hashable, Sendable {
  /// The tools it calls.
  public static let listProjects = "list_projects"
  public static let listFeatures = "list_features"
  public static let getFeature = "get_feature"
  /// The largest page `list_features` gives.
  public static let pageSize = 200
  /// The most features (and projects) a pass reads: as many as a snapshot holds.
  public static let maxFeatures = EventLimits().maxSnapshotFeatures
  /// The most problems a pass reports (a page of bad rows is said, not repeated without end).
  public static let maxProblems = 20

  /// What comes after an answer.
  public enum Step: Hashable, Sendable {
    /// Call this tool next.
    case call(ToolRequest)
    /// The pass is over: the board's snapshot when it changed (nil: nothing changed), and what
    /// was skipped on the way (a tool's failure for one project, a row that is not one).
    case finished(BoardSnapshot?, problems: [String])
    /// The server has no features tools (`list_projects` is not a tool there).
    case unavailable(String)
  }

  private enum Doing: Hashable, Sendable {
    case idle
    case projects
    case features(project: String, offset: Int)
    case detail(FeatureKey)
  }

  private var doing = Doing.idle
  private var projects: [String] = []
  private var projectIndex = 0
  /// This pass's rows, by key, in the order read.
  private var rows: [FeatureKey: FeatureTools.Record] = [:]
  private var order: [FeatureKey] = []
  private var wanted: [FeatureKey] = []
  private var problems: [String] = []
  /// The last pass's rows and the details read for them: a detail is asked again only when its
  /// row changed.
  private var known: [FeatureKey: (row: FeatureTools.Record, detail: FeatureTools.Record?)] = [:]
  private var shown: [Feature]?

  public init() {}

  public static func == (a: Self, b: Self) -> Bool {
    a.doing == b.doing && a.projects == b.projects && a.rows == b.rows && a.shown == b.shown
  }
  public func hash(into h: inout Hasher) {
    h.combine(doing)
    h.combine(projects)
    h.combine(shown)
  }

  /// True between `begin()` and the pass's end.
  public var isReading: Bool { doing != .idle }

  /// Starts a pass: the first call.
  public mutating func begin() -> ToolRequest {
    doing = .projects
    projects = []
    projectIndex = 0
    rows = [:]
    order = []
    wanted = []
    problems = []
    return Self.request(Self.listProjects, [:])
  }

  /// Takes the answer to the last call, at `now` (the latest time a feature's past may have).
  public mutating func take(_ answer: ToolResponse, at now: Instant) -> Step {
    switch doing {
    case .idle:
      return .finished(nil, problems: ["an answer to no question"])
    case .projects:
      guard answer.success, let result = answer.result else {
        doing = .idle
        if ["tool_not_found", "unknown_tool"].contains(answer.errorCode) {
          return .unavailable(Self.failure(Self.listProjects, answer))
        }
        return .finished(nil, problems: [Self.failure(Self.listProjects, answer)])
      }
      projects = Array(FeatureTools.projects(result).prefix(Self.maxFeatures))
      return nextProject(at: now)
    case .features(let project, let offset):
      guard answer.success, let result = answer.result else {
        problems.append("\(project): " + Self.failure(Self.listFeatures, answer))
        projectIndex += 1
        return nextProject(at: now)
      }
      let page = FeatureTools.page(result, project: project)
      problems += page.skipped.prefix(Self.maxProblems - min(problems.count, Self.maxProblems)).map {
        "\(project): list_features: \($0)"
      }
      var added = 0
      for r in page.records where rows[r.key] == nil && rows.count < Self.maxFeatures {
        rows[r.key] = r
        order.append(r.key)
        added += 1
      }
      let next = offset + page.records.count
      // The next page, while the total says there is one and this page brought rows not seen
      // (a server that ignores `offset` and sends the same page again is read once).
      if let total = page.total, next < total, added > 0, rows.count < Self.maxFeatures {
        doing = .features(project: project, offset: next)
        return .call(Self.listRequest(project, offset: next))
      }
      projectIndex += 1
      return nextProject(at: now)
    case .detail(let key):
      if answer.success, let result = answer.result, var d = FeatureTools.detail(result, project: key.project),
        d.id == key.id
      {
        d.project = key.project
        known[key] = (rows[key]!, d)
      } else {
        problems.append("\(key.project)/\(key.id): " + Self.failure(Self.getFeature, answer))
        known[key] = (rows[key]!, nil)
      }
      return nextDetail(at: now)
    }
  }

  private mutating func nextProject(at now: Instant) -> Step {
    guard projectIndex < projects.count else {
      // Every row read: the details of what is new or changed.
      wanted = order.filter { known[$0]?.row != rows[$0] }
      return nextDetail(at: now)
    }
    let project = projects[projectIndex]
    doing = .features(project: project, offset: 0)
    return .call(Self.listRequest(project, offset: 0))
  }

  private mutating func nextDetail(at now: Instant) -> Step {
    if let key = wanted.first {
      wanted.removeFirst()
      doing = .detail(key)
      return .call(Self.request(Self.getFeature, ["project_id": .string(key.project), "feature_id": .string(key.id)]))
    }
    doing = .idle
    // Forget what is no longer listed.
    for key in known.keys where rows[key] == nil { known.removeValue(forKey: key) }
    var features: [Feature] = []
    var past: [FeatureKey: [StatusMove]] = [:]
    for key in order {
      guard let row = rows[key] else { continue }
      let merged = Self.merge(row: row, detail: known[key]?.detail)
      features.append(merged.feature)
      let h = Self.past(merged, now: now)
      if !h.isEmpty { past[key] = h }
    }
    let problems = self.problems
    guard features != shown else { return .finished(nil, problems: problems) }
    shown = features
    return .finished(BoardSnapshot(features: features, history: past), problems: problems)
  }

  /// The row as listed, with what only the card shows.
  static func merge(row: FeatureTools.Record, detail: FeatureTools.Record?) -> FeatureTools.Record {
    guard let d = detail else { return row }
    var r = row
    r.priority = row.priority ?? d.priority
    r.kind = row.kind ?? d.kind
    r.assignee = row.assignee ?? d.assignee
    r.estimate = row.estimate ?? d.estimate
    r.labels = row.labels ?? d.labels
    r.dependsOn = row.dependsOn ?? d.dependsOn
    r.createdAt = row.createdAt ?? d.createdAt
    r.updatedAt = row.updatedAt ?? d.updatedAt
    r.body = d.body
    return r
  }

  /// The feature's past from its body's audit trail (upstream's first state is `todo`).
  static func past(_ r: FeatureTools.Record, now: Instant) -> [StatusMove] {
    guard let body = r.body else { return [] }
    let f = r.feature
    return AuditTrail.history(
      AuditTrail.parse(body), createdAt: f.createdAt, updatedAt: f.updatedAt, status: f.status,
      initialState: "todo", now: now
    ).moves
  }

  static func listRequest(_ project: String, offset: Int) -> ToolRequest {
    request(
      listFeatures,
      ["project_id": .string(project), "limit": .number(Double(pageSize)), "offset": .number(Double(offset))])
  }

  static func request(_ tool: String, _ arguments: JSONObject) -> ToolRequest {
    ToolRequest(toolName: tool, arguments: arguments, callerPlugin: "wallboard")
  }

  static func failure(_ tool: String, _ answer: ToolResponse) -> String {
    let why = [answer.errorCode, answer.errorMessage].filter { !$0.isEmpty }.joined(separator: ": ")
    return "\(tool) failed" + (why.isEmpty ? (answer.success ? ": no result" : "") : " (\(why))")
  }
}

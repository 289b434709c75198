internal import SQLite
internal import SourceKit
public import WallboardCore
internal import Wire
internal import WorkspaceFormats

/// The workflows a workspace's features follow (`orchestra-storage.md` §1g): the workspace's own
/// file (`.projects/.workflow/*.yaml`, `WorkflowFile`) or upstream's 7 states for every project,
/// and per-project workflows from the global database's `workflows` table
/// (`~/.orchestra/db/global.db`: `states` a JSON map of `{label, terminal?, active_work?}`,
/// `transitions`, `initial_state`). What cannot be read is named and left out; the board then
/// shows upstream's states rather than none.
public struct WorkspaceWorkflows: Hashable, Sendable {
  /// The workspace's `.projects/` folder, if known.
  public var tree: String?
  /// `~/.orchestra/db/global.db`, if it is to be read.
  public var globalDatabase: String?

  public init(tree: String? = nil, globalDatabase: String? = nil) {
    self.tree = tree
    self.globalDatabase = globalDatabase
  }

  /// The most workflow rows read from the global database.
  static let maxRows = 1000

  /// The definitions (the default first, for every project), the default's initial state, and
  /// what could not be read.
  public func load() -> (definitions: [WorkflowDefinition], initialState: String, problems: [String]) {
    var problems: [String] = []
    var fallback = Workflow.upstream
    var fromFile = false
    if let tree {
      let loaded = WorkflowFile.load(tree: tree)
      if let p = loaded.problem { problems.append("\(p.description) (upstream's states are used)") }
      fromFile = loaded.file != nil && loaded.problem == nil
      fallback = loaded.workflow
    }
    var perProject: [WorkflowDefinition] = []
    if let path = globalDatabase, WorkspaceLocator.isFile(path) {
      switch Self.global(path) {
      case .success(let read):
        for (project, workflow) in read.rows {
          if let project {
            perProject.append(WorkflowDefinition(projectId: project, workflow: workflow))
          } else if !fromFile {
            fallback = workflow
          }
        }
        problems += read.problems.map(\.description)
      case .failure(let p): problems.append(p.description)
      }
    }
    return ([WorkflowDefinition(projectId: nil, workflow: fallback)] + perProject, fallback.initialState, problems)
  }

  /// The rows of `global.db`'s `workflows` table: by project (nil = every project).
  struct Unreadable: Error {
    var description: String
  }

  /// The readable rows of `global.db`'s `workflows` table (at most `maxRows`), by project (nil =
  /// every project), and each row that cannot be read, by its project: a bad row costs only
  /// itself. A failure when the table cannot be read at all.
  ///
  /// The connection is guarded as the session locks' is (`guard`): the same file holds secrets
  /// and account data; `audit` (tests) hears every request the guard answers.
  static func global(
    _ path: String, audit: (@Sendable (AuthorizerRequest, AuthorizerVerdict) -> Void)? = nil
  ) -> Result<(rows: [(String?, Workflow)], problems: [Unreadable]), Unreadable> {
    do throws(SQLiteError) {
      let db = try Database(path: path, mode: .readOnly, busyTimeout: 0.5)
      db.statementTimeout = OrchestraDatabase.statementTimeout
      db.maxValueBytes = OrchestraDatabase.maxValueBytes
      db.setAuthorizer { request in
        let verdict = Self.guard(request)
        audit?(request, verdict)
        return verdict
      }
      // `PRAGMA table_info` rather than `pragma_table_info()`: the function form reads the schema
      // table, which the guard refuses.
      let columns = Set(try db.rows("PRAGMA table_info(workflows)").compactMap { $0.count > 1 ? $0[1].text : nil })
      guard columns.contains("states") else { return .success(([], [])) }
      let project = ["project_id", "project_slug", "project"].first(where: columns.contains) ?? "NULL"
      let initial = columns.contains("initial_state") ? "initial_state" : "NULL"
      let transitions = columns.contains("transitions") ? "transitions" : "NULL"
      var out: [(String?, Workflow)] = []
      var problems: [Unreadable] = []
      let (rows, leftOut) = try db.rows(
        "SELECT \(project), states, \(initial), \(transitions) FROM workflows", keeping: maxRows)
      for row in rows {
        let r = row.values
        let name = r[0].text.flatMap { $0.isEmpty ? nil : "the workflows row of project \($0.prefix(utf8Bytes: 256))" }
        let what = name ?? (row.oversize.contains { $0.index == 0 } ? "a workflows row" : "the default workflows row")
        let names = ["project", "states", "initial_state", "transitions"]
        guard row.oversize.isEmpty else {
          let sizes = row.oversize.map { "\(names[$0.index]) holds \($0.bytes) bytes" }.joined(separator: ", ")
          problems.append(
            Unreadable(description: "\(path): \(what): \(sizes): more than the \(db.maxValueBytes) a value may hold"))
          continue
        }
        guard let workflow = Self.workflow(states: r[1].text, initial: r[2].text, transitions: r[3].text) else {
          problems.append(Unreadable(description: "\(path): \(what): states are not a JSON map of states"))
          continue
        }
        out.append((r[0].text.flatMap { $0.isEmpty ? nil : $0 }, workflow))
      }
      if leftOut > 0 {
        problems.append(Unreadable(description: "\(path): \(leftOut) workflows rows left out (cap \(maxRows))"))
      }
      return .success((out, problems))
    } catch {
      return .failure(Unreadable(description: "\(path): \(error.description)"))
    }
  }

  /// What the workflows reader's connection may do: select, read the `workflows` table of the
  /// main database and ask its columns' names (`PRAGMA table_info(workflows)`); nothing else.
  static func `guard`(_ request: AuthorizerRequest) -> AuthorizerVerdict {
    switch request.action {
    case .select: return .allow
    case .read(let table, _, let database):
      return table == "workflows" && database == "main" ? .allow : .deny
    case .pragma(let name, let argument):
      return name == "table_info" && argument == "workflows" ? .allow : .deny
    case .other: return .deny
    }
  }

  /// A workflow from the table's JSON: states in the order the transitions walk them from the
  /// initial state (a JSON map has no order of its own: Go writes it sorted), terminal ones last.
  static func workflow(states json: String?, initial: String?, transitions: String?) -> Workflow? {
    guard let json, case .object(let map)? = try? JSONParser.parse(json, limits: JSONLimits(maxDepth: 4)),
      !map.members.isEmpty, map.members.count <= WorkflowFile.maxStates
    else { return nil }
    var states: [String: WorkflowState] = [:]
    for m in map.members {
      guard case .object(let o) = m.value, m.key.utf8.count <= 64 else { return nil }
      func flag(_ k: String) -> Bool { if case .bool(true)? = o[k] { true } else { false } }
      var label: String?
      if case .string(let l)? = o["label"], l.utf8.count <= 128 { label = l }
      let s = WorkflowState(id: m.key, label: label, terminal: flag("terminal"), activeWork: flag("active_work"))
      states[s.id] = s
    }
    // Walk the transitions from the initial state.
    var edges: [String: [String]] = [:]
    if let transitions, case .array(let list)? = try? JSONParser.parse(transitions, limits: JSONLimits(maxDepth: 4)) {
      for case .object(let t) in list {
        if case .string(let from)? = t["from"], case .string(let to)? = t["to"] {
          edges[Status.normalise(from), default: []].append(Status.normalise(to))
        }
      }
    }
    let start = initial.map(Status.normalise).flatMap { states[$0] != nil ? $0 : nil } ?? states.keys.sorted()[0]
    var order: [String] = []
    var queue = [start]
    while !queue.isEmpty {
      let s = queue.removeFirst()
      guard states[s] != nil, !order.contains(s) else { continue }
      order.append(s)
      queue += edges[s] ?? []
    }
    order += states.keys.sorted().filter { !order.contains($0) }
    let sorted = order.filter { !states[$0]!.terminal } + order.filter { states[$0]!.terminal }
    return Workflow(states: sorted.map { states[$0]! }, initialState: start)
  }
}

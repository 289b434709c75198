import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// Issue 10: `--source orchestra:WORKSPACE`, the one command — whichever store the workspace
/// has, its history from the audit trail, the flow without a sprint, a declared sprint's
/// burndown, the workspace's own workflow and statuses as stored.
@Suite("inspect --source orchestra:WORKSPACE", .serialized)
struct OrchestraWorkspaceInspectTests {
  /// A workspace folder under a home of its own, with a markdown tree written by the plugin's
  /// way of writing (a second process).
  final class Workspace {
    let home: TempDir
    let path: String
    let md: MarkdownWriter
    init() throws {
      home = try TempDir("wallboard-home")
      path = home.url.appendingPathComponent("team-ws").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      md = try MarkdownWriter(workspace: path)
      try md.project("web")
    }
    deinit { md.stop() }
  }

  /// A body as the tools leave it after `moves` (from → to at a time).
  static func body(_ title: String, _ moves: [(String, String, String)]) -> String {
    var b = "# \(title)\n\nWhat it is.\n"
    for (from, to, at) in moves {
      b +=
        to == "done"
        ? "\n\n---\n**Review (approved)** (\(at)): ship it\n"
        : "\n\n---\n**\(from) -> \(to)** (\(at)):\n## Changes\n- **svc** done\n"
    }
    return b
  }

  static func feature(
    _ id: String, status: String, created: String, updated: String, labels: [String] = [], estimate: String = "M"
  ) -> [String: Any] {
    var f: [String: Any] = [
      "id": id, "project_id": "web", "title": "Feature \(id)", "description": "", "status": status,
      "priority": "P2", "version": 0, "created_at": created, "updated_at": updated, "estimate": estimate,
    ]
    if !labels.isEmpty { f["labels"] = labels }
    return f
  }

  /// Three features of a sprint: one done on Wednesday, one in review, one still to do.
  static func team(_ ws: Workspace, labels: [String] = []) throws {
    try ws.md.feature(
      Self.feature(
        "FEAT-A", status: "done", created: "2026-11-02T09:00:00Z", updated: "2026-11-04T15:00:00Z", labels: labels),
      body: Self.body(
        "A",
        [
          ("in-progress", "in-testing", "2026-11-03T10:00:00Z"), ("in-testing", "in-review", "2026-11-03T16:00:00Z"),
          ("in-review", "done", "2026-11-04T15:00:00Z"),
        ]))
    try ws.md.feature(
      Self.feature(
        "FEAT-B", status: "in-review", created: "2026-11-02T09:00:00Z", updated: "2026-11-05T11:00:00Z", labels: labels),
      body: Self.body("B", [("in-progress", "in-review", "2026-11-05T11:00:00Z")]))
    try ws.md.feature(
      Self.feature(
        "FEAT-C", status: "todo", created: "2026-11-02T09:00:00Z", updated: "2026-11-02T09:00:00Z", labels: labels),
      body: Self.body("C", []))
  }

  static func inspect(_ ws: Workspace, _ extra: [String] = []) throws -> [String: JSONValue] {
    let r = WorkspaceInspectTests.run(
      [
        "inspect", "--source", "orchestra:\(ws.path)", "--settle", "0.5", "--wait", "8", "--tz", "UTC", "--at",
        "2026-11-06T12:00:00Z",
      ]
        + extra, home: ws.home.url.path)
    #expect(r.code == 0, "\(r.err)")
    guard case .object(let root)? = try? JSONParser.parse(r.out) else {
      Issue.record("not JSON: \(r.out.prefix(400))")
      return [:]
    }
    return root.members.reduce(into: [:]) { $0[$1.key] = $1.value }
  }

  static func source(_ root: [String: JSONValue]) -> JSONObject? {
    guard case .array(let sources)? = root["sources"] else { return nil }
    for case .object(let s) in sources {
      if case .string(let n)? = s["name"], n.hasPrefix("orchestra:") { return s }
    }
    return nil
  }

  static func numbers(_ v: JSONValue?) -> [Double?] {
    guard case .array(let a)? = v else { return [] }
    return a.map { if case .number(let n) = $0 { n } else { nil } }
  }

  @Test func aMarkdownWorkspaceWithoutSprintsShowsItsFlowFromTheTrail() throws {
    let ws = try Workspace()
    try Self.team(ws)
    let root = try Self.inspect(ws)
    #expect(root["sprint"] == .null)
    let source = try #require(Self.source(root))
    #expect(source["detail"] == .string("markdown \(ws.path)/.projects"), "\(source)")
    #expect(source["status"] == .string("live"))
    // History from the trail: known from the features' creation, not from this minute.
    #expect(source["history_from"] == .string("2026-11-02T09:00:00Z"), "\(source)")

    guard case .array(let flow)? = root["flow"] else { Issue.record("no flow"); return }
    func counts(_ date: String) -> [String: Double] {
      for case .object(let day) in flow where day["date"] == .string(date) {
        guard case .object(let c)? = day["counts"] else { return [:] }
        return c.members.reduce(into: [:]) { if case .number(let n) = $1.value, n > 0 { $0[$1.key] = n } }
      }
      return [:]
    }
    // A and B were in progress from their creation (the first line of their trails starts
    // there: `todo -> in-progress` writes none); A entered review on Tuesday, done on Wednesday.
    #expect(counts("2026-11-02") == ["todo": 1, "in-progress": 2], "\(counts("2026-11-02"))")
    #expect(counts("2026-11-03") == ["todo": 1, "in-progress": 1, "in-review": 1], "\(counts("2026-11-03"))")
    #expect(counts("2026-11-04") == ["todo": 1, "in-progress": 1, "done": 1])
    #expect(counts("2026-11-06") == ["todo": 1, "in-review": 1, "done": 1])
    guard case .object(let throughput)? = root["throughput"], case .array(let days)? = throughput["days"] else {
      Issue.record("no throughput"); return
    }
    let done = days.compactMap { d -> String? in
      guard case .object(let o) = d, case .number(let n)? = o["done"], n > 0, case .string(let date)? = o["date"] else {
        return nil
      }
      return date
    }
    #expect(done == ["2026-11-04"], "the approval on Wednesday is the one done")
  }

  /// The convention's label, and a label of the team's own (`label=`): the past is the
  /// sprint's either way.
  @Test(arguments: [("sprint:s1", ""), ("team-a-s3", ",label=team-a-s3")])
  func aDeclaredSprintShowsItsBurndownFromTheTrail(label: String, key: String) throws {
    let ws = try Workspace()
    try Self.team(ws, labels: [label])
    let root = try Self.inspect(ws, ["--sprint", "id=s1,name=Sprint 1,start=2026-11-02,end=2026-11-13" + key])
    guard case .object(let sprint)? = root["sprint"] else { Issue.record("no sprint"); return }
    #expect(sprint["id"] == .string("s1"))
    // M = 2 points each: 6 at the start, 4 from Wednesday (A approved), on every day after.
    let remaining = Self.numbers(Self.field(root["burndown"], "remaining"))
    #expect(Array(remaining.prefix(5)) == [6, 6, 4, 4, 4], "\(remaining)")
  }

  @Test func theDatabaseIsPreferredAndTheWorkspacesOwnWorkflowAndOldSpellingsShow() throws {
    let ws = try Workspace()
    try Self.team(ws)
    // The workspace's own workflow file.
    let flowDir = ws.path + "/.projects/.workflow"
    try FileManager.default.createDirectory(atPath: flowDir, withIntermediateDirectories: true)
    try Data(
      """
      name: ours
      initial_state: todo
      states:
        todo: {label: To Do}
        in-review: {label: Review, active_work: true}
        done: {label: Shipped, terminal: true}
      """.utf8
    ).write(to: URL(fileURLWithPath: flowDir + "/ours.yaml"))
    // A database, found by the hash rule: primary, so it wins over the tree.
    let dbPath = EventSourcesLocator.hashed(home: ws.home.url.path, workspace: ws.path)
    try FileManager.default.createDirectory(
      atPath: (dbPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let db = try OrchestraWorkspace(at: dbPath)
    try db.project("web")
    try db.write(id: "FEAT-X", status: "backlog")
    try db.write(id: "FEAT-Y", status: "done")
    db.writer.stop()

    let root = try Self.inspect(ws)
    let source = try #require(Self.source(root))
    #expect(source["detail"] == .string("SQLite \(dbPath)"), "\(source)")
    guard case .array(let tallies)? = root["tallies"] else { Issue.record("no tallies"); return }
    let states = tallies.compactMap { t -> String? in
      if case .object(let o) = t, case .string(let s)? = o["state"] { s } else { nil }
    }
    // The workspace's states in its order; `backlog` as stored, not renamed: unknown to this
    // workflow, so shown after it.
    #expect(states == ["todo", "in-review", "done", "backlog"], "\(states)")
    let labels = tallies.compactMap { t -> String? in
      if case .object(let o) = t, case .string(let s)? = o["label"] { s } else { nil }
    }
    #expect(labels.prefix(3) == ["To Do", "Review", "Shipped"])
  }

  /// A project's workflow from the global database (`~/.orchestra/db/global.db`, table
  /// `workflows`): its states in the order its transitions walk them, terminal last.
  @Test func aProjectsWorkflowFromTheGlobalDatabase() throws {
    let ws = try Workspace()
    try Self.team(ws)
    let global = ws.home.url.appendingPathComponent(".orchestra/db/global.db").path
    try FileManager.default.createDirectory(
      atPath: (global as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let writer = try SQLWriter(path: global)
    try writer.script(
      "CREATE TABLE workflows (id TEXT PRIMARY KEY, project_id TEXT, name TEXT, states TEXT, transitions TEXT, initial_state TEXT)"
    )
    // Go's json.Marshal of a map: keys sorted.
    try writer.sql(
      "INSERT INTO workflows VALUES ('wf1', 'web', 'lean', ?, ?, 'todo')",
      [
        #"{"done":{"label":"Done","terminal":true},"in-progress":{"label":"Doing","active_work":true},"in-review":{"label":"Check"},"todo":{"label":"Next"}}"#,
        #"[{"from":"todo","to":"in-progress"},{"from":"in-progress","to":"in-review"},{"from":"in-review","to":"done"}]"#,
      ])
    writer.stop()
    let root = try Self.inspect(ws)
    guard case .array(let tallies)? = root["tallies"] else {
      Issue.record("no tallies")
      return
    }
    let labels = tallies.compactMap { t -> String? in
      if case .object(let o) = t, case .string(let s)? = o["label"] { s } else { nil }
    }
    #expect(labels == ["Next", "Doing", "Check", "Done"], "\(labels)")
  }

  static func field(_ v: JSONValue?, _ key: String) -> JSONValue? {
    if case .object(let o)? = v { return o[key] }
    return nil
  }
}

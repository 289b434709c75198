import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// `inspect --source orchestra-db:…` over a real-format workspace database.
@Suite("inspect an Orchestra workspace database", .serialized)
struct WorkspaceInspectTests {
  static func run(_ args: [String], home: String) -> (code: Int32, out: String, err: String) {
    let c = Captured()
    let app = App(
      console: c.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "HOME": home],
      now: { Make.t("2026-11-20T00:00:00Z") })
    let code = app.main(args)
    return (code, c.out, c.err)
  }

  static func tallies(_ out: String) -> [String: Double] {
    guard case .object(let root)? = try? JSONParser.parse(out), case .array(let t)? = root["tallies"] else {
      return [:]
    }
    var counts: [String: Double] = [:]
    for case .object(let o) in t {
      if case .string(let s)? = o["state"], case .number(let n)? = o["count"], n > 0 { counts[s] = n }
    }
    return counts
  }

  /// A home folder holding a workspace folder `team-ws` and `.orchestra/db/`, and the path where
  /// the workspace's hashed database goes.
  static func homeWithWorkspace() throws -> (home: TempDir, workspace: URL, databases: URL, database: String) {
    let home = try TempDir("wallboard-home")
    let ws = home.url.appendingPathComponent("team-ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    let dbDir = home.url.appendingPathComponent(".orchestra/db")
    try FileManager.default.createDirectory(at: dbDir, withIntermediateDirectories: true)
    return (home, ws, dbDir, EventSourcesLocator.hashed(home: home.url.path, workspace: ws.path))
  }

  @Test func aWorkspaceFolderFindsItsDatabaseThroughHome() throws {
    let (home, ws, _, locator) = try Self.homeWithWorkspace()
    let writer = try SQLWriter(path: locator)
    defer { writer.stop() }
    try writer.script(OrchestraWorkspace.ddl)
    try writer.sql("INSERT INTO projects (slug, name) VALUES ('web', 'web')")
    for (id, status) in [("FEAT-A", "todo"), ("FEAT-B", "done"), ("FEAT-C", "backlog")] {
      try writer.sql(
        "INSERT INTO features (id, project_id, title, status, updated_at) VALUES (?, 'web', ?, ?, '2026-11-04T10:00:00Z')",
        [id, id, status])
    }
    let r = Self.run(
      ["inspect", "--source", "orchestra-db:\(ws.path)", "--settle", "0.3", "--wait", "5", "--tz", "UTC"],
      home: home.url.path)
    #expect(r.code == 0, "\(r.err)")
    let tallies = Self.tallies(r.out)
    #expect(tallies.values.reduce(0, +) == 3, "\(r.out.prefix(800))")
    #expect(tallies["done"] == 1)
    #expect(r.out.contains("\"status\": \"live\""))
  }

  @Test func aDeclaredSprintShowsItsBurndownFromBackfilledHistory() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    for id in ["FEAT-A", "FEAT-B", "FEAT-C"] {
      try ws.write(id: id, status: "todo", estimate: "M", labels: #"["sprint:s1"]"#, at: "2026-11-02T09:00:00Z")
      try ws.advance(id: id, kind: "silent", to: "in-progress", at: "2026-11-09T10:00:00Z")
    }
    for (id, day) in [("FEAT-A", "10"), ("FEAT-B", "12")] {
      try ws.advance(id: id, kind: "gated", to: "in-review", at: "2026-11-\(day)T09:00:00Z", text: "## Changes\n- a.go")
      try ws.advance(id: id, kind: "review", to: "done", at: "2026-11-\(day)T10:00:00Z", text: "approved")
    }
    ws.writer.stop()
    let sprints = ws.dir!.url.appendingPathComponent("sprints.jsonl")
    try Data(
      #"{"topic":"sprint.created","time":"2026-11-08T08:00:00Z","payload":{"id":"s1","name":"S1","start_date":"2026-11-09","end_date":"2026-11-20"}}"#
        .utf8
    ).write(to: sprints)
    let r = Self.run(
      [
        "inspect", "--source", "orchestra-db:\(ws.path)", "--source", "jsonl:\(sprints.path)", "--settle", "0.3",
        "--wait", "5", "--tz", "UTC",
      ], home: ws.dir!.url.path)
    #expect(r.code == 0, "\(r.err)")
    guard case .object(let root)? = try? JSONParser.parse(r.out), case .object(let burndown)? = root["burndown"],
      case .array(let remaining)? = burndown["remaining"], case .array(let sources)? = root["sources"]
    else {
      Issue.record("no burndown in \(r.out.prefix(600))")
      return
    }
    // Three M features (2 points each): A done on the 10th, B on the 12th; C still open.
    #expect(remaining == [6, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2].map(JSONValue.number), "\(remaining)")
    let db = sources.first { s in
      if case .object(let o) = s, case .string(let n)? = o["name"] { return n.hasPrefix("orchestra-db:") }
      return false
    }
    guard case .object(let o)? = db else {
      Issue.record("no orchestra-db source in \(sources)")
      return
    }
    #expect(o["history_from"] == .string("2026-11-02T09:00:00Z"))
  }
}

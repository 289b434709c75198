import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// Issue 26, item 4, end to end: a workspace (either store) beside a `global.db` holding
/// `session_locks` (a held lock, a lapsed one, one on the same id in another project of the
/// workspace, one of a project elsewhere, one with a bad time), `secrets` and `accounts` →
/// `inspect`'s `agents`, compared whole.
@Suite("inspect: agents at work", .serialized)
struct AgentsInspectTests {
  enum Store: String, CaseIterable, Sendable { case database, markdown }

  static func workspace(_ store: Store) throws -> (home: TempDir, workspace: String, writers: [() -> Void]) {
    let (home, ws, _, hashed) = try WorkspaceInspectTests.homeWithWorkspace()
    switch store {
    case .database:
      let w = try SQLWriter(path: hashed)
      try w.script(OrchestraWorkspace.ddl)
      for p in ["web", "ops"] { try w.sql("INSERT INTO projects (slug, name) VALUES (?, ?)", [p, p]) }
      for (id, project, title) in [
        ("FEAT-A", "web", "Checkout"), ("FEAT-B", "web", "Search"), ("FEAT-Z", "ops", "Backups"),
      ] {
        try w.sql(
          "INSERT INTO features (id, project_id, title, status, updated_at) VALUES (?, ?, ?, 'in-progress', '2026-11-19T09:00:00Z')",
          [id, project, title])
      }
      return (home, ws.path, [w.stop])
    case .markdown:
      let md = try MarkdownWriter(workspace: ws.path)
      for p in ["web", "ops"] { try md.project(p) }
      for (id, project, title) in [
        ("FEAT-A", "web", "Checkout"), ("FEAT-B", "web", "Search"), ("FEAT-Z", "ops", "Backups"),
      ] {
        try md.feature(
          [
            "id": id, "project_id": project, "title": title, "description": "", "status": "in-progress",
            "priority": "P2", "version": 0, "created_at": "2026-11-19T09:00:00Z", "updated_at": "2026-11-19T09:00:00Z",
          ], project: project, body: "# \(title)\n")
      }
      return (home, ws.path, [md.stop])
    }
  }

  static func lock(
    _ id: String, _ project: String, _ title: String?, _ session: String, _ at: String, _ lapses: String, lapsed: Bool
  )
    -> JSONValue
  {
    .object(
      JSONObject([
        ("feature_id", .string(id)), ("project", .string(project)), ("title", title.map(JSONValue.string) ?? .null),
        ("session_id", .string(session)), ("since", .string(at)), ("locked_at", .string(at)),
        ("lapses_at", .string(lapses)), ("lapsed", .bool(lapsed)),
      ]))
  }

  @Test(arguments: Store.allCases)
  func inspectSaysWhichAgentsHoldWhat(store: Store) throws {
    let (home, ws, writers) = try Self.workspace(store)
    defer { writers.forEach { $0() } }
    let global = home.url.appendingPathComponent(".orchestra/db/global.db").path
    let g = try GlobalDatabase.make(global)
    defer { g.stop() }
    for (project, id, session, at) in [
      ("web", "FEAT-A", "s1", "2026-11-19 23:40:00"), ("web", "FEAT-B", "s2", "2026-11-19 23:00:00"),
      ("ops", "FEAT-A", "s3", "2026-11-19T23:50:00Z"), ("elsewhere", "FEAT-A", "s4", "2026-11-19 23:45:00"),
      ("web", "FEAT-C", "s5", "soon"),
    ] {
      try GlobalDatabase.lock(g, project: project, feature: id, session: session, at: at)
    }
    let r = WorkspaceInspectTests.run(
      [
        "inspect", "--source", "orchestra:\(ws)", "--settle", "0.5", "--wait", "8", "--tz", "UTC", "--at",
        "2026-11-20T00:00:00Z",
      ],
      home: home.url.path)
    #expect(r.code == 0, "\(r.err)")
    let root = try #require(try? JSONParser.parse(r.out))
    guard case .object(let o) = root else { Issue.record("not an object"); return }
    #expect(
      o["agents"]
        == .array([
          Self.lock("FEAT-A", "web", "Checkout", "s1", "2026-11-19T23:40:00Z", "2026-11-20T00:10:00Z", lapsed: false),
          Self.lock("FEAT-A", "ops", nil, "s3", "2026-11-19T23:50:00Z", "2026-11-20T00:20:00Z", lapsed: false),
          Self.lock("FEAT-B", "web", "Search", "s2", "2026-11-19T23:00:00Z", "2026-11-19T23:30:00Z", lapsed: true),
        ]), "\(o["agents"].map { $0.serialized() } ?? "none")")
    let source = try #require(ReadOnlyMediaTests.source(r.out, prefix: "orchestra:"))
    guard case .string(let detail)? = source["detail"] else { Issue.record("no detail: \(source)"); return }
    #expect(detail.hasSuffix("1 session lock row skipped"), "\(detail)")
  }
}

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

  @Test func aWorkspaceFolderFindsItsDatabaseThroughHome() throws {
    let home = try TempDir("wallboard-home")
    let ws = home.url.appendingPathComponent("team-ws")
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    let dbDir = home.url.appendingPathComponent(".orchestra/db")
    try FileManager.default.createDirectory(at: dbDir, withIntermediateDirectories: true)
    let locator = EventSourcesLocator.hashed(home: home.url.path, workspace: ws.path)
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
}

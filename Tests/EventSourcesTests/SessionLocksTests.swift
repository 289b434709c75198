import Clock
import Foundation
import SQLite
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import EventSources

/// Issue 26, item 4: the agents' locks read from `global.db`'s `session_locks` — only its four
/// columns, never `secrets` or `accounts` (the connection's guard refuses them), never writing
/// beside the file — and followed live by the workspace sources.
@Suite("Agents' locks from the global database", .serialized)
struct SessionLocksTests {
  final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(AuthorizerRequest, AuthorizerVerdict)] = []
    func add(_ r: AuthorizerRequest, _ v: AuthorizerVerdict) { lock.withLock { list.append((r, v)) } }
    var all: [(AuthorizerRequest, AuthorizerVerdict)] { lock.withLock { list } }
  }

  static func home() throws -> (TempDir, String) {
    let dir = try TempDir("wallboard-home")
    return (dir, dir.url.appendingPathComponent(".orchestra/db/global.db").path)
  }

  static func lock(_ project: String, _ id: String, _ session: String, _ at: String) -> AgentLock {
    AgentLock(feature: FeatureKey(project: project, id: id), session: session, lockedAt: AgentLock.time(at)!)
  }

  static func listing(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
  }

  @Test func theReadersStatementsTouchOnlyTheFourColumnsOfSessionLocks() throws {
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:40:00")
    try GlobalDatabase.lock(w, project: "ops", feature: "F-1", session: "s2", at: "2026-11-19 23:45:00")
    let heard = Heard()
    let reader = try SessionLocksReader(path: path, audit: { heard.add($0, $1) })
    _ = try reader.dataVersion()
    let maybe = try reader.read()
    let read = try #require(maybe)
    #expect(
      read.locks == [
        Self.lock("ops", "F-1", "s2", "2026-11-19 23:45:00"), Self.lock("web", "F-1", "s1", "2026-11-19 23:40:00"),
      ])
    #expect(!heard.all.isEmpty)
    for (request, verdict) in heard.all {
      #expect(verdict == .allow, "\(request)")
      switch request.action {
      case .select: break
      case .pragma(let name, let argument): #expect(name == "data_version" && argument == nil, "\(request)")
      case .read(let table, let column, let database):
        #expect(table == "session_locks" && database == "main", "\(request)")
        #expect(SessionLocksReader.columns.contains(column), "\(request)")
      case .other: Issue.record("an action the reader must not ask for: \(request)")
      }
    }
    let columns = Set(
      heard.all.compactMap { r, _ -> String? in
        if case .read(_, let c, _) = r.action { c } else { nil }
      })
    #expect(columns == Set(SessionLocksReader.columns))
  }

  @Test func theWorkflowsReaderIsGuardedToo() throws {
    // The other reader of the same file: `workflows` and its columns' names, nothing else.
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    try w.sql(
      "INSERT INTO workflows (project_id, states) VALUES (?, ?)", ["web", #"{"todo": {}, "done": {"terminal": true}}"#])
    let heard = Heard()
    guard case .success(let read) = WorkspaceWorkflows.global(path, audit: { heard.add($0, $1) }) else {
      Issue.record("the workflows were not read: \(heard.all.filter { $0.1 != .allow })")
      return
    }
    #expect(read.rows.map(\.0) == ["web"])
    #expect(!heard.all.isEmpty)
    for (request, verdict) in heard.all {
      #expect(verdict == .allow, "\(request)")
      if case .read(let table, _, _) = request.action {
        #expect(table == "workflows", "\(request)")
      }
    }
    // SQLITE_READ (20) of another table is refused, in the main database or an attached one.
    for (table, database) in [("secrets", "main"), ("accounts", "main"), ("workflows", "other")] {
      let asked = AuthorizerRequest(code: 20, names: [table, "value", database, nil])
      #expect(WorkspaceWorkflows.guard(asked) == .deny, "\(asked)")
    }
  }

  @Test(arguments: [
    "SELECT value FROM secrets", "SELECT * FROM accounts", "SELECT name, sql FROM sqlite_master",
    "SELECT l.feature_id FROM session_locks l JOIN secrets s ON s.name = l.session_id",
    "SELECT rowid FROM session_locks", "PRAGMA table_info(secrets)", "SELECT * FROM workflows",
    "SELECT name FROM pragma_table_info('secrets')",
  ])
  func aStatementReachingPastTheLocksIsRefused(sql: String) throws {
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    let reader = try SessionLocksReader(path: path)
    do {
      let rows = try reader.rows(sql)
      Issue.record("\(sql) read \(rows)")
    } catch {
      #expect(error.isNotAuthorized, "\(error)")
    }
  }

  @Test func aStoppedWritersGlobalDatabaseIsReadWithNothingMadeOrWrittenBesideIt() throws {
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:40:00")
    w.stop()
    let before = try Self.listing(path)
    #expect(before == ["global.db"], "the writer's close removed its -wal and -shm")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    do {
      let follower = SessionLocksFollower(path: path, origin: "o", projects: nil)
      let said = follower.look(at: Make.t("2026-11-20T00:00:00Z")) { nil }
      #expect(said.count == 1 && follower.delivered == [Self.lock("web", "F-1", "s1", "2026-11-19 23:40:00")])
      #expect(follower.look(at: Make.t("2026-11-20T00:00:01Z")) { nil }.isEmpty, "nothing changed: nothing said")
      #expect(try Self.listing(path) == before, "nothing made while open")
    }
    #expect(try Self.listing(path) == before, "nothing left after")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
  }

  @Test func badRowsAreSkippedAndNamedAndTheRestRead() throws {
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:40:00")
    try GlobalDatabase.lock(w, project: "web", feature: "F-2", session: "", at: "2026-11-19 23:40:00")
    try GlobalDatabase.lock(w, project: "web", feature: "F-3", session: "s3", at: "last tuesday")
    try GlobalDatabase.lock(
      w, project: "web", feature: "F-4", session: String(repeating: "s", count: 300), at: "2026-11-19 23:40:00")
    try GlobalDatabase.lock(w, project: "web", feature: "F-5", session: "s5", at: "2026-11-19T23:41:00Z")
    let follower = SessionLocksFollower(path: path, origin: "o", projects: nil)
    let said = follower.look(at: Make.t("2026-11-20T00:00:00Z")) { nil }
    #expect(
      follower.delivered == [
        Self.lock("web", "F-1", "s1", "2026-11-19 23:40:00"), Self.lock("web", "F-5", "s5", "2026-11-19 23:41:00"),
      ])
    let reasons = said.compactMap { i -> String? in if case .rejected(_, _, let r, _) = i { r } else { nil } }
    #expect(
      reasons == [
        "\(path): session_locks row 2: session_id is empty or not text",
        "\(path): session_locks row 3: locked_at \"last tuesday\" is not a time",
        "\(path): session_locks row 4: session_id holds 300 bytes, more than 256",
      ])
    #expect(follower.note == "3 session lock rows skipped")
    // Said once: the next read of the same rows rejects nothing again.
    try GlobalDatabase.lock(w, project: "web", feature: "F-6", session: "s6", at: "2026-11-19 23:42:00")
    let again = follower.look(at: Make.t("2026-11-20T00:00:01Z")) { nil }
    #expect(again.count == 1 && follower.delivered.count == 3)
  }

  @Test func noTableOrNoFileIsNoLocksAndNoProblem() throws {
    let (dir, path) = try Self.home()
    let w = try GlobalDatabase.make(path, withLocks: false)
    defer { w.stop() }
    #expect(try SessionLocksReader(path: path).read() == nil)
    let follower = SessionLocksFollower(path: path, origin: "o", projects: nil)
    #expect(follower.look(at: Make.t("2026-11-20T00:00:00Z")) { nil }.isEmpty && follower.note == nil)
    // A table without rows: said once, empty (it replaces whatever the origin said before).
    let (_, other) = try Self.home()
    let e = try GlobalDatabase.make(other)
    defer { e.stop() }
    let empty = SessionLocksFollower(path: other, origin: "o", projects: nil)
    let first = empty.look(at: Make.t("2026-11-20T00:00:00Z")) { nil }
    guard case .event(let said)? = first.first, first.count == 1 else {
      Issue.record("\(first)")
      return
    }
    #expect(said.body == .agentLocks([]))
    try e.sql("INSERT INTO secrets VALUES ('x', 'y')")
    #expect(empty.look(at: Make.t("2026-11-20T00:00:01Z")) { nil }.isEmpty)
    let missing = SessionLocksFollower(
      path: dir.url.appendingPathComponent("nothing/global.db").path, origin: "o", projects: nil)
    #expect(missing.look(at: Make.t("2026-11-20T00:00:00Z")) { nil }.isEmpty && missing.note == nil)
  }

  @Test func anUnreadableDatabaseIsNamedInTheNoteAndTheLocksStay() throws {
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:40:00")
    w.stop()
    let follower = SessionLocksFollower(path: path, origin: "o", projects: nil)
    #expect(follower.look(at: Make.t("2026-11-20T00:00:00Z")) { nil }.count == 1)
    try Data("not a database at all, not at all, not at all, not at all, not at all, not at all, not".utf8)
      .write(to: URL(fileURLWithPath: path))
    #expect(follower.look(at: Make.t("2026-11-20T00:00:01Z")) { nil }.isEmpty)
    #expect(
      follower.note?.hasPrefix("\(path): session locks unreadable: ") == true, "\(String(describing: follower.note))")
    #expect(follower.delivered.count == 1, "the locks last read stand")
  }

  @Test func theFollowerKeepsTheWorkspacesProjectsAndTheChosenOnes() throws {
    let (_, path) = try Self.home()
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    for p in ["web", "ops", "elsewhere"] {
      try GlobalDatabase.lock(w, project: p, feature: "F-1", session: "s-\(p)", at: "2026-11-19 23:40:00")
    }
    let all = SessionLocksFollower(path: path, origin: "o", projects: nil)
    _ = all.look(at: Make.t("2026-11-20T00:00:00Z")) { ["web", "ops"] }
    #expect(all.delivered.map(\.feature.project) == ["ops", "web"])
    let chosen = SessionLocksFollower(path: path, origin: "o", projects: ["web"])
    _ = chosen.look(at: Make.t("2026-11-20T00:00:00Z")) { ["web", "ops"] }
    #expect(chosen.delivered.map(\.feature.project) == ["web"])
  }

  /// Waits for the origin's locks to be `expected` (features and sessions, as `project/id@session`).
  static func wait(_ board: LiveBoard, _ origin: String, _ expected: [String]) -> Bool {
    board.wait(10) { s in
      (s.agentLocks[origin] ?? []).map { "\($0.feature.qualified)@\($0.session)" } == expected
    }
  }

  @Test func aWorkspaceSourceFollowsTheLocksLive() throws {
    let (home, path) = try Self.home()
    let ws = try OrchestraWorkspace(at: home.url.appendingPathComponent("ws.db").path)
    try ws.project("web")
    try ws.write(id: "F-1", status: "in-progress")
    try ws.write(id: "F-2", status: "todo")
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:40:00")
    try GlobalDatabase.lock(w, project: "ops", feature: "F-1", session: "s9", at: "2026-11-19 23:40:00")
    let wsPath = ws.path
    let origin = "orchestra-db:\(wsPath)"
    let source = OrchestraDBSource(
      origin: origin, workflows: WorkspaceWorkflows(globalDatabase: path), clock: .system
    ) { (wsPath, "SQLite \(wsPath)") }
    source.pollInterval = 0.05
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(Self.wait(board, origin, ["web/F-1@s1"]), "the workspace's project's lock only")
    // Refreshed by its holder: the same lock, since kept.
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:55:00")
    #expect(board.wait(10) { $0.agentLocks[origin]?.first?.lockedAt == AgentLock.time("2026-11-19 23:55:00") })
    #expect(board.board().agentLocks[origin]?.first?.since == AgentLock.time("2026-11-19 23:40:00"))
    // Another taken, then the first released.
    try GlobalDatabase.lock(w, project: "web", feature: "F-2", session: "s2", at: "2026-11-19 23:56:00")
    #expect(Self.wait(board, origin, ["web/F-1@s1", "web/F-2@s2"]))
    try w.sql("DELETE FROM session_locks WHERE feature_id = 'F-1' AND project_id = 'web'")
    #expect(Self.wait(board, origin, ["web/F-2@s2"]))
    #expect(board.board().origins[origin]?.connection == .live)
  }

  @Test func aMarkdownWorkspaceFollowsTheLocksLiveToo() throws {
    let (home, path) = try Self.home()
    let ws = home.url.appendingPathComponent("team-ws").path
    try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
    let md = try MarkdownWriter(workspace: ws)
    defer { md.stop() }
    try md.project("web")
    try md.feature(["id": "F-1", "title": "One", "status": "in-progress"])
    let w = try GlobalDatabase.make(path)
    defer { w.stop() }
    let origin = "orchestra-md:\(ws)"
    let source = OrchestraMarkdownSource(origin: origin, workspace: ws, globalDatabase: path, clock: .system)
    source.locksInterval = 0.05
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(10) { $0.origins[origin]?.connection == .live })
    #expect(board.board().agentLocks[origin] == nil, "no locks yet: nothing said")
    try GlobalDatabase.lock(w, project: "web", feature: "F-1", session: "s1", at: "2026-11-19 23:40:00")
    try GlobalDatabase.lock(w, project: "ops", feature: "F-1", session: "s9", at: "2026-11-19 23:40:00")
    #expect(Self.wait(board, origin, ["web/F-1@s1"]))
    try w.sql("DELETE FROM session_locks")
    #expect(board.wait(10) { $0.agentLocks[origin] == nil })
  }
}

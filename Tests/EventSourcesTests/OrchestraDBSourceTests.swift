import EventSources
import Foundation
import TestSupport
import Testing
import WallboardCore

/// `orchestra-db:`: the board follows the plugin's database while a second process writes it.
@Suite("Following an Orchestra workspace database", .serialized)
struct OrchestraDBSourceTests {
  static func follow(_ path: String) -> (OrchestraDBSource, LiveBoard) {
    let source = OrchestraDBSource(origin: "orchestra-db:\(path)") {
      WorkspaceLocator.isFile(path) ? (path, "SQLite \(path)") : (nil, "\(path): no such database yet")
    }
    source.pollInterval = 0.1
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board)
  }

  @Test func everyChangeReachesTheBoardWithinTwoSeconds() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo", estimate: "M")
    try ws.write(id: "FEAT-B", status: "in-progress")
    let (source, board) = Self.follow(ws.path)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 2 && $0.origins[source.origin]?.connection == .live })
    #expect(board.board().origins[source.origin]?.connectionDetail == "SQLite \(ws.path)")
    #expect(board.board().workflow(forProject: "web") == .upstream, "upstream's workflow for these sources")

    // A status change, a label change (into a sprint), an estimate change, a new feature, a delete.
    try ws.write(
      id: "FEAT-A", status: "in-review", estimate: "L", labels: #"["sprint:s1"]"#, at: "2026-11-04T10:00:00Z")
    try ws.write(id: "FEAT-C", status: "todo", at: "2026-11-04T10:01:00Z")
    try ws.delete(id: "FEAT-B", at: "2026-11-04T10:02:00Z")
    #expect(
      board.wait(2) { s in
        s.features["FEAT-A"]?.status == "in-review" && s.features["FEAT-A"]?.labels == ["sprint:s1"]
          && s.features["FEAT-A"]?.estimate == "L" && s.features["FEAT-C"] != nil && s.features["FEAT-B"] == nil
      }, "\(board.board().features.mapValues(\.status))")
    // Each change is timed by its change-log row.
    #expect(board.board().history["FEAT-C"]?.versions.first?.at == Make.t("2026-11-04T10:01:00Z"))
    #expect(board.board().counters.rejected == 0)
  }

  @Test func aLockedDatabaseIsStillReadAndARowWithoutItsLogEntryIsCaught() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")
    let (source, board) = Self.follow(ws.path)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 1 })
    // The writer holds its lock: WAL readers go on.
    try ws.writer.send(["begin": "immediate"])
    Thread.sleep(forTimeInterval: 0.5)
    #expect(board.board().origins[source.origin]?.connection == .live)
    try ws.writer.send(["commit": true])
    // The row is written; its change-log entry never is (a failed insert): the fingerprint finds it.
    try ws.write(id: "FEAT-A", status: "done", at: "2026-11-04T10:00:00Z", logged: false)
    #expect(board.wait(2) { $0.features["FEAT-A"]?.status == "done" })
  }

  @Test func aDatabaseThatAppearsLaterIsFollowedFromThen() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("later.db").path
    let (source, board) = Self.follow(path)
    defer { source.stop() }
    #expect(board.wait(3) { $0.origins[source.origin]?.connection == .offline })
    #expect(board.board().origins[source.origin]?.connectionDetail == "\(path): no such database yet")
    let writer = try SQLWriter(path: path)
    defer { writer.stop() }
    try writer.script(OrchestraWorkspace.ddl)
    try writer.sql("INSERT INTO projects (slug, name) VALUES ('web', 'web')")
    try writer.sql(
      "INSERT INTO features (id, project_id, title, status, updated_at) VALUES ('FEAT-X', 'web', 'X', 'todo', '2026-11-04T10:00:00Z')"
    )
    #expect(board.wait(3) { $0.features["FEAT-X"] != nil && $0.origins[source.origin]?.connection == .live })
  }
}

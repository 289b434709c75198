import Foundation
import SQLite
import TestSupport
import Testing

/// The one door to SQLite, against files a second process writes as the plugins do.
@Suite("SQLite", .serialized)
struct DatabaseTests {
  static func workspace() throws -> (OrchestraWorkspace, String, SQLWriter) {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    return (ws, ws.path, ws.writer)
  }

  static func write(_ w: SQLWriter, id: String, status: String, version: Int, labels: String = "[]") throws {
    try w.sql(
      """
      INSERT INTO features (id, project_id, title, status, labels, version, created_at, updated_at)
      VALUES (?, 'web', ?, ?, ?, ?, '2026-11-02T09:00:00Z', '2026-11-03T10:00:00Z')
      ON CONFLICT(id) DO UPDATE SET status = excluded.status, labels = excluded.labels, version = excluded.version,
      updated_at = excluded.updated_at
      """, [id, "Feature \(id)", status, labels, version])
    try w.sql(
      "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', ?, 'upsert', ?, ?)",
      [id, version, "2026-11-03T10:00:00Z"])
  }

  @Test func readsWhatASecondProcessWritesInWAL() throws {
    let (dir, path, w) = try Self.workspace()
    defer { w.stop(); _ = dir }
    try Self.write(w, id: "FEAT-ABC", status: "todo", version: 1, labels: #"["sprint:s1","area:ui \u003c"]"#)
    let db = try Database(path: path, mode: .readOnly)
    let rows = try db.rows("SELECT id, status, labels, version FROM features ORDER BY id")
    #expect(rows == [["FEAT-ABC", "todo", .text(#"["sprint:s1","area:ui \u003c"]"#), .integer(1)]])
    #expect(try db.scalar("PRAGMA journal_mode")?.text == "wal")
    // Another connection's commit moves data_version; reading moves nothing.
    let before = try db.dataVersion()
    #expect(try db.dataVersion() == before)
    try Self.write(w, id: "FEAT-ABC", status: "in-progress", version: 2)
    #expect(try db.dataVersion() != before)
    #expect(try db.scalar("SELECT status FROM features WHERE id = ?", ["FEAT-ABC"]) == "in-progress")
    let log = try db.rows("SELECT entity_id, action, version FROM change_log WHERE id > ? ORDER BY id", [1])
    #expect(log == [["FEAT-ABC", "upsert", .integer(2)]])
  }

  @Test func aReadOnlyConnectionNeverWrites() throws {
    let (dir, path, w) = try Self.workspace()
    defer { w.stop(); _ = dir }
    let db = try Database(path: path, mode: .readOnly)
    #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO projects (slug, name) VALUES ('x', 'x')") }
    #expect(try db.scalar("SELECT count(*) FROM projects") == .integer(1))
  }

  @Test func aLockedDatabaseIsBusyNotAnError() throws {
    let (dir, path, w) = try Self.workspace()
    defer { w.stop(); _ = dir }
    try w.send(["begin": "immediate"])
    let db = try Database(path: path, mode: .readWrite(create: false), busyTimeout: 0.1)
    // WAL readers are not blocked by the writer…
    #expect(try db.scalar("SELECT count(*) FROM features") == .integer(0))
    // …a second writer is, and says so.
    do {
      try db.execute("INSERT INTO projects (slug, name) VALUES ('x', 'x')")
      Issue.record("the write went through a held lock")
    } catch {
      #expect(error.isBusy, "\(error)")
    }
    try w.send(["commit": true])
    try db.execute("INSERT INTO projects (slug, name) VALUES ('x', 'x')")
  }

  @Test func aMissingFileCannotBeOpenedReadOnly() throws {
    let dir = try TempDir()
    do {
      _ = try Database(path: dir.url.appendingPathComponent("absent.db").path, mode: .readOnly)
      Issue.record("opened a missing file")
    } catch {
      #expect(error.isCannotOpen, "\(error)")
      #expect(error.description.contains("absent.db"))
    }
  }

  @Test func aFileThatIsNotADatabaseSaysSo() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("notes.db").path
    try String(repeating: "not a database\n", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
    let db = try Database(path: path, mode: .readOnly)
    do {
      _ = try db.rows("SELECT * FROM features")
      Issue.record("read a text file as a database")
    } catch {
      #expect(error.isNotADatabase, "\(error)")
    }
  }

  @Test func anOversizeValueIsAnErrorNotACopy() throws {
    let dir = try TempDir()
    let db = try Database(path: dir.url.appendingPathComponent("big.db").path, mode: .readWrite(create: true))
    db.maxValueBytes = 1000
    try db.execute("CREATE TABLE t (v TEXT)")
    try db.prepare("INSERT INTO t VALUES (?)").run([.text(String(repeating: "x", count: 1001))])
    do {
      _ = try db.rows("SELECT v FROM t")
      Issue.record("copied an oversize value")
    } catch {
      #expect(error.message == "column v holds 1001 bytes; the limit is 1000")
    }
  }

  @Test func valuesRoundTripAndStatementsAreOneAtATime() throws {
    let dir = try TempDir()
    let db = try Database(path: dir.url.appendingPathComponent("v.db").path, mode: .readWrite(create: true))
    try db.execute("CREATE TABLE t (a, b, c, d, e)")
    let values: [Value] = [.integer(-7), .real(2.5), .text("é 🚀"), .blob([0, 255, 7]), .null]
    try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)").run(values)
    #expect(try db.rows("SELECT * FROM t") == [values])
    #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT 1; SELECT 2") }
    #expect(throws: SQLiteError.self) { try db.prepare("SELECT ?").run([]) }
    #expect(try db.columns(of: "t") == ["a", "b", "c", "d", "e"])
    #expect(try db.columns(of: "absent").isEmpty)
    let total = try db.transaction { () throws(SQLiteError) -> Int64 in
      try db.execute("INSERT INTO t (a) VALUES (1)")
      return db.changes
    }
    #expect(total == 1)
  }
}

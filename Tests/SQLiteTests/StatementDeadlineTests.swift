import Foundation
import SQLite
import TestSupport
import Testing

/// Issue 21, item 3: no statement holds its thread for ever. A view that never yields a row (a
/// recursive query with no end) is interrupted at the connection's `statementTimeout`, with an
/// error naming the statement; the connection goes on working.
@Suite("SQLite statement deadline")
struct StatementDeadlineTests {
  /// A database with `forever`: a recursive view that counts for ever and yields nothing.
  static func database() throws -> (TempDir, Database) {
    let dir = try TempDir()
    let db = try Database(path: dir.url.appendingPathComponent("views.db").path, mode: .readWrite(create: true))
    try db.execute(
      """
      CREATE VIEW forever AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
      SELECT n FROM r WHERE n < 0;
      CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);
      """)
    return (dir, db)
  }

  /// What a query ended with: its rows, or the error's parts.
  enum Outcome: Sendable, Equatable {
    case rows(Int)
    case failed(pastDeadline: Bool, context: String, description: String)
  }

  static func outcome(_ body: () throws(SQLiteError) -> Int) -> Outcome {
    do throws(SQLiteError) { return .rows(try body()) } catch {
      return .failed(pastDeadline: error.isPastDeadline, context: error.context, description: error.description)
    }
  }

  @Test(arguments: ["rows", "scalar", "execute"])
  func aViewThatNeverEndsIsInterruptedAtTheDeadline(call: String) throws {
    let started = Date()
    let result = Deadline.within(10) { () -> Outcome in
      guard let (dir, db) = try? Self.database() else { return .rows(-1) }
      defer { _ = dir }
      db.statementTimeout = 0.3
      let sql = "SELECT n FROM forever"
      return Self.outcome { () throws(SQLiteError) -> Int in
        switch call {
        case "rows": return try db.rows(sql).count
        case "scalar": return try db.scalar(sql) == nil ? 0 : 1
        default:
          try db.execute(sql)
          return 0
        }
      }
    }
    let elapsed = Date().timeIntervalSince(started)
    let outcome = try #require(result, "\(call) of a view that never ends did not return within 10 s")
    guard case .failed(let late, let context, let description) = outcome else {
      Issue.record("\(call): \(outcome)")
      return
    }
    #expect(late, "\(description)")
    #expect(context == "SELECT n FROM forever", "the error names the statement")
    #expect(description.contains("time limit"), "\(description)")
    #expect(elapsed < 3, "interrupted after \(elapsed) s, the deadline being 0.3 s")
  }

  @Test func theConnectionWorksOnAfterADeadline() throws {
    let result = Deadline.within(10) { () -> [Outcome] in
      guard let (dir, db) = try? Self.database() else { return [] }
      defer { _ = dir }
      db.statementTimeout = 0.3
      let first = Self.outcome { () throws(SQLiteError) in try db.rows("SELECT n FROM forever").count }
      // Later than the deadline of the first: each statement has its own.
      Thread.sleep(forTimeInterval: 0.5)
      let second = Self.outcome { () throws(SQLiteError) in try db.rows("SELECT x FROM t").count }
      // A finite query well within the limit runs to its end.
      let third = Self.outcome { () throws(SQLiteError) in
        try db.rows(
          "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 20000) SELECT n FROM r",
          limit: 30_000
        ).count
      }
      return [first, second, third]
    }
    let outcomes = try #require(result, "did not return within 10 s")
    try #require(outcomes.count == 3)
    if case .failed(let late, _, _) = outcomes[0] { #expect(late) } else { Issue.record("\(outcomes[0])") }
    #expect(outcomes[1] == .rows(3))
    #expect(outcomes[2] == .rows(20000))
  }

  @Test func withoutATimeoutNothingIsInterrupted() throws {
    let (dir, db) = try Self.database()
    defer { _ = dir }
    #expect(db.statementTimeout == nil)
    let n = try db.rows(
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 50000) SELECT n FROM r", limit: 60_000
    ).count
    #expect(n == 50000)
  }
}

import Foundation
import SQLite
import TestSupport
import Testing

/// Issue 26, item 4: the authorizer seam (`sqlite3_set_authorizer`): it hears what a statement
/// would touch, and a denial refuses the statement.
@Suite("SQLite: the authorizer")
struct AuthorizerTests {
  static func database() throws -> (TempDir, Database) {
    let dir = try TempDir()
    let db = try Database(path: dir.url.appendingPathComponent("a.db").path, mode: .readWrite(create: true))
    try db.execute("CREATE TABLE open_t (a, b); CREATE TABLE secret_t (s); INSERT INTO open_t VALUES (1, 2)")
    return (dir, db)
  }

  final class Heard: @unchecked Sendable {
    var requests: [AuthorizerRequest] = []
  }

  @Test func itHearsEveryTableAndColumnAStatementReads() throws {
    let (_, db) = try Self.database()
    let heard = Heard()
    db.setAuthorizer { r in
      heard.requests.append(r)
      return .allow
    }
    #expect(try db.rows("SELECT a FROM open_t") == [[.integer(1)]])
    #expect(heard.requests.map(\.action) == [.select, .read(table: "open_t", column: "a", database: "main")])
    heard.requests = []
    _ = try db.dataVersion()
    #expect(heard.requests.map(\.action) == [.pragma(name: "data_version", argument: nil)])
  }

  @Test func aDenialRefusesTheStatementAndNilLiftsIt() throws {
    let (_, db) = try Self.database()
    db.setAuthorizer { r in
      if case .read(let table, _, _) = r.action, table == "secret_t" { return .deny }
      return .allow
    }
    #expect(try db.rows("SELECT b FROM open_t") == [[.integer(2)]])
    let e = #expect(throws: SQLiteError.self) { try db.rows("SELECT s FROM secret_t") }
    #expect(e?.isNotAuthorized == true, "\(String(describing: e))")
    db.setAuthorizer(nil)
    #expect(try db.rows("SELECT s FROM secret_t").isEmpty)
  }
}

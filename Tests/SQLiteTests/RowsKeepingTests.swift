import Foundation
import SQLite
import TestSupport
import Testing

/// `rows(_:_:keeping:)`: a value over the cap costs its own cell, never the query; rows past
/// the cap are counted, not read.
@Suite("SQLite: rows read one by one")
struct RowsKeepingTests {
  @Test(arguments: ["text", "blob"])
  func aValueOverTheCapIsNamedInItsRowAndTheOthersRead(kind: String) throws {
    let dir = try TempDir()
    let db = try Database(path: dir.url.appendingPathComponent("big.db").path, mode: .readWrite(create: true))
    db.maxValueBytes = 1000
    try db.execute("CREATE TABLE t (k INTEGER, v)")
    let big: Value =
      kind == "text" ? .text(String(repeating: "x", count: 1001)) : .blob(Array(repeating: 7, count: 1001))
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
    for (k, v) in [(1, Value.text("a")), (2, big), (3, .text("c"))] { try insert.run([.integer(Int64(k)), v]) }
    let (rows, leftOut) = try db.rows("SELECT k, v FROM t ORDER BY k", keeping: 10)
    #expect(leftOut == 0)
    #expect(rows.map(\.values) == [[1, "a"], [2, nil], [3, "c"]])
    #expect(rows.map { $0.oversize.map { "\($0.index) \($0.column) \($0.bytes)" } } == [[], ["1 v 1001"], []])
  }

  @Test(arguments: [0, 1, 2, 5, 6])
  func pastTheCapRowsAreCountedNotRead(keep: Int) throws {
    let dir = try TempDir()
    let db = try Database(path: dir.url.appendingPathComponent("n.db").path, mode: .readWrite(create: true))
    try db.execute(
      "CREATE TABLE t (k INTEGER); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) INSERT INTO t SELECT i FROM n"
    )
    let (rows, leftOut) = try db.rows("SELECT k FROM t ORDER BY k", keeping: keep)
    #expect(rows.map(\.values) == (1...5).prefix(keep).map { [Value.integer(Int64($0))] })
    #expect(leftOut == max(0, 5 - keep))
  }
}

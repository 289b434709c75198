internal import CSQLite

/// A prepared statement, finalized when the value goes away (`sqlite3_stmt`).
public final class Statement {
  /// Kept alive while the statement lives: a statement must be finalized before its connection.
  let database: Database
  let handle: OpaquePointer
  public let sql: String
  /// When the first step since the last reset ran: the statement's deadline counts from it.
  private var startedAt: ContinuousClock.Instant?

  init(database: Database, handle: OpaquePointer, sql: String) {
    self.database = database
    self.handle = handle
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `values` to the parameters `?1…?n` (`sqlite3_bind_*`), after a reset.
  public func bind(_ values: [Value]) throws(SQLiteError) {
    sqlite3_reset(handle)
    startedAt = nil
    sqlite3_clear_bindings(handle)
    guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
      throw SQLiteError(
        code: SQLITE_RANGE,
        message: "\(values.count) values for \(sqlite3_bind_parameter_count(handle)) parameters", context: sql)
    }
    for (i, v) in values.enumerated() {
      let n = Int32(i + 1)
      let rc: Int32
      switch v {
      case .null: rc = sqlite3_bind_null(handle, n)
      case .integer(let x): rc = sqlite3_bind_int64(handle, n, x)
      case .real(let x): rc = sqlite3_bind_double(handle, n, x)
      case .text(let s): rc = sqlite3_bind_text(handle, n, s, -1, wallboard_sqlite_transient())
      case .blob(let b):
        rc = b.withUnsafeBytes {
          sqlite3_bind_blob(handle, n, $0.baseAddress, Int32(b.count), wallboard_sqlite_transient())
        }
      }
      guard rc == SQLITE_OK else { throw database.error(rc, sql) }
    }
  }

  /// Steps to the next row: true for a row, false when done (`sqlite3_step`). Under the
  /// connection's `statementTimeout`, counted from the first step: past it, the error says so.
  public func step() throws(SQLiteError) -> Bool {
    let start = startedAt ?? .now
    startedAt = start
    let (rc, late) = database.underDeadline(from: start, sql) { sqlite3_step(handle) }
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE:
      startedAt = nil
      return false
    default:
      sqlite3_reset(handle)
      startedAt = nil
      throw late ?? database.error(rc, sql)
    }
  }

  /// Steps the statement to its end, for one that returns no rows.
  public func run(_ values: [Value] = []) throws(SQLiteError) {
    try bind(values)
    while try step() {}
  }

  public var columnCount: Int { Int(sqlite3_column_count(handle)) }

  public func columnName(_ i: Int) -> String { String(cString: sqlite3_column_name(handle, Int32(i))) }

  /// The length in bytes of column `i` of the current row when it is text or a blob longer
  /// than the connection's `maxValueBytes` (what `value(_:)` would refuse); nil otherwise
  /// (`sqlite3_column_bytes`).
  public func oversize(_ i: Int) -> Int? {
    let c = Int32(i)
    let type = sqlite3_column_type(handle, c)
    guard type == SQLITE_TEXT || type == SQLITE_BLOB else { return nil }
    let bytes = Int(sqlite3_column_bytes(handle, c))
    return bytes > database.maxValueBytes ? bytes : nil
  }

  /// Column `i` of the current row; text and blobs longer than the connection's
  /// `maxValueBytes` are an error (`SQLITE_TOOBIG`), never copied.
  public func value(_ i: Int) throws(SQLiteError) -> Value {
    let c = Int32(i)
    switch sqlite3_column_type(handle, c) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, c))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, c))
    case SQLITE_NULL: return .null
    case let type:
      let bytes = Int(sqlite3_column_bytes(handle, c))
      guard bytes <= database.maxValueBytes else {
        throw SQLiteError(
          code: SQLITE_TOOBIG,
          message: "column \(columnName(i)) holds \(bytes) bytes; the limit is \(database.maxValueBytes)", context: sql)
      }
      if type == SQLITE_TEXT {
        guard let p = sqlite3_column_text(handle, c) else { return .text("") }
        return .text(String(decoding: UnsafeBufferPointer(start: p, count: bytes), as: UTF8.self))
      }
      guard let p = sqlite3_column_blob(handle, c) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: p, count: bytes)))
    }
  }
}

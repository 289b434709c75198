internal import CSQLite

/// One connection to an SQLite database file, closed when the value goes away
/// (`sqlite3_open_v2` / `sqlite3_close_v2`).
///
/// Not `Sendable`: a connection stays on the thread that opened it.
public final class Database {
  /// How the file is opened.
  public enum Mode: Hashable, Sendable {
    /// Read only, never created (`mode=ro`): a workspace another process writes.
    case readOnly
    /// Read and write; `create` makes the file when it is missing.
    case readWrite(create: Bool)
  }

  public let path: String
  /// The longest text or blob a column may hand back; a longer one is an error, not a copy.
  public var maxValueBytes = 1 << 20
  /// How long one statement may run, in seconds, from its first step to its last (nil: no
  /// limit). Past it the statement is interrupted (`sqlite3_progress_handler`) and fails with an
  /// error that names it (`SQLiteError.isPastDeadline`): a view that never ends cannot hold
  /// the caller's thread.
  public var statementTimeout: Double? {
    didSet {
      guard !progressHandlerInstalled else { return }
      progressHandlerInstalled = true
      sqlite3_progress_handler(
        handle, Self.progressSteps,
        { context in
          guard let context else { return 0 }
          return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().pastDeadline ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }
  }
  /// How many virtual-machine steps pass between two looks at the deadline.
  static let progressSteps: Int32 = 1000
  private var progressHandlerInstalled = false
  /// When the call running now must end; nil outside a call, or without `statementTimeout`.
  var deadline: ContinuousClock.Instant?
  private var pastDeadline: Bool { deadline.map { ContinuousClock.now >= $0 } ?? false }
  let handle: OpaquePointer

  /// Opens `path`. Waits up to `busyTimeout` seconds for another connection's lock before a
  /// call fails with `SQLITE_BUSY`.
  public init(path: String, mode: Mode, busyTimeout: Double = 1) throws(SQLiteError) {
    self.path = path
    var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
    let uri: String
    switch mode {
    case .readOnly:
      flags |= SQLITE_OPEN_READONLY
      uri = "file:\(Database.uriPath(path))?mode=ro"
    case .readWrite(let create):
      flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
      uri = "file:\(Database.uriPath(path))"
    }
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(uri, &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
      let extended = db.map { sqlite3_extended_errcode($0) } ?? rc
      sqlite3_close_v2(db)
      throw SQLiteError(code: rc & 0xFF, extendedCode: extended, message: message, context: "open \(path)")
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, Int32(max(0, min(busyTimeout, 3600)) * 1000))
  }

  deinit {
    if progressHandlerInstalled { sqlite3_progress_handler(handle, 0, nil, nil) }
    sqlite3_close_v2(handle)
  }

  /// Runs one call into the library under the deadline of a statement that started at `start`;
  /// an interruption past it becomes the error naming `context` (the statement).
  func underDeadline(
    from start: ContinuousClock.Instant, _ context: String, _ call: () -> Int32
  ) -> (rc: Int32, error: SQLiteError?) {
    guard let timeout = statementTimeout else { return (call(), nil) }
    deadline = start + .milliseconds(Int64(max(0, min(timeout, 86_400)) * 1000))
    defer { deadline = nil }
    let rc = call()
    guard rc == SQLITE_INTERRUPT, pastDeadline else { return (rc, nil) }
    return (rc, .pastDeadline(seconds: timeout, context: context))
  }

  /// A path as a `file:` URI's path: `%`, `?` and `#` escaped.
  static func uriPath(_ path: String) -> String {
    var out = ""
    for c in path.unicodeScalars {
      switch c {
      case "%": out += "%25"
      case "?": out += "%3f"
      case "#": out += "%23"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// The error the connection's last call left, for `context`.
  func error(_ rc: Int32, _ context: String) -> SQLiteError {
    SQLiteError(
      code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
      context: context)
  }

  /// Prepares one statement (`sqlite3_prepare_v2`); SQL after the first statement is an error.
  public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
    var stmt: OpaquePointer?
    var tail: UnsafePointer<CChar>?
    let rc = sql.withCString { sqlite3_prepare_v2(handle, $0, -1, &stmt, &tail) }
    guard rc == SQLITE_OK, let stmt else {
      sqlite3_finalize(stmt)
      throw rc == SQLITE_OK
        ? SQLiteError(code: SQLITE_MISUSE, message: "no statement", context: sql) : error(rc, sql)
    }
    if let tail, tail.pointee != 0, !String(cString: tail).allSatisfy(\.isWhitespace) {
      sqlite3_finalize(stmt)
      throw SQLiteError(code: SQLITE_MISUSE, message: "more than one statement", context: sql)
    }
    return Statement(database: self, handle: stmt, sql: sql)
  }

  /// Runs SQL without results: statements separated by `;` (`sqlite3_exec`), for DDL and pragmas.
  public func execute(_ sql: String) throws(SQLiteError) {
    let (rc, late) = underDeadline(from: .now, sql) { sqlite3_exec(handle, sql, nil, nil, nil) }
    if let late { throw late }
    guard rc == SQLITE_OK else { throw error(rc, sql) }
  }

  /// Every row of one query, at most `limit` of them (more is an error, not memory).
  public func rows(_ sql: String, _ arguments: [Value] = [], limit: Int = 1_000_000) throws(SQLiteError) -> [[Value]] {
    let s = try prepare(sql)
    try s.bind(arguments)
    var out: [[Value]] = []
    while try s.step() {
      guard out.count < limit else {
        throw SQLiteError(code: SQLITE_TOOBIG, message: "more than \(limit) rows", context: sql)
      }
      out.append(try (0..<s.columnCount).map { i throws(SQLiteError) in try s.value(i) })
    }
    return out
  }

  /// The first column of the first row, or nil when there is no row.
  public func scalar(_ sql: String, _ arguments: [Value] = []) throws(SQLiteError) -> Value? {
    let s = try prepare(sql)
    try s.bind(arguments)
    return try s.step() ? s.value(0) : nil
  }

  /// `PRAGMA data_version`: changes whenever another connection commits to the file — a
  /// change check that reads no table.
  public func dataVersion() throws(SQLiteError) -> Int64 {
    try scalar("PRAGMA data_version")?.integer ?? 0
  }

  /// The columns of `table` (`PRAGMA table_info`), in order; empty when there is no such table.
  public func columns(of table: String) throws(SQLiteError) -> [String] {
    try rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.first?.text }
  }

  /// Runs `body` in one transaction (`BEGIN IMMEDIATE` … `COMMIT`), rolled back when it throws.
  public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE (`sqlite3_changes64`).
  public var changes: Int64 { sqlite3_changes64(handle) }
  /// The rowid of the last INSERT (`sqlite3_last_insert_rowid`).
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}

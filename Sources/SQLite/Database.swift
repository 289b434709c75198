internal import CSQLite
internal import Glibc

/// One connection to an SQLite database file, closed when the value goes away
/// (`sqlite3_open_v2` / `sqlite3_close_v2`).
///
/// Not `Sendable`: a connection stays on the thread that opened it.
public final class Database {
  /// How the file is opened.
  public enum Mode: Hashable, Sendable {
    /// Read only, never created, and nothing made beside the file: a workspace another process
    /// writes, a journal on read-only media. How it is read (`ReadAccess`) is chosen on open.
    case readOnly
    /// Read and write; `create` makes the file when it is missing.
    case readWrite(create: Bool)
  }

  /// How a read-only connection reads its file (SQLite's "Read-Only Databases" and URI
  /// `immutable` parameter).
  public enum ReadAccess: Hashable, Sendable {
    /// `mode=ro`: with locks, through the writer's `-wal` and `-shm`, which are already there
    /// (read-only ones too): every commit is seen, and `data_version` moves with each.
    case shared
    /// `mode=ro&immutable=1`: the file as it is, without locks, without a `-wal` or `-shm` —
    /// none made, none read. For a WAL database whose writer has stopped: SQLite would otherwise
    /// make both beside it (and leave them), or, where the folder is read-only, not open it at
    /// all. A writer's later commits are not seen: `fileChanged()` says when to open again.
    case snapshot
  }

  public let path: String
  /// How a read-only connection reads its file; nil for one that writes.
  public let readAccess: ReadAccess?
  /// What the file and its `-wal` and `-shm` were when a snapshot was opened.
  private let openedState: FileState?
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
  /// The authorizer's function, kept alive while SQLite holds it (`setAuthorizer`).
  var authorizer: AuthorizerBox?
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
      // The state first: a writer that starts between the look and the open is then caught by
      // the next `fileChanged()`.
      let state = FileState(path)
      let access = Database.readAccess(for: path)
      readAccess = access
      openedState = access == .snapshot ? state : nil
      uri = "file:\(Database.uriPath(path))?mode=ro" + (access == .snapshot ? "&immutable=1" : "")
    case .readWrite(let create):
      flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
      uri = "file:\(Database.uriPath(path))"
      readAccess = nil
      openedState = nil
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
    if authorizer != nil { sqlite3_set_authorizer(handle, nil, nil) }
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

  /// How a read-only connection to `path` reads it: a snapshot when the file is a WAL database
  /// (its header's read and write versions are 2) whose `-wal` or `-shm` is missing (its writer
  /// has stopped: the last connection's close removes both); shared otherwise — a rollback-journal
  /// database, one a writer has open, or what is not a database (SQLite then says so). A `-wal`
  /// left without its `-shm` (by a crash) is not read by a snapshot.
  public static func readAccess(for path: String) -> ReadAccess {
    guard isWALFile(path) else { return .shared }
    return access(path + "-wal", F_OK) == 0 && access(path + "-shm", F_OK) == 0 ? .shared : .snapshot
  }

  /// Whether `path` is a regular file whose 100-byte header says WAL (`SQLite format 3`, bytes
  /// 18 and 19 equal to 2). Opened without blocking: a FIFO is not waited on.
  static func isWALFile(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
    var header = [UInt8](repeating: 0, count: 100)
    let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 100, 0) }
    guard n == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return false }
    return header[18] == 2 && header[19] == 2
  }

  /// Whether the file a snapshot was opened on changed since (written, replaced, or a writer
  /// opened it: its `-wal` or `-shm` came): open again to read what it holds now. Always false
  /// for a shared connection (it sees every commit) and one that writes.
  public func fileChanged() -> Bool {
    guard let openedState else { return false }
    return FileState(path) != openedState
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

  /// A value too long to read (over `maxValueBytes`): which column and how long it is.
  public struct Oversize: Hashable, Sendable {
    /// The column's index in the row.
    public var index: Int
    /// Its name in the query (`sqlite3_column_name`).
    public var column: String
    public var bytes: Int
  }

  /// A row whose values over the connection's cap were not read: those are `.null` in
  /// `values`, and named in `oversize`.
  public struct Row: Hashable, Sendable {
    public var values: [Value]
    /// The values left out, in column order; empty when the row read whole.
    public var oversize: [Oversize]
  }

  /// The first `keep` rows of one query, where a value over `maxValueBytes` costs its own row
  /// a value (named in the row), never the query; and how many rows followed them (stepped
  /// over and counted, not read).
  public func rows(
    _ sql: String, _ arguments: [Value] = [], keeping keep: Int
  ) throws(SQLiteError) -> (rows: [Row], leftOut: Int) {
    let s = try prepare(sql)
    try s.bind(arguments)
    var out: [Row] = []
    var leftOut = 0
    while try s.step() {
      guard out.count < keep else {
        leftOut += 1
        continue
      }
      var row = Row(values: [], oversize: [])
      row.values.reserveCapacity(s.columnCount)
      for i in 0..<s.columnCount {
        if let bytes = s.oversize(i) {
          row.oversize.append(Oversize(index: i, column: s.columnName(i), bytes: bytes))
          row.values.append(.null)
        } else {
          row.values.append(try s.value(i))
        }
      }
      out.append(row)
    }
    return (out, leftOut)
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

/// What `fileChanged()` compares: the file's identity, size and modification time, and whether
/// its `-wal` and `-shm` are there.
struct FileState: Equatable {
  var device: UInt64 = 0
  var inode: UInt64 = 0
  var size: Int64 = -1
  var seconds = 0
  var nanoseconds = 0
  var wal: Bool
  var shm: Bool

  init(_ path: String) {
    var st = stat()
    if stat(path, &st) == 0 {
      device = UInt64(st.st_dev)
      inode = UInt64(st.st_ino)
      size = Int64(st.st_size)
      seconds = Int(st.st_mtim.tv_sec)
      nanoseconds = Int(st.st_mtim.tv_nsec)
    }
    wal = access(path + "-wal", F_OK) == 0
    shm = access(path + "-shm", F_OK) == 0
  }
}

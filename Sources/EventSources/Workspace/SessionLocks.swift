internal import SQLite
internal import SourceKit
internal import WallboardCore

/// Reads upstream's agent locks from the global database (`~/.orchestra/db/global.db`, table
/// `session_locks (feature_id, project_id, session_id, locked_at)`), read-only and behind a guard.
///
/// The same file holds secrets and account data, which the board must never read: the
/// connection's authorizer (`SessionLocksReader.guard`) allows only a `SELECT` of those four
/// columns of `session_locks` and the `data_version` pragma, and denies everything else — a
/// statement that reaches for another table or column fails to prepare. The file is opened as
/// the workspace database is (`Database.Mode.readOnly`): nothing is made or written beside it.
final class SessionLocksReader {
  public let path: String
  let db: Database

  /// The columns read, the only ones the guard lets a statement touch.
  public static let columns = ["feature_id", "project_id", "session_id", "locked_at"]
  /// The most rows read (the board keeps at most as many locks per source); the rest are
  /// counted, not read.
  public static let maxRows = AgentLock.maxPerSource
  /// The longest id (feature, project, session) or time a row may hold, in bytes.
  public static let maxValueBytes = 256
  /// The one query the reader runs, besides `PRAGMA data_version`.
  static let query =
    "SELECT feature_id, project_id, session_id, locked_at FROM session_locks ORDER BY project_id, feature_id, session_id"

  /// Opens `path` read-only with the guard in place before any statement runs; `audit` (tests)
  /// hears every request the guard answers, and its answer.
  public init(
    path: String, audit: (@Sendable (AuthorizerRequest, AuthorizerVerdict) -> Void)? = nil
  ) throws(SQLiteError) {
    self.path = path
    db = try Database(path: path, mode: .readOnly, busyTimeout: 0.5)
    db.maxValueBytes = Self.maxValueBytes
    db.statementTimeout = OrchestraDatabase.statementTimeout
    db.setAuthorizer { request in
      let verdict = Self.guard(request)
      audit?(request, verdict)
      return verdict
    }
  }

  /// What the reader's connection may do: select, read the four columns of `session_locks` in
  /// the main database, and ask `data_version`. Nothing else.
  public static func `guard`(_ request: AuthorizerRequest) -> AuthorizerVerdict {
    switch request.action {
    case .select: return .allow
    case .read(let table, let column, let database):
      return table == "session_locks" && columns.contains(column) && database == "main" ? .allow : .deny
    case .pragma(let name, let argument): return name == "data_version" && argument == nil ? .allow : .deny
    case .other: return .deny
    }
  }

  /// A statement run on the guarded connection (tests: one the guard must refuse).
  func rows(_ sql: String) throws(SQLiteError) -> [[Value]] { try db.rows(sql) }

  /// `PRAGMA data_version`: moves when another connection commits.
  public func dataVersion() throws(SQLiteError) -> Int64 { try db.dataVersion() }

  /// Whether a snapshot's file changed since it was opened (see `Database.fileChanged()`).
  public func fileChanged() -> Bool { db.fileChanged() }

  /// What one read found: the locks, the rows that could not be read (each named), and the
  /// rows past `maxRows`.
  public struct Read: Hashable, Sendable {
    public var locks: [AgentLock]
    public var skipped: [String]
    public var leftOut: Int
  }

  /// Every lock of the table (of `projects`, when given), in (project, feature, session) order;
  /// nil when the database has no `session_locks` table (an older upstream).
  public func read(projects: Set<String>? = nil) throws(SQLiteError) -> Read? {
    let rows: [Database.Row]
    let leftOut: Int
    do throws(SQLiteError) {
      (rows, leftOut) = try db.rows(Self.query, keeping: Self.maxRows)
    } catch {
      if error.message.hasPrefix("no such table") { return nil }
      throw error
    }
    var out = Read(locks: [], skipped: [], leftOut: leftOut)
    for (n, row) in rows.enumerated() {
      switch Self.lock(row) {
      case .success(let lock):
        if let projects, !projects.contains(lock.feature.project) { continue }
        out.locks.append(lock)
      case .failure(let why):
        out.skipped.append("\(path): session_locks row \(n + 1): \(why.text)")
      }
    }
    return out
  }

  /// Why a row is not a lock.
  struct BadRow: Error {
    var text: String
  }

  /// One row as a lock: its ids non-empty text, its time one upstream writes.
  static func lock(_ row: Database.Row) -> Result<AgentLock, BadRow> {
    if let o = row.oversize.first {
      return .failure(BadRow(text: "\(o.column) holds \(o.bytes) bytes, more than \(maxValueBytes)"))
    }
    var text: [String] = []
    for (i, v) in row.values.enumerated() {
      guard let s = v.text, !s.isEmpty else { return .failure(BadRow(text: "\(columns[i]) is empty or not text")) }
      text.append(s)
    }
    guard let at = AgentLock.time(text[3]) else {
      return .failure(BadRow(text: "locked_at \"\(text[3])\" is not a time"))
    }
    return .success(
      AgentLock(feature: FeatureKey(project: text[1], id: text[0]), session: text[2], lockedAt: at))
  }
}

/// Follows the agent locks for one workspace source: on each look, the global database's
/// `session_locks` read again when it changed (`PRAGMA data_version`; a file replaced, or read
/// as a snapshot that changed, is opened again), and an `agents.locks` of the source's origin
/// when the set it keeps changed (and at the first read of the table, even empty). A missing database or table is no locks and no problem; one
/// that cannot be read is a `note` for the source's detail (naming the file) and leaves the
/// locks as they were; bad rows are skipped, rejected once each and counted in the note.
/// On the source's own thread only.
final class SessionLocksFollower {
  let path: String?
  let origin: String
  /// The projects the source keeps (`--project`); nil: every one.
  let projects: Set<String>?
  private var reader: SessionLocksReader?
  private var inode: UInt64 = 0
  private var dataVersion: Int64?
  /// A lock's holder and feature.
  private struct PairKey: Hashable {
    var feature: FeatureKey
    var session: String
  }
  /// The set last delivered (empty before any).
  var delivered: [AgentLock] { said ?? [] }
  /// The set last delivered; nil before the first read of a `session_locks` table, which is
  /// said even when empty (the source may follow a store another source of its origin followed
  /// before, whose locks it replaces).
  private var said: [AgentLock]?
  /// The next set is said even when it is the one last said (the first read of a table).
  private var mustSay = false
  /// The bad rows last said.
  private var skipped: [String] = []
  /// What the source's detail should add: why the locks cannot be read, or the rows skipped.
  private(set) var note: String?

  init(path: String?, origin: String, projects: Set<String>?) {
    self.path = path
    self.origin = origin
    self.projects = projects
  }

  /// One look at `now`: what to deliver (nothing when nothing changed). `workspaceProjects` (asked
  /// only when the table is read) are the projects of the workspace: the global database holds
  /// every workspace's locks, and this one's are those of its projects (nil: every lock).
  func look(at now: Instant, workspaceProjects: () -> Set<String>?) -> [BoardInput] {
    guard let path, WorkspaceLocator.isFile(path) else {
      reader = nil
      note = nil
      return deliver([], at: now, skipped: [])
    }
    if let r = reader, FileStamp.of(path)?.inode ?? 0 != inode || r.fileChanged() { reader = nil }
    do throws(SQLiteError) {
      if reader == nil {
        reader = try SessionLocksReader(path: path)
        inode = FileStamp.of(path)?.inode ?? 0
        dataVersion = nil
      }
      let version = try reader!.dataVersion()
      guard version != dataVersion else { return [] }
      var wanted = workspaceProjects()
      if let p = projects { wanted = wanted.map { $0.intersection(p) } ?? p }
      let found = try reader!.read(projects: wanted)
      let read = found ?? SessionLocksReader.Read(locks: [], skipped: [], leftOut: 0)
      if found != nil, said == nil { mustSay = true }
      dataVersion = version
      var parts: [String] = []
      if !read.skipped.isEmpty {
        parts.append("\(read.skipped.count) session lock row\(read.skipped.count == 1 ? "" : "s") skipped")
      }
      if read.leftOut > 0 { parts.append("\(read.leftOut) session locks left out (cap \(SessionLocksReader.maxRows))") }
      note = parts.isEmpty ? nil : parts.joined(separator: ", ")
      return deliver(read.locks, at: now, skipped: read.skipped)
    } catch {
      // Locked by a writer: the next look tries again.
      if error.isBusy { return [] }
      reader = nil
      note = "\(path): session locks unreadable: \(error.message)"
      return []
    }
  }

  /// The rejections of newly bad rows, and the locks when they changed: dated by the newest
  /// `locked_at` (never after the read; the read when there is none).
  private func deliver(_ locks: [AgentLock], at now: Instant, skipped bad: [String]) -> [BoardInput] {
    var out: [BoardInput] = []
    let told = Set(skipped)
    for s in bad where !told.contains(s) { out.append(.rejected(origin: origin, at: now, reason: s)) }
    skipped = bad
    let sorted = locks.sorted(by: AgentLock.inKeyOrder)
    guard sorted != delivered || mustSay else { return out }
    mustSay = false
    // A set that only took or refreshed locks is as new as its newest `locked_at`; one that
    // lost a lock (released, or taken by another session) says nothing of when: the read.
    let previous = said ?? []
    let kept = Set(sorted.map { PairKey(feature: $0.feature, session: $0.session) })
    let lost = previous.contains { !kept.contains(PairKey(feature: $0.feature, session: $0.session)) }
    said = sorted
    let newest = lost ? now : (sorted.map(\.lockedAt).max().map { min($0, now) } ?? now)
    out.append(.event(Event(origin: origin, time: newest, receivedAt: now, body: .agentLocks(sorted))))
    return out
  }
}

public import SQLite
public import WallboardCore
internal import Wire

/// Reads the storage plugin's SQLite database (`orchestra-storage.md` §1), read-only.
///
/// Tolerant of what real databases hold: columns that are missing (an older schema) read as
/// their defaults and extra ones are ignored; a database without `change_log` (a plugin older
/// than 2026-03-20) says so, and its reader resyncs in full; timestamps in both of the formats
/// upstream writes (`2026-03-08T16:53:37Z`, and SQLite's `2026-03-08 16:53:37`).
public final class OrchestraDatabase {
  public let path: String
  let db: Database
  /// The `features` columns this database has.
  let columns: Set<String>
  /// Whether it has a `change_log` table.
  public let hasChangeLog: Bool

  /// What a row of `change_log` says: entity `entityID` of `entityType` was written (`upsert`)
  /// or deleted (`delete`).
  public struct Change: Hashable, Sendable {
    public var id: Int64
    public var entityType: String
    public var entityID: String
    public var action: String
    public var at: Instant?
  }

  /// A feature row that could not be read as a feature: the id and why.
  public struct RowProblem: Error, Hashable, Sendable {
    public var id: String
    public var problem: String
    /// The row's project, when it could be read.
    public var project: String? = nil
    /// The row was read, and only a value in it set aside (an audit-trail date outside the
    /// feature's lifetime): a report, not an unreadable row.
    public var kept = false

    /// `project/id`, or the id alone: how a diagnostic names the row.
    public var name: String { project.map { "\($0)/\(id)" } ?? id }
  }

  /// The largest value read from a workspace database (a body, a JSON column); a row that
  /// holds a longer one is a problem naming the column and its size, and costs no other row.
  public static let maxValueBytes = 256 * 1024

  /// The most features one read returns (the board keeps at most 100,000): the first by project
  /// and id; how many more there were is said (`leftOut`).
  public static let maxFeatures = 100_000
  /// The most change-log rows one look returns; the rest come with the next.
  public static let maxChanges = 10_000

  /// How long one query may run by default (`Database.statementTimeout`): a `features` or
  /// `change_log` that is a view which never ends is cut off, never followed for ever.
  public static let statementTimeout = 5.0

  /// Opens `path` read-only (busy waits up to `busyTimeout` s for another connection's lock;
  /// every statement ends within `statementTimeout` s).
  public init(
    path: String, busyTimeout: Double = 0.5, statementTimeout: Double = statementTimeout
  )
    throws(SQLiteError)
  {
    self.path = path
    db = try Database(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    db.maxValueBytes = Self.maxValueBytes
    db.statementTimeout = statementTimeout
    columns = Set(try db.columns(of: "features"))
    guard columns.contains("id") else {
      throw SQLiteError(code: 1, message: "no features table with an id column", context: "open \(path)")
    }
    hasChangeLog = try !db.columns(of: "change_log").isEmpty
  }

  /// `PRAGMA data_version`: moves when another connection commits.
  public func dataVersion() throws(SQLiteError) -> Int64 { try db.dataVersion() }

  /// Whether the file was read as a snapshot (`Database.ReadAccess.snapshot`: a WAL database
  /// whose writer has stopped), whose later changes `fileChanged()` must catch.
  public var isSnapshot: Bool { db.readAccess == .snapshot }

  /// Whether a snapshot's file changed since it was opened (written, or a writer came back):
  /// open it again. Always false for a connection that sees every commit.
  public func fileChanged() -> Bool { db.fileChanged() }

  static let wanted = [
    "id", "project_id", "title", "status", "priority", "kind", "assignee", "estimate", "labels", "version",
    "created_at", "updated_at", "depends_on",
  ]

  private var selectList: String {
    Self.wanted.map { columns.contains($0) ? $0 : "NULL" }.joined(separator: ", ")
  }

  /// The most characters of a body read for its audit trail: its end, where the newest entries
  /// are (`substr` counts characters, so at most 4 bytes each: within the value cap).
  public static let maxBodyCharacters = AuditTrail.maxBodyBytes / 4

  /// Every feature (of `projects`, when given), by id, and the rows that could not be read.
  public func features(
    projects: Set<String>? = nil
  ) throws(SQLiteError) -> (features: [Feature], problems: [RowProblem]) {
    let rows = try features(projects: projects, history: nil)
    return (rows.features, rows.problems)
  }

  /// What one read of the whole store found: the features (the first `maxFeatures` rows by
  /// project and id), the rows that could not be read, each feature's past when asked, and how
  /// many rows past the cap were left out.
  public struct Read {
    public var features: [Feature]
    public var problems: [RowProblem]
    public var history: [FeatureKey: [StatusMove]]
    /// Rows past `maxFeatures`, not read.
    public var leftOut: Int
  }

  /// Every feature (of `projects`, when given), the rows that could not be read and, when
  /// `history` is given, each feature's past from its body's audit trail and its timestamps
  /// (`AuditTrail.backfill`): the moves of the features that have any, by id. The `body` column
  /// may be missing (no history, then); a body is read from its end, `maxBodyCharacters` at most.
  public func features(
    projects: Set<String>? = nil, history: (now: Instant, initialState: String)?
  ) throws(SQLiteError) -> Read {
    var columnsRead = selectList
    if history != nil {
      columnsRead +=
        columns.contains("body")
        ? ", substr(body, -\(Self.maxBodyCharacters)), length(body) > \(Self.maxBodyCharacters)" : ", NULL, 0"
    }
    var sql = "SELECT \(columnsRead) FROM features"
    var args: [Value] = []
    if let projects, columns.contains("project_id") {
      sql += " WHERE project_id IN (\(Array(repeating: "?", count: projects.count).joined(separator: ", ")))"
      args = projects.sorted().map(Value.text)
    }
    sql += columns.contains("project_id") ? " ORDER BY project_id, id" : " ORDER BY id"
    let (rows, leftOut) = try db.rows(sql, args, keeping: Self.maxFeatures)
    var out: [Feature] = []
    var problems: [RowProblem] = []
    var past: [FeatureKey: [StatusMove]] = [:]
    out.reserveCapacity(rows.count)
    for row in rows {
      let (read, moves, setAside) = Self.decode(row: row.values, oversize: row.oversize, history: history)
      if let setAside { problems.append(setAside) }
      switch read {
      case .success(let f):
        out.append(f)
        if !moves.isEmpty { past[f.key] = moves }
      case .failure(let p): problems.append(p)
      }
    }
    return Read(features: out, problems: problems, history: past, leftOut: leftOut)
  }

  /// The features of one id, in every project that holds it (upstream's ids are unique only
  /// within a project); empty when there is none.
  public func features(id: String) throws(SQLiteError) -> [Result<Feature, RowProblem>] {
    let order = columns.contains("project_id") ? " ORDER BY project_id" : ""
    let rows = try db.rows(
      "SELECT \(selectList) FROM features WHERE id = ?\(order)", [.text(id)], keeping: Self.maxFeatures
    ).rows
    return rows.map { Self.feature($0.values, oversize: $0.oversize) }
  }

  /// The change-log rows after `cursor`, oldest first (at most `maxChanges`); nil without a
  /// change log. A value over the cap reads as empty (an entity id no feature has, no time):
  /// the row is passed over, never the log.
  public func changes(after cursor: Int64) throws(SQLiteError) -> [Change]? {
    guard hasChangeLog else { return nil }
    return try db.rows(
      "SELECT id, entity_type, entity_id, action, timestamp FROM change_log WHERE id > ? ORDER BY id LIMIT ?",
      [.integer(cursor), .integer(Int64(Self.maxChanges))], keeping: Self.maxChanges
    ).rows.map(\.values).map { r in
      Change(
        id: r[0].integer ?? 0, entityType: r[1].text ?? "", entityID: r[2].text ?? "", action: r[3].text ?? "",
        at: r[4].text.flatMap(Self.instant))
    }
  }

  /// The time of the last change-log row (a delete's too); nil without a change log, a row or a
  /// time that reads.
  public func lastChangeTime() throws(SQLiteError) -> Instant? {
    guard hasChangeLog else { return nil }
    return try db.rows("SELECT timestamp FROM change_log ORDER BY id DESC LIMIT 1", keeping: 1).rows.first?
      .values[0].text.flatMap(Self.instant)
  }

  /// The last change-log id (0 when empty); nil without a change log.
  public func lastChange() throws(SQLiteError) -> Int64? {
    guard hasChangeLog else { return nil }
    return try db.scalar("SELECT coalesce(max(id), 0) FROM change_log")?.integer ?? 0
  }

  /// What changes when rows change without a change-log entry (a cascade, a migration): the row
  /// count, the latest `updated_at` (a value over the cap as its size) and the sum of versions.
  public func fingerprint() throws(SQLiteError) -> [Value] {
    let updated = columns.contains("updated_at") ? "max(updated_at)" : "NULL"
    let version = columns.contains("version") ? "total(version)" : "0"
    guard let row = try db.rows("SELECT count(*), \(updated), \(version) FROM features", keeping: 1).rows.first
    else { return [] }
    var values = row.values
    for o in row.oversize { values[o.index] = .integer(Int64(o.bytes)) }
    return values
  }

  // MARK: Rows → features

  /// The number of columns a feature row read with `history` has: `wanted`, then the body's end
  /// and whether it was cut.
  public static let rowColumns = wanted.count + 2

  /// One row of the feature query as a feature and, when `history` is given, its past from the
  /// body's audit trail (columns `wanted`, then the body's end and whether it was cut), and what
  /// the trail held that was set aside (a `kept` problem naming the date). A row of another
  /// width, or one with a value over the cap (`oversize`), is a problem, never a trap.
  public static func decode(
    row: [Value], oversize: [Database.Oversize] = [], history: (now: Instant, initialState: String)?
  ) -> (Result<Feature, RowProblem>, [StatusMove], RowProblem?) {
    guard row.count >= wanted.count else {
      return (.failure(RowProblem(id: "?", problem: "a row of \(row.count) columns, not \(wanted.count)")), [], nil)
    }
    let read = feature(row, oversize: oversize)
    guard case .success(let f) = read, let (now, initial) = history, row.count >= rowColumns else {
      return (read, [], nil)
    }
    let trail: AuditTrail.Parsed
    let cut = row[wanted.count + 1].integer == 1
    switch row[wanted.count] {
    case .text(let body): trail = AuditTrail.parse(body, tail: cut)
    case .blob(let bytes): trail = bytes.withUnsafeBufferPointer { AuditTrail.parse($0, tail: cut) }
    default: trail = AuditTrail.Parsed(moves: [], truncated: false)
    }
    let past = AuditTrail.history(
      trail, createdAt: f.createdAt, updatedAt: f.updatedAt, status: f.status, initialState: initial, now: now)
    let setAside = past.problem(createdAt: f.createdAt, now: now).map {
      RowProblem(id: f.id, problem: $0, project: f.projectId, kept: true)
    }
    return (read, past.moves, setAside)
  }

  /// A row of `wanted` columns as a feature of the contract; one with values over the cap is
  /// a problem naming each such column and its size.
  static func feature(_ r: [Value], oversize: [Database.Oversize] = []) -> Result<Feature, RowProblem> {
    let fields: Result<Feature, RowProblem>
    if oversize.isEmpty {
      fields = featureFields(r)
    } else {
      let named = oversize.map { o in
        "\(o.index < wanted.count ? wanted[o.index] : o.column) holds \(o.bytes) bytes"
      }
      fields = .failure(
        RowProblem(
          id: r[0].text.map { String($0.prefix(utf8Bytes: 256)) } ?? "?",
          problem: "\(named.joined(separator: ", ")): more than the \(maxValueBytes) a value may hold"))
    }
    return fields.mapError { p in
      var p = p
      if let project = r[1].text, !project.isEmpty { p.project = String(project.prefix(utf8Bytes: 256)) }
      return p
    }
  }

  static func featureFields(_ r: [Value]) -> Result<Feature, RowProblem> {
    guard let id = r[0].text, !id.isEmpty, id.utf8.count <= 256 else {
      return .failure(RowProblem(id: r[0].text ?? "?", problem: "id is missing, empty or longer than 256 bytes"))
    }
    func text(_ i: Int, max: Int = 1024) -> String? {
      guard let s = r[i].text, !s.isEmpty else { return nil }
      return s.prefix(utf8Bytes: max)
    }
    func list(_ i: Int, _ name: String, max: Int) -> Result<[String], RowProblem> {
      switch r[i] {
      case .null: return .success([])
      case .text(let json):
        guard let parsed = Self.stringList(json, max: max) else {
          return .failure(RowProblem(id: id, problem: "\(name) are not a JSON list of strings: \(json.prefix(80))"))
        }
        return .success(parsed)
      default: return .failure(RowProblem(id: id, problem: "\(name) are not text"))
      }
    }
    let labels: [String]
    let dependsOn: [String]
    switch (list(8, "labels", max: 256), list(12, "depends_on", max: Feature.maxDependencies)) {
    case (.failure(let p), _), (_, .failure(let p)): return .failure(p)
    case (.success(let l), .success(let d)):
      labels = l
      dependsOn = d
    }
    var f = Feature(
      id: id, projectId: text(1, max: 256), title: text(2, max: 4096) ?? "",
      status: text(3, max: 256) ?? "backlog", priority: text(4), kind: text(5), assignee: text(6), labels: labels,
      estimate: text(7))
    f.createdAt = text(10).flatMap(Self.instant)
    f.updatedAt = text(11).flatMap(Self.instant)
    f.dependsOn = dependsOn
    return .success(f)
  }

  /// `["sprint:s1","area:ui"]` (Go's `json.Marshal`, HTML-escaped) → the labels or dependencies;
  /// at most `max` items of at most 1024 bytes, empty ones dropped.
  static func stringList(_ json: String, max: Int) -> [String]? {
    guard json != "[]", !json.isEmpty else { return [] }
    guard case .array(let items)? = try? JSONParser.parse(json, limits: JSONLimits(maxDepth: 2)), items.count <= max
    else { return nil }
    var out: [String] = []
    for item in items {
      guard case .string(let s) = item, s.utf8.count <= 1024 else { return nil }
      if !s.isEmpty { out.append(s) }
    }
    return out
  }

  /// Both timestamp forms upstream writes: RFC 3339 (`2026-03-08T16:53:37Z`), and SQLite's
  /// `datetime('now')` (`2026-03-08 16:53:37`, UTC).
  static func instant(_ s: String) -> Instant? {
    if let t = try? Instant(rfc3339: s) { return t }
    let b = Array(s.utf8)
    guard b.count == 19, b[10] == UInt8(ascii: " ") else { return nil }
    return try? Instant(rfc3339: String(s.prefix(10)) + "T" + String(s.suffix(8)) + "Z")
  }
}

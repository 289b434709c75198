public import SQLite
internal import SourceKit
public import WallboardCore
public import WorkspaceFormats

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

  /// A feature row that could not be read as a feature (`FeatureRow.Problem`).
  public typealias RowProblem = FeatureRow.Problem

  /// The largest value read from a workspace database (a body, a JSON column); a row that
  /// holds a longer one is a problem naming the column and its size, and costs no other row.
  public static let maxValueBytes = FeatureRow.maxValueBytes

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

  private var selectList: String {
    FeatureRow.columns.map { columns.contains($0) ? $0 : "NULL" }.joined(separator: ", ")
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
      let decoded = Self.row(row).decode(history: history)
      if let setAside = decoded.setAside { problems.append(setAside) }
      switch decoded.feature {
      case .success(let f):
        out.append(f)
        if !decoded.history.isEmpty { past[f.key] = decoded.history }
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
    return rows.map { Self.row($0).feature() }
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
        at: r[4].text.flatMap(StoreTime.instant))
    }
  }

  /// The time of the last change-log row (a delete's too); nil without a change log, a row or a
  /// time that reads.
  public func lastChangeTime() throws(SQLiteError) -> Instant? {
    guard hasChangeLog else { return nil }
    return try db.rows("SELECT timestamp FROM change_log ORDER BY id DESC LIMIT 1", keeping: 1).rows.first?
      .values[0].text.flatMap(StoreTime.instant)
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

  /// A row as the pure decoder's values (`FeatureRow`, in WorkspaceFormats).
  static func row(_ row: Database.Row) -> FeatureRow {
    FeatureRow(
      values: row.values.map { v in
        switch v {
        case .null: .null
        case .integer(let i): .integer(i)
        case .real(let d): .real(d)
        case .text(let s): .text(s)
        case .blob(let b): .blob(b)
        }
      },
      oversize: row.oversize.map { FeatureRow.Oversize(index: $0.index, column: $0.column, bytes: $0.bytes) })
  }
}

public import WallboardCore
internal import Wire

/// One row of the storage plugin's `features` table (`orchestra-storage.md` §1) as plain values,
/// read into a feature of the contract: the pure half of the database reader. The reader
/// (`OrchestraDatabase`, in EventSources) runs the query, selecting `columns` in order (`NULL` for
/// a column an older schema lacks), and hands each row here; nothing here knows SQLite.
///
/// Tolerant of what real databases hold: timestamps in both of the forms upstream writes, labels
/// and dependencies as Go's `json.Marshal` writes them. A row of another width, or one with a
/// value over the reader's cap (`oversize`), is a problem, never a trap.
public struct FeatureRow: Hashable, Sendable {
  /// A value as the store holds it: one of SQLite's five storage classes.
  public enum Value: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The text, for `.text`; a number's text form for numbers; nil for null and blobs.
    public var text: String? {
      switch self {
      case .text(let s): s
      case .integer(let i): String(i)
      case .real(let d): String(d)
      case .null, .blob: nil
      }
    }

    /// The integer, for `.integer` (and a `.real` that is whole and in range).
    public var integer: Int64? {
      switch self {
      case .integer(let i): return i
      case .real(let d) where d.isFinite && d == d.rounded() && abs(d) < 9.2e18: return Int64(d)
      default: return nil
      }
    }
  }

  /// A value the reader did not read because it was over its cap: `.null` in `values`.
  public struct Oversize: Hashable, Sendable {
    /// The column's index in the row.
    public var index: Int
    /// Its name in the query.
    public var column: String
    public var bytes: Int

    public init(index: Int, column: String, bytes: Int) {
      self.index = index
      self.column = column
      self.bytes = bytes
    }
  }

  /// A feature row that could not be read as a feature, or one whose trail held a date set
  /// aside: the row's id, its project when it could be read, and why.
  public struct Problem: Error, Hashable, Sendable {
    /// Why, as a value; `problem` is its sentence.
    public enum Reason: Hashable, Sendable {
      /// The row has `count` values, fewer than `columns`.
      case width(count: Int)
      /// The id is missing, empty or longer than 256 bytes.
      case id
      /// `labels` or `depends_on` is text that is not a JSON list of strings (its first 80
      /// characters).
      case notAList(column: String, start: String)
      /// `labels` or `depends_on` is neither text nor null.
      case notText(column: String)
      /// Values over the reader's cap (`maxValueBytes`): each column's name and size.
      case oversize([Oversize])
      /// The row was read, and audit-trail moves dated outside the feature's lifetime were set
      /// aside (`AuditTrail.Backfill.outside`, at least one).
      case trailOutside([AuditTrail.Outside], createdAt: Instant?, now: Instant)
    }

    public var id: String
    public var reason: Reason
    /// The row's project, when it could be read.
    public var project: String? = nil

    public init(id: String, reason: Reason, project: String? = nil) {
      self.id = id
      self.reason = reason
      self.project = project
    }

    /// The row was read, and only a value in it set aside (an audit-trail date outside the
    /// feature's lifetime): a report, not an unreadable row.
    public var kept: Bool {
      if case .trailOutside = reason { return true }
      return false
    }

    /// `project/id`, or the id alone: how a diagnostic names the row.
    public var name: String { project.map { "\($0)/\(id)" } ?? id }

    /// What was wrong, as one sentence (without the row's name).
    public var problem: String {
      switch reason {
      case .width(let count): return "a row of \(count) columns, not \(FeatureRow.columns.count)"
      case .id: return "id is missing, empty or longer than 256 bytes"
      case .notAList(let column, let start): return "\(column) are not a JSON list of strings: \(start)"
      case .notText(let column): return "\(column) are not text"
      case .oversize(let values):
        let named = values.map { o in
          "\(o.index < FeatureRow.columns.count ? FeatureRow.columns[o.index] : o.column) holds \(o.bytes) bytes"
        }
        return "\(named.joined(separator: ", ")): more than the \(FeatureRow.maxValueBytes) a value may hold"
      case .trailOutside(let outside, let createdAt, let now):
        return AuditTrail.Backfill(moves: [], outside: outside).problem(createdAt: createdAt, now: now) ?? ""
      }
    }
  }

  /// What one row says: the feature (or why not), its past when asked, and what the trail held
  /// that was set aside.
  public struct Decoded: Hashable, Sendable {
    public var feature: Result<Feature, Problem>
    /// The moves of its past (`AuditTrail.history`), empty when not asked or it has none.
    public var history: [StatusMove]
    /// A `kept` problem naming a trail date outside the feature's lifetime.
    public var setAside: Problem?
  }

  /// The largest value a workspace database's reader reads (a body, a JSON column); a row that
  /// holds a longer one is a problem naming the column and its size, and costs no other row.
  public static let maxValueBytes = 256 * 1024

  /// The `features` columns a row holds, in order.
  public static let columns = [
    "id", "project_id", "title", "status", "priority", "kind", "assignee", "estimate", "labels", "version",
    "created_at", "updated_at", "depends_on",
  ]

  /// The number of columns a row read with history has: `columns`, then the body's end and
  /// whether it was cut.
  public static let historyColumns = columns.count + 2

  /// The row's values: `columns`, then (read with history) the body's end and whether it was cut.
  public var values: [Value]
  /// The values over the reader's cap.
  public var oversize: [Oversize]

  public init(values: [Value], oversize: [Oversize] = []) {
    self.values = values
    self.oversize = oversize
  }

  /// The row as a feature and, when `history` is given, its past from the body's audit trail,
  /// and what the trail held that was set aside.
  public func decode(history: (now: Instant, initialState: String)?) -> Decoded {
    let row = values
    let wanted = Self.columns
    guard row.count >= wanted.count else {
      return Decoded(
        feature: .failure(Problem(id: "?", reason: .width(count: row.count))),
        history: [], setAside: nil)
    }
    let read = feature()
    guard case .success(let f) = read, let (now, initial) = history, row.count >= Self.historyColumns else {
      return Decoded(feature: read, history: [], setAside: nil)
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
    let setAside =
      past.outside.first?.move.at == nil
      ? nil
      : Problem(
        id: f.id, reason: .trailOutside(past.outside, createdAt: f.createdAt, now: now), project: f.projectId)
    return Decoded(feature: read, history: past.moves, setAside: setAside)
  }

  /// The row's first `columns` as a feature of the contract; one with values over the cap is a
  /// problem naming each such column and its size. The row must hold at least `columns.count`
  /// values (`decode` checks it).
  public func feature() -> Result<Feature, Problem> {
    let r = values
    precondition(r.count >= Self.columns.count, "a feature row holds \(Self.columns.count) columns")
    let fields: Result<Feature, Problem>
    if oversize.isEmpty {
      fields = Self.featureFields(r)
    } else {
      fields = .failure(
        Problem(id: r[0].text.map { String($0.prefix(utf8Bytes: 256)) } ?? "?", reason: .oversize(oversize)))
    }
    return fields.mapError { p in
      var p = p
      if let project = r[1].text, !project.isEmpty { p.project = String(project.prefix(utf8Bytes: 256)) }
      return p
    }
  }

  static func featureFields(_ r: [Value]) -> Result<Feature, Problem> {
    guard let id = r[0].text, !id.isEmpty, id.utf8.count <= 256 else {
      return .failure(Problem(id: r[0].text ?? "?", reason: .id))
    }
    func text(_ i: Int, max: Int = 1024) -> String? {
      guard let s = r[i].text, !s.isEmpty else { return nil }
      return s.prefix(utf8Bytes: max)
    }
    func list(_ i: Int, _ name: String, max: Int) -> Result<[String], Problem> {
      switch r[i] {
      case .null: return .success([])
      case .text(let json):
        guard let parsed = Self.stringList(json, max: max) else {
          return .failure(Problem(id: id, reason: .notAList(column: name, start: String(json.prefix(80)))))
        }
        return .success(parsed)
      default: return .failure(Problem(id: id, reason: .notText(column: name)))
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
    f.createdAt = text(10).flatMap(StoreTime.instant)
    f.updatedAt = text(11).flatMap(StoreTime.instant)
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
}

/// The times a workspace's store writes.
public enum StoreTime {
  /// Both timestamp forms upstream writes: RFC 3339 (`2026-03-08T16:53:37Z`), and SQLite's
  /// `datetime('now')` (`2026-03-08 16:53:37`, UTC).
  public static func instant(_ s: String) -> Instant? {
    if let t = try? Instant(rfc3339: s) { return t }
    let b = Array(s.utf8)
    guard b.count == 19, b[10] == UInt8(ascii: " ") else { return nil }
    return try? Instant(rfc3339: String(s.prefix(10)) + "T" + String(s.suffix(8)) + "Z")
  }
}

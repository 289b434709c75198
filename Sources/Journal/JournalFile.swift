internal import Codec
internal import SQLite
public import WallboardCore

/// One connection to a journal file: its schema, made or migrated on open, and its two tables,
/// `inputs` (every input the board took, in order) and `snapshots` (the whole board after the
/// input `through`).
///
/// Not `Sendable`: one thread at a time uses a connection (`JournalWriter` hands its own to its
/// thread once, before that thread starts).
public final class JournalFile {
  public let path: String
  let db: Database
  private var insertInput: Statement?
  private var insertSnapshot: Statement?

  /// How the file is opened.
  public enum Mode: Sendable {
    /// Read only; the file must exist.
    case read
    /// Read and write; made when missing.
    case write
  }

  /// Rows of `meta` that could not be read when the file was opened (skipped, and named in
  /// every playback).
  public internal(set) var metaSkips: [Skip] = []

  /// The newest codec version its meta named when it was opened (before this build, writing,
  /// raised it to its own): below `BoardCodec.version`, an older build wrote it.
  public internal(set) var openedEncoding = Int(BoardCodec.version)

  /// Opens `path`, making or migrating its schema when writing.
  public convenience init(path: String, mode: Mode) throws(JournalError) {
    try self.init(path: path, mode: mode, maxBlobBytes: JournalLimits.maxBlobBytes)
  }

  /// Opens `path` reading values of at most `maxBlobBytes` (`JournalLimits.maxBlobBytes`; a
  /// test's smaller cap).
  init(path: String, mode: Mode, maxBlobBytes: Int) throws(JournalError) {
    self.path = path
    do {
      db = try Database(path: path, mode: mode == .read ? .readOnly : .readWrite(create: true), busyTimeout: 5)
    } catch {
      throw error.isCannotOpen ? .cannotOpen(path: path, reason: error.message) : .sqlite(path: path, error)
    }
    // The one cap, as when writing (`JournalLimits`): a larger value is a row skipped.
    db.maxValueBytes = maxBlobBytes
    try JournalSchema.prepare(self, writable: mode == .write)
    if mode == .write {
      try guarded { () throws(SQLiteError) in
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA journal_size_limit=\(JournalFile.walLimit)")
        // Debian's SQLite zeroes every page a delete frees (SECURE_DELETE), and writes it to the
        // log: a compaction deleting 6 MB of inputs wrote 10 MB of log in one transaction, past
        // the bound. The pages freed here go back to the file system at once (`giveBack`).
        try db.execute("PRAGMA secure_delete=FAST")
      }
    }
  }

  /// The write-ahead log is cut back to this after a checkpoint.
  static let walLimit = 4 << 20

  /// Runs `body`, turning SQLite's errors into the journal's (a damaged file named as such).
  func guarded<T>(_ body: () throws(SQLiteError) -> T) throws(JournalError) -> T {
    do { return try body() } catch {
      if error.isNotADatabase { throw .damaged(path: path, detail: error.message) }
      throw .sqlite(path: path, error)
    }
  }

  // MARK: Writing

  /// Appends `rows` and `snapshots` in one transaction, in their order: each snapshot covers the
  /// rows before it (`JournalBatch`). Returns the id of the last input written.
  @discardableResult
  public func write(_ batch: JournalBatch) throws(JournalError) -> Int64 {
    try guarded { () throws(SQLiteError) in
      if insertInput == nil {
        insertInput = try db.prepare(
          "INSERT INTO inputs(id, at, kind, origin, seq, time, topic, outcome, body) VALUES (?,?,?,?,?,?,?,?,?)")
        insertSnapshot = try db.prepare("INSERT INTO snapshots(through, at, gap, state) VALUES (?,?,?,?)")
      }
      let rows = insertInput!
      let snaps = insertSnapshot!
      return try db.transaction { () throws(SQLiteError) -> Int64 in
        // The last id given: the latest input's, or a snapshot's when compaction took every input
        // into the base (ids are never given twice: a snapshot's `through` must stay true).
        var last =
          try db.scalar(
            "SELECT max(coalesce((SELECT max(id) FROM inputs), 0), coalesce((SELECT max(through) FROM snapshots), 0))"
          )?.integer ?? 0
        var next = 0
        for item in batch.items {
          switch item {
          case .input(let r):
            last += 1
            try rows.run([
              .integer(last), .integer(r.at.millis), .integer(Int64(r.kind.rawValue)), .text(r.origin),
              r.seq.map(Value.integer) ?? .null,
              .integer(r.time.millis), r.topic.map(Value.text) ?? .null, .integer(Int64(r.outcome.rawValue)),
              .blob(batch.bodies[next]),
            ])
            next += 1
          case .snapshot(let at, let gap, let bytes):
            try snaps.run([.integer(last), .integer(at.millis), .integer(gap ? 1 : 0), .blob(bytes)])
          }
        }
        return last
      }
    }
  }

  // MARK: Reading

  /// The columns of a snapshot row that can be listed: anything else is a row skipped.
  private static let listable =
    "typeof(id) = 'integer' AND typeof(through) = 'integer' AND typeof(at) = 'integer' AND typeof(gap) = 'integer'"
    + " AND typeof(state) = 'blob'"

  /// The snapshots kept, in the order of the inputs they cover (without their boards). A row
  /// whose columns are not what the journal writes is left out (`unlistedSnapshots`).
  public func snapshots() throws(JournalError) -> [SnapshotInfo] {
    try guarded { () throws(SQLiteError) in
      try db.rows(
        "SELECT id, through, at, gap, length(state) FROM snapshots WHERE \(JournalFile.listable) ORDER BY through, id"
      ).map { r in
        SnapshotInfo(
          id: r[0].integer ?? 0, through: r[1].integer ?? 0, at: Instant(millis: r[2].integer ?? 0),
          gap: (r[3].integer ?? 0) != 0, bytes: Int(r[4].integer ?? 0))
      }
    }
  }

  /// The snapshot rows `snapshots` leaves out, each named: a column of another type than the
  /// journal writes (a board that is no blob, a time that is text).
  public func unlistedSnapshots() throws(JournalError) -> [Skip] {
    try guarded { () throws(SQLiteError) in
      try db.rows(
        "SELECT rowid, typeof(through), typeof(at), typeof(gap), typeof(state) FROM snapshots"
          + " WHERE NOT (\(JournalFile.listable)) ORDER BY rowid LIMIT \(JournalLimits.namedSkips)"
      ).map { r in
        let types = ["through", "at", "gap", "state"].enumerated().map { "\($1) \(r[$0 + 1].text ?? "?")" }
        return Skip(
          table: "snapshots", row: String(r[0].integer ?? 0),
          reason: "its columns are not a snapshot's (\(types.joined(separator: ", ")))")
      }
    }
  }

  /// The board a snapshot holds.
  public func board(of snapshot: SnapshotInfo) throws(JournalError) -> BoardState {
    switch try readBoard(of: snapshot) {
    case .success(let b): return b
    case .failure(let skip): throw .damaged(path: path, detail: "snapshot \(snapshot.id): \(skip.reason)")
    }
  }

  /// The board a snapshot holds, or why its row cannot be read (no board, over the cap, not a
  /// board the codec reads): a row to skip. Errors of the file itself are thrown.
  func readBoard(of snapshot: SnapshotInfo) throws(JournalError) -> Result<BoardState, Skip> {
    let skip = { (reason: String) in Skip(table: "snapshots", row: String(snapshot.id), reason: reason) }
    let blob: Value?
    do {
      blob = try db.scalar("SELECT state FROM snapshots WHERE id = ?", [.integer(snapshot.id)])
    } catch {
      guard error.code == 18 else { throw guardedError(error) }
      return .failure(skip("its board is over the cap (\(error.message))"))
    }
    guard case .blob(let bytes)? = blob else { return .failure(skip("it holds no board")) }
    do { return .success(try BoardCodec.decodeState(bytes)) } catch { return .failure(skip(error.description)) }
  }

  /// SQLite's error as the journal's (see `guarded`).
  func guardedError(_ error: SQLiteError) -> JournalError {
    error.isNotADatabase ? .damaged(path: path, detail: error.message) : .sqlite(path: path, error)
  }

  /// Every input after row `after`, in order, each decoded; stops when `body` returns false.
  ///
  /// A row that cannot be read (its columns not what the journal writes, a body over the cap
  /// or one the codec does not read) is handed to `skip` and the next is read: one bad row
  /// never hides the others. Errors of the file itself (a damaged page) are thrown.
  ///
  /// Read a page of `page` rows at a time, each page in a read transaction of its own that ends
  /// before `body` sees the rows: a slow reader (a replay at its own pace) never holds the file's
  /// log back from a checkpoint. A page ends early once its bodies pass
  /// `JournalLimits.pageBytes`, so that large rows are held a few at a time.
  public func inputs(
    after: Int64, page: Int = 2_000, skip: (Skip) -> Void = { _ in },
    _ body: (JournalRow, BoardInput) throws(JournalError) -> Bool
  ) throws(JournalError) {
    precondition(page > 0, "a page holds at least one row")
    let (sizes, s) = try guarded { () throws(SQLiteError) in
      // `length` of a column reads no blob: a page is sized before any body is copied.
      (
        try db.prepare("SELECT id, length(body) FROM inputs WHERE id > ? ORDER BY id LIMIT ?"),
        try db.prepare(
          "SELECT id, at, kind, origin, seq, time, topic, outcome, body FROM inputs WHERE id > ? AND id <= ? ORDER BY id"
        )
      )
    }
    var last = after
    while true {
      let (rows, full) = try guarded { () throws(SQLiteError) -> ([Result<(JournalRow, [UInt8]), Skip>], Bool) in
        try sizes.bind([.integer(last), .integer(Int64(page))])
        var through = last
        var count = 0
        var bytes = 0
        var full = false
        while try sizes.step() {
          let n = Int(try sizes.value(1).integer ?? 0)
          if count > 0 && bytes + n > JournalLimits.pageBytes {
            full = true
            while try sizes.step() {}
            break
          }
          through = try sizes.value(0).integer ?? through
          count += 1
          bytes += n
        }
        if count == page { full = true }
        var out: [Result<(JournalRow, [UInt8]), Skip>] = []
        guard count > 0 else { return (out, false) }
        try s.bind([.integer(last), .integer(through)])
        while try s.step() {
          do throws(SQLiteError) {
            out.append(.success(try JournalRow.read(s)))
          } catch {
            // A row of the wrong shape, or a body over the cap: skipped; anything else is the file's.
            guard error.code == 11 || error.code == 18 else { throw error }
            out.append(.failure(Skip(table: "inputs", row: String(try s.value(0).integer ?? 0), reason: error.message)))
          }
        }
        return (out, full)
      }
      for item in rows {
        switch item {
        case .failure(let bad):
          skip(bad)
          last = Int64(bad.row) ?? last
        case .success(let (row, bytes)):
          let input: BoardInput
          do throws(CodecError) { input = try BoardCodec.decodeInput(bytes) } catch {
            skip(Skip(table: "inputs", row: String(row.id), reason: error.description))
            last = row.id
            continue
          }
          guard try body(row, input) else { return }
          last = row.id
        }
      }
      if !full { return }
    }
  }

  /// The board's time of the first input it holds (after those from before any event, at 0);
  /// nil when it holds none.
  public func firstInputTime() throws(JournalError) -> Instant? {
    try guarded { () throws(SQLiteError) in
      try db.scalar("SELECT at FROM inputs WHERE at > 0 ORDER BY id LIMIT 1")?.integer.map { Instant(millis: $0) }
    }
  }

  /// The board's time of the first input after row `row`; nil when there is none.
  public func inputTime(after row: Int64) throws(JournalError) -> Instant? {
    try guarded { () throws(SQLiteError) in
      try db.rows("SELECT at FROM inputs WHERE id > ? ORDER BY id LIMIT 1", [.integer(row)]).first?[0].integer
        .map { Instant(millis: $0) }
    }
  }

  /// How many inputs it holds, and the first and last ids.
  public func inputRange() throws(JournalError) -> (count: Int64, first: Int64, last: Int64) {
    try guarded { () throws(SQLiteError) in
      let r = try db.rows("SELECT count(*), coalesce(min(id), 0), coalesce(max(id), 0) FROM inputs")[0]
      return (r[0].integer ?? 0, r[1].integer ?? 0, r[2].integer ?? 0)
    }
  }

  /// The rows before this id were compacted away (0: none were).
  public func compactedThrough() throws(JournalError) -> Int64 {
    try guarded { () throws(SQLiteError) in
      try db.scalar("SELECT value FROM meta WHERE key = 'compacted_through'")?.integer ?? 0
    }
  }

  /// `PRAGMA integrity_check`: "ok", or what is wrong.
  public func integrityCheck() throws(JournalError) -> String {
    try guarded { () throws(SQLiteError) in
      try db.rows("PRAGMA integrity_check").compactMap { $0.first?.text }.joined(separator: "; ")
    }
  }

  /// The bytes the file's pages in use take, plus its write-ahead log's limit.
  public func bytesInUse() throws(JournalError) -> Int64 {
    try guarded { () throws(SQLiteError) in
      let pages = try db.scalar("PRAGMA page_count")?.integer ?? 0
      let free = try db.scalar("PRAGMA freelist_count")?.integer ?? 0
      let size = try db.scalar("PRAGMA page_size")?.integer ?? 4096
      return (pages - free) * size
    }
  }
}

/// One input as the `inputs` table keeps it: the columns beside its encoded body, which say at a
/// glance what it was (`sqlite3 journal.db 'SELECT * FROM inputs'`).
public struct JournalRow: Hashable, Sendable {
  public var id: Int64
  /// The board's time when it arrived (never going back from one row to the next).
  public var at: Instant
  public var kind: Kind
  public var origin: String
  public var seq: Int64?
  /// The event's own time; a rejection's or connection change's.
  public var time: Instant
  /// The event's topic (`feature.updated`); nil for the other kinds.
  public var topic: String?
  public var outcome: Outcome

  public enum Kind: Int, Hashable, Sendable {
    case event = 0, rejected = 1, connection = 2
    /// Where a followed file was read to (`BoardInput.fileRead`).
    case fileRead = 3
  }

  /// What the reducer did with it.
  public enum Outcome: Int, Hashable, Sendable {
    case applied = 0, duplicate = 1, ignored = 2, rejected = 3

    public init(_ r: Reduction) {
      switch r {
      case .applied: self = .applied
      case .duplicate: self = .duplicate
      case .ignored: self = .ignored
      case .rejected: self = .rejected
      }
    }
  }

  /// The columns for `input`; nil for a restored board, relayed or not (kept as a snapshot, not a
  /// row).
  public init?(_ input: BoardInput, _ reduction: Reduction, at: Instant) {
    self.id = 0
    self.at = at
    self.outcome = Outcome(reduction)
    // A relayed input is filed as what it carries (its body keeps the relay position).
    switch input.payload {
    case .event(let e):
      (kind, origin, seq, time, topic) = (.event, e.origin, e.seq, e.time, e.body.topic)
    case .rejected(let o, let t, _, let p):
      (kind, origin, seq, time, topic) = (.rejected, o, p?.seq, t, nil)
    case .connection(let o, _, let t, _):
      (kind, origin, seq, time, topic) = (.connection, o, nil, t, nil)
    case .fileRead(let o, let t, _):
      (kind, origin, seq, time, topic) = (.fileRead, o, nil, t, nil)
    case .restored, .relayed:
      return nil
    }
  }

  init(id: Int64, at: Instant, kind: Kind, origin: String, seq: Int64?, time: Instant, topic: String?, outcome: Outcome)
  {
    (self.id, self.at, self.kind, self.origin, self.seq, self.time, self.topic, self.outcome) =
      (id, at, kind, origin, seq, time, topic, outcome)
  }

  /// The current row of `SELECT id, at, kind, origin, seq, time, topic, outcome, body`.
  static func read(_ s: Statement) throws(SQLiteError) -> (JournalRow, [UInt8]) {
    let id = try s.value(0).integer ?? 0
    guard let kind = Kind(rawValue: Int(try s.value(2).integer ?? -1)),
      let outcome = Outcome(rawValue: Int(try s.value(7).integer ?? -1)),
      case .blob(let body) = try s.value(8)
    else {
      throw SQLiteError(code: 11, message: "input \(id) has an unknown kind, outcome or no body", context: s.sql)
    }
    let row = JournalRow(
      id: id, at: Instant(millis: try s.value(1).integer ?? 0), kind: kind, origin: try s.value(3).text ?? "",
      seq: try s.value(4).integer, time: Instant(millis: try s.value(5).integer ?? 0), topic: try s.value(6).text,
      outcome: outcome)
    return (row, body)
  }
}

/// A snapshot as listed: where it stands among the inputs, not the board itself.
public struct SnapshotInfo: Hashable, Sendable {
  public var id: Int64
  /// The last input it covers.
  public var through: Int64
  /// The board's time when it was taken.
  public var at: Instant
  /// The inputs before it are not all kept (compacted, or dropped when the disk fell behind):
  /// a replay starts from it, not from the rows before.
  public var gap: Bool
  /// The encoded board's size.
  public var bytes: Int
}

/// What one transaction writes: inputs with their encoded bodies, and snapshots between them.
public struct JournalBatch {
  public enum Item {
    case input(JournalRow)
    case snapshot(at: Instant, gap: Bool, bytes: [UInt8])
  }
  public var items: [Item] = []
  /// The inputs' bodies, in the order of their items.
  public var bodies: [[UInt8]] = []
  /// The largest encoding appended (`JournalLimits.maxBlobBytes`; a test's smaller cap).
  let maxBlobBytes: Int
  public init() { maxBlobBytes = JournalLimits.maxBlobBytes }
  init(maxBlobBytes: Int) { self.maxBlobBytes = maxBlobBytes }

  public var isEmpty: Bool { items.isEmpty }

  /// The bytes its inputs take in the file, about: their bodies and each row's columns.
  public var inputBytes: Int64 {
    var n: Int64 = 0
    for item in items {
      if case .input(let r) = item { n += Int64(r.origin.utf8.count + (r.topic?.utf8.count ?? 0) + 48) }
    }
    for b in bodies { n += Int64(b.count) }
    return n
  }

  /// Appends an input; refuses (and appends nothing) one whose encoding the journal could not
  /// read back: over `JournalLimits.maxBlobBytes`, or holding a string over the codec's cap.
  public mutating func append(_ input: BoardInput, _ reduction: Reduction, at: Instant) throws(Refusal) {
    guard let row = JournalRow(input, reduction, at: at) else { return }
    do {
      bodies.append(try BoardCodec.encode(input, maxBytes: maxBlobBytes))
    } catch {
      throw Refusal(what: row.topic ?? "\(row.kind) input", from: row.origin, problem: error.problem)
    }
    items.append(.input(row))
  }

  /// Appends a snapshot; refuses (and appends nothing) a board whose encoding the journal
  /// could not read back, as `append(_:_:at:)` does.
  public mutating func append(snapshot state: BoardState, at: Instant, gap: Bool) throws(Refusal) {
    do {
      let bytes = try BoardCodec.encode(state, maxBytes: maxBlobBytes)
      items.append(.snapshot(at: at, gap: gap, bytes: bytes))
    } catch {
      throw Refusal(what: "the board's snapshot", from: nil, problem: error.problem)
    }
  }

  /// Why something was not kept: the journal could not read it back.
  public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input's topic (`board.snapshot`), its kind, or the board's snapshot.
    public var what: String
    /// The input's origin.
    public var from: String?
    public var problem: String

    /// `board.snapshot from workspace:…: not kept: its encoding is 300000000 bytes; the limit is …`.
    public var description: String {
      "\(what)\(from.map { " from \($0)" } ?? ""): not kept in the journal: \(problem)"
    }
  }
}

extension Event.Body {
  /// The topic as written on the wire (`feature.updated`); `unknown`'s own.
  public var topic: String {
    switch self {
    case .featureCreated: "feature.created"
    case .featureUpdated: "feature.updated"
    case .featureDeleted: "feature.deleted"
    case .workflowTransitioned: "workflow.transitioned"
    case .workflowDefined: "workflow.defined"
    case .sprintCreated: "sprint.created"
    case .sprintStarted: "sprint.started"
    case .sprintScopeChanged: "sprint.scope_changed"
    case .sprintClosed: "sprint.closed"
    case .boardSnapshot: "board.snapshot"
    case .heartbeat: "heartbeat"
    case .agentLocks: "agents.locks"
    case .unknown(let t): t
    }
  }
}

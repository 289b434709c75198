internal import Codec
internal import SQLite
public import WallboardCore

extension JournalFile {
  /// What a compaction did.
  public struct Compaction: Hashable, Sendable {
    /// Inputs deleted (now inside the base snapshot).
    public var inputsRemoved: Int64 = 0
    /// Snapshots deleted (older ones, or more than one a day).
    public var snapshotsRemoved: Int64 = 0
    /// The bytes in use after it.
    public var bytes: Int64 = 0
    /// Still over the bound: what retention keeps is larger than it.
    public var overBound = false
  }

  /// Keeps the journal within `retention.maxBytes`.
  ///
  /// Always: the snapshots are thinned to one a day, besides the base and the latest two. Over
  /// the bound: to the base and the latest two alone; and if that is not enough, the board as it
  /// stood at the start of what retention keeps (`Retention.floor`) — the journal played up to
  /// then — becomes the new base, and the inputs before it are deleted and their pages given
  /// back. If the inputs retention keeps are alone larger than the bound (a feed of thousands of
  /// events a second, all inside the flow's window), the size wins: the oldest of them go into
  /// the base too, until the inputs left take at most half of the bound (`sizeTarget`). The
  /// board loses nothing by it (its history lives in the base); what is lost is `--at` before
  /// the base, and rebuilding those inputs under other settings. Only a board whose snapshots
  /// alone are over the bound stays over it, and says so.
  ///
  /// - Parameters:
  ///   - state: the board as of the latest snapshot (for the sprints retention keeps).
  ///   - at: the board's time.
  @discardableResult
  public func compact(retention: Retention, state: BoardState, at: Instant) throws(JournalError) -> Compaction {
    try compact(retention: retention, floor: retention.floor(state: state, at: at), settings: state.settings)
  }

  /// Keeps the journal within `retention.maxBytes`, `floor` the earliest moment retention keeps
  /// and `settings` the board's (see `compact(retention:state:at:)`); `write` the largest write
  /// the journal takes (its inputs' bytes: `JournalBatch.inputBytes`), for the room it leaves.
  @discardableResult
  public func compact(
    retention: Retention, floor: Instant, settings: BoardSettings, write: Int64 = 0
  ) throws(JournalError) -> Compaction {
    var result = Compaction()
    let walLimit = JournalFile.walLimit(for: retention)
    // What a compaction stopped before its end left behind.
    result.inputsRemoved += try dropCompacted(walLimit: walLimit)
    let budget = JournalFile.budget(for: retention, board: try latestBoardBytes(), write: write)
    result.snapshotsRemoved += try thin(keepDaily: true)
    var used = try bytesInUse()
    if used > budget {
      result.snapshotsRemoved += try thin(keepDaily: false)
      used = try bytesInUse()
    }
    if used > budget {
      let base = try snapshots().first
      if try compactedThrough() > 0, let base, base.at >= floor {
        // The base is already at the floor: nothing more goes for retention's sake.
      } else {
        guard try rebase(through: floor, settings: settings, walLimit: walLimit, into: &result) else {
          return try over(result, budget)
        }
      }
      used = try bytesInUse()
    }
    if used > budget, let moment = try sizeMoment(budget: budget, used: used) {
      // The size wins over the window (see above).
      guard try rebase(through: moment, settings: settings, walLimit: walLimit, into: &result) else {
        return try over(result, budget)
      }
      used = try bytesInUse()
    }
    if result.snapshotsRemoved > 0 || result.inputsRemoved > 0 {
      try giveBack(walLimit: walLimit)
      used = try bytesInUse()
    }
    result.bytes = used
    result.overBound = used > budget
    return result
  }

  private func over(_ result: Compaction, _ budget: Int64) throws(JournalError) -> Compaction {
    var result = result
    result.bytes = try bytesInUse()
    result.overBound = result.bytes > budget
    return result
  }

  /// What the inputs and snapshots may take before a compaction: the bound less the room the
  /// next writes need on disk, at least half of it. Between a check that finds the journal under
  /// its budget and the compaction after the next write, the disk takes at worst that write and a
  /// snapshot (`board`) in the file, the log at its share with the same again, and the new base
  /// the compaction writes: the log's share, two boards and two writes. One board more is room
  /// for the pages a compaction rewrites besides (the free list, the page map, the tables'
  /// inner pages). So the journal (file, -wal and -shm) stays within its bound whenever that
  /// room is at most half of it (`JournalWriter.boundMargin`).
  public static func budget(for retention: Retention, board: Int64, write: Int64) -> Int64 {
    max(retention.maxBytes - room(for: retention, board: board, write: write), retention.maxBytes / 2)
  }

  /// The room the next writes need beyond the budget (see `budget(for:board:write:)`).
  static func room(for retention: Retention, board: Int64, write: Int64) -> Int64 {
    Int64(JournalFile.walLimit(for: retention)) + 3 * board + 2 * write
  }

  /// The bytes of the latest snapshot's board (0 without one): the size of the next.
  public func latestBoardBytes() throws(JournalError) -> Int64 {
    try guarded { () throws(SQLiteError) in
      try db.scalar("SELECT coalesce(length(state), 0) FROM snapshots ORDER BY through DESC, id DESC LIMIT 1")?
        .integer ?? 0
    }
  }

  /// What the inputs may take after a compaction the size forced: half of the budget, less the
  /// three snapshots that stay (so that one compaction makes room for many batches).
  static func sizeTarget(budget: Int64, board: Int64) -> Int64 { budget / 2 - 3 * board }

  /// The moment up to which inputs go so that those after it take at most `sizeTarget` (their
  /// bytes estimated from the average row); nil when no input needs to go.
  private func sizeMoment(budget: Int64, used: Int64) throws(JournalError) -> Instant? {
    let board = try latestBoardBytes()
    return try guarded { () throws(SQLiteError) -> Instant? in
      let rows = try db.scalar("SELECT count(*) FROM inputs")?.integer ?? 0
      guard rows > 0 else { return nil }
      let boards = try db.scalar("SELECT coalesce(sum(length(state)), 0) FROM snapshots")?.integer ?? 0
      let perRow = max(1, (used - boards) / rows)
      let keep = max(0, JournalFile.sizeTarget(budget: budget, board: board) / perRow)
      guard keep < rows else { return nil }
      // The newest `keep` rows stay: the moment is that of the row before them.
      return try db.scalar("SELECT at FROM inputs ORDER BY id DESC LIMIT 1 OFFSET ?", [.integer(keep)])?.integer
        .map { Instant(millis: $0) }
    }
  }

  /// Makes the board as of `moment` (the journal played up to it) the base, and deletes the
  /// inputs and snapshots before it. False when its board could not be kept (the inputs stay).
  private func rebase(
    through moment: Instant, settings: BoardSettings, walLimit: Int, into result: inout Compaction
  ) throws(JournalError) -> Bool {
    var board = BoardState(settings: settings)
    let played = try play(through: moment, settings: nil) { input, _ in Reducer.reduce(into: &board, input) }
    let through = played.lastRow
    guard through > (try compactedThrough()) else { return true }
    // A snapshot that already covers exactly those inputs is the base as it is (the last
    // one, when every input is older than the floor); else the board played up to it.
    let existing = try snapshots().last { $0.through == through }
    // A base the journal could not read back is not made: the inputs stay instead.
    let bytes = existing == nil ? try? BoardCodec.encode(board, maxBytes: JournalLimits.maxBlobBytes) : []
    guard let bytes else { return false }
    try guarded { () throws(SQLiteError) in
      try db.transaction { () throws(SQLiteError) in
        let base: Int64
        if let existing {
          base = existing.id
          try db.execute("UPDATE snapshots SET gap = 1 WHERE id = \(base)")
        } else {
          try db.prepare("INSERT INTO snapshots(through, at, gap, state) VALUES (?,?,1,?)").run([
            .integer(through), .integer((played.at ?? moment).millis), .blob(bytes),
          ])
          base = db.lastInsertRowID
        }
        try db.execute("DELETE FROM snapshots WHERE through <= \(through) AND id != \(base)")
        result.snapshotsRemoved += db.changes
        try db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('compacted_through', \(through))")
      }
    }
    // The inputs the base now holds go after it, a few at a time (see `dropCompacted`).
    result.inputsRemoved += try dropCompacted(walLimit: walLimit)
    return true
  }

  /// Deletes the inputs a base holds already (through `compacted_through`, which every reading
  /// starts after), in transactions of about a quarter of the log's share each, the log cut back
  /// after each: a delete writes to the log every page it touches, and one transaction deleting
  /// half of a journal made the log as large (10 MB against a 2 MiB share, measured, the bound
  /// passed by half). A compaction stopped between them (a kill) leaves rows the base holds, read
  /// by nothing, and the next compaction deletes them. Returns how many it deleted.
  func dropCompacted(walLimit: Int) throws(JournalError) -> Int64 {
    let through = try compactedThrough()
    guard through > 0 else { return 0 }
    return try guarded { () throws(SQLiteError) -> Int64 in
      let r = try db.rows("SELECT count(*), coalesce(sum(length(body)), 0) FROM inputs WHERE id <= \(through)")[0]
      let (rows, bytes) = (r[0].integer ?? 0, r[1].integer ?? 0)
      guard rows > 0 else { return 0 }
      let perRow = bytes / rows + 64
      let step = max(16, Int64(walLimit) / 4 / perRow)
      var removed: Int64 = 0
      while true {
        try db.execute(
          """
          DELETE FROM inputs WHERE id IN (SELECT id FROM inputs WHERE id <= \(through) ORDER BY id LIMIT \(step))
          """)
        let n = db.changes
        if n == 0 { break }
        removed += n
        _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
      }
      return removed
    }
  }

  /// The pages freed go back to the file system a log's worth at a time, the log cut back after
  /// each step: moving pages writes them to the log, and a single vacuum would grow it by as
  /// much as was freed.
  private func giveBack(walLimit: Int) throws(JournalError) {
    try guarded { () throws(SQLiteError) in
      let page = max(512, try db.scalar("PRAGMA page_size")?.integer ?? 4096)
      let step = max(16, Int64(walLimit) / page / 2)
      var left = try db.scalar("PRAGMA freelist_count")?.integer ?? 0
      while left > 0 {
        _ = try db.rows("PRAGMA incremental_vacuum(\(step))")
        _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        let now = try db.scalar("PRAGMA freelist_count")?.integer ?? 0
        if now >= left { break }
        left = now
      }
      _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }

  /// The write-ahead log's share of the bound: at most 4 MiB, an eighth of a small bound.
  static func walLimit(for retention: Retention) -> Int {
    Int(min(Int64(walLimit), retention.maxBytes / 8))
  }

  /// Deletes every snapshot that is neither the base (the first), a gap (a replay crosses it),
  /// one of the latest two, nor — with `keepDaily` — the last of its day (UTC, board time).
  /// Returns how many.
  private func thin(keepDaily: Bool) throws(JournalError) -> Int64 {
    try guarded { () throws(SQLiteError) in
      try db.execute(
        """
        DELETE FROM snapshots WHERE gap = 0
          AND id NOT IN (SELECT id FROM snapshots ORDER BY through, id LIMIT 1)
          AND id NOT IN (SELECT id FROM snapshots ORDER BY through DESC, id DESC LIMIT 2)
        """ + (keepDaily ? " AND id NOT IN (SELECT max(id) FROM snapshots GROUP BY at / 86400000)" : ""))
      return db.changes
    }
  }
}

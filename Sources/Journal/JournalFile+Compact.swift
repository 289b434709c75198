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

  /// Thins the snapshots to one a day (besides the base and the latest two) and, when the file is
  /// over `retention.maxBytes`, makes the newest snapshot taken before what retention keeps the
  /// base: the inputs and snapshots before it are deleted, and their pages given back.
  ///
  /// - Parameters:
  ///   - state: the board as of the latest snapshot (for the sprints retention keeps).
  ///   - at: the board's time.
  @discardableResult
  public func compact(retention: Retention, state: BoardState, at: Instant) throws(JournalError) -> Compaction {
    var result = Compaction()
    let budget = max(retention.maxBytes - Int64(JournalFile.walLimit(for: retention)), retention.maxBytes / 2)
    try guarded { () throws(SQLiteError) in
      try db.transaction { () throws(SQLiteError) in
        result.snapshotsRemoved += try thin()
      }
    }
    var used = try bytesInUse()
    if used > budget {
      let floor = retention.floor(state: state, at: at)
      let snaps = try snapshots()
      if let base = snaps.last(where: { $0.at <= floor }), base.id != snaps.first?.id || !base.gap {
        try guarded { () throws(SQLiteError) in
          try db.transaction { () throws(SQLiteError) in
            try db.execute("DELETE FROM inputs WHERE id <= \(base.through)")
            result.inputsRemoved = db.changes
            try db.execute("DELETE FROM snapshots WHERE id < \(base.id)")
            result.snapshotsRemoved += db.changes
            try db.execute("UPDATE snapshots SET gap = 1 WHERE id = \(base.id)")
            try db.execute(
              "INSERT OR REPLACE INTO meta(key, value) VALUES ('compacted_through', \(base.through))")
          }
        }
      }
      try guarded { () throws(SQLiteError) in
        _ = try db.rows("PRAGMA incremental_vacuum")
        _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
      }
      used = try bytesInUse()
    }
    result.bytes = used
    result.overBound = used > budget
    return result
  }

  /// The write-ahead log's share of the bound: at most 4 MiB, an eighth of a small bound.
  static func walLimit(for retention: Retention) -> Int {
    Int(min(Int64(walLimit), retention.maxBytes / 8))
  }

  /// Deletes every snapshot that is neither the first (the base), one of the latest two, nor the
  /// last of its day (UTC, board time). Returns how many.
  private func thin() throws(SQLiteError) -> Int64 {
    try db.execute(
      """
      DELETE FROM snapshots WHERE id NOT IN (SELECT min(id) FROM snapshots)
        AND id NOT IN (SELECT id FROM snapshots ORDER BY id DESC LIMIT 2)
        AND id NOT IN (SELECT max(id) FROM snapshots GROUP BY at / 86400000)
      """)
    return db.changes
  }
}

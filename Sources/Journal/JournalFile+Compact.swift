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
  /// back. The inputs retention keeps are never deleted: a journal whose kept window alone is
  /// larger than the bound stays over it, and says so.
  ///
  /// - Parameters:
  ///   - state: the board as of the latest snapshot (for the sprints retention keeps).
  ///   - at: the board's time.
  @discardableResult
  public func compact(retention: Retention, state: BoardState, at: Instant) throws(JournalError) -> Compaction {
    var result = Compaction()
    let budget = max(retention.maxBytes - Int64(JournalFile.walLimit(for: retention)), retention.maxBytes / 2)
    result.snapshotsRemoved += try thin(keepDaily: true)
    var used = try bytesInUse()
    if used > budget {
      result.snapshotsRemoved += try thin(keepDaily: false)
      used = try bytesInUse()
    }
    if used > budget {
      let floor = retention.floor(state: state, at: at)
      if try compactedThrough() > 0, let base = try snapshots().first, base.at >= floor {
        // The base is already at the floor: nothing more may go.
      } else {
        var board = BoardState(settings: state.settings)
        let played = try play(through: floor, settings: nil) { input, _ in Reducer.reduce(into: &board, input) }
        let through = played.lastRow
        if through > (try compactedThrough()) {
          // A snapshot that already covers exactly those inputs is the base as it is (the last
          // one, when every input is older than the floor); else the board played up to it.
          let existing = try snapshots().last { $0.through == through }
          // A base the journal could not read back is not made: the inputs stay instead.
          let bytes = existing == nil ? try? BoardCodec.encode(board, maxBytes: JournalLimits.maxBlobBytes) : []
          guard let bytes else {
            result.bytes = try bytesInUse()
            result.overBound = result.bytes > budget
            return result
          }
          try guarded { () throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
              let base: Int64
              if let existing {
                base = existing.id
                try db.execute("UPDATE snapshots SET gap = 1 WHERE id = \(base)")
              } else {
                try db.prepare("INSERT INTO snapshots(through, at, gap, state) VALUES (?,?,1,?)").run([
                  .integer(through), .integer((played.at ?? floor).millis), .blob(bytes),
                ])
                base = db.lastInsertRowID
              }
              try db.execute("DELETE FROM inputs WHERE id <= \(through)")
              result.inputsRemoved = db.changes
              try db.execute("DELETE FROM snapshots WHERE through <= \(through) AND id != \(base)")
              result.snapshotsRemoved += db.changes
              try db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('compacted_through', \(through))")
            }
          }
        }
      }
      used = try bytesInUse()
    }
    if result.snapshotsRemoved > 0 || result.inputsRemoved > 0 {
      // The pages freed go back to the file system; the log is cut back to its limit.
      try guarded { () throws(SQLiteError) in
        _ = try db.rows("PRAGMA incremental_vacuum")
        _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
      }
    }
    result.bytes = used
    result.overBound = used > budget
    return result
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

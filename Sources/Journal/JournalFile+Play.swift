internal import SQLite
public import WallboardCore

extension JournalFile {
  /// What playing a journal delivered.
  public struct Playback: Hashable, Sendable {
    /// The snapshot it started from, if any.
    public var snapshot: SnapshotInfo?
    /// Inputs delivered after it.
    public var inputs = 0
    /// The board's time of the last thing delivered.
    public var at: Instant?
    /// The journal's latest snapshot was built under other settings and could not be used; the
    /// board was rebuilt from the inputs (or from an older base that has the old settings).
    public var settingsDiffer = false
    /// Everything the journal holds was delivered (`moment` is not before its last input).
    public var reachedEnd = true
    /// The last input delivered, or covered by the snapshot delivered (0: none).
    public var lastRow: Int64 = 0
  }

  /// Plays the journal back as inputs, as the board took them: a `.restored` board first (the
  /// latest snapshot taken by `moment` and built under `settings`), then every input after it up
  /// to `moment` (the journal's end when nil), each with the board's time it arrived at.
  ///
  /// A snapshot built under other settings is not used: the inputs are played from the start, or
  /// from the latest snapshot before which inputs are missing (compacted, or dropped when the
  /// disk fell behind), whose board is used as it is. A moment before the oldest board the
  /// journal can give is an error.
  public func play(
    through moment: Instant?, settings: BoardSettings?, deliver: (BoardInput, Instant) -> Void
  ) throws(JournalError) -> Playback {
    var out = Playback()
    let all = try snapshots()
    let usable = all.filter { s in moment.map { s.at <= $0 } ?? true }
    if try compactedThrough() > 0, let base = all.first, let moment, moment < base.at {
      throw .before(path: path, oldest: base.at.rfc3339)
    }
    var start: (SnapshotInfo, BoardState)?
    if let latest = usable.last {
      let board = try board(of: latest)
      if settings.map({ $0 == board.settings }) ?? true {
        start = (latest, board)
      } else {
        out.settingsDiffer = true
        // No later barrier than `latest` can be usable-and-newer: barriers are snapshots too.
        if let barrier = usable.last(where: \.gap) { start = (barrier, try self.board(of: barrier)) }
      }
    }
    var after: Int64 = 0
    if let (info, board) = start {
      deliver(.restored(board), info.at)
      out.snapshot = info
      out.at = info.at
      out.lastRow = info.through
      after = info.through
    }
    // Later barriers (inputs dropped after `start`) restore their board when reached.
    let later = all.drop { s in out.snapshot.map { s != $0 } ?? false }.dropFirst(out.snapshot == nil ? 0 : 1)
    var gaps = later.filter { s in s.gap && (moment.map { s.at <= $0 } ?? true) }[...]
    func cross(_ g: SnapshotInfo) throws(JournalError) {
      deliver(.restored(try board(of: g)), g.at)
      out.snapshot = g
      out.at = g.at
      out.lastRow = g.through
    }
    try inputs(after: after) { (row, input) throws(JournalError) in
      while let g = gaps.first, g.through < row.id {
        try cross(g)
        gaps = gaps.dropFirst()
      }
      if let moment, row.at > moment {
        out.reachedEnd = false
        return false
      }
      deliver(input, row.at)
      out.inputs += 1
      out.at = row.at
      out.lastRow = row.id
      return true
    }
    for g in gaps { try cross(g) }
    return out
  }
}

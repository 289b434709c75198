internal import SQLite
public import WallboardCore

extension JournalFile {
  /// What playing a journal delivered.
  public struct Playback: Hashable, Sendable {
    /// The snapshot it started from (or last crossed), if any.
    public var snapshot: SnapshotInfo?
    /// Inputs delivered.
    public var inputs = 0
    /// The board's time of the last thing delivered.
    public var at: Instant?
    /// The journal's latest snapshot was built under other settings and was not used: the
    /// board was rebuilt from the inputs under `settings`.
    public var settingsDiffer = false
    /// Everything the journal holds was delivered (`moment` is not before its last input).
    public var reachedEnd = true
    /// The last input delivered, or covered by the snapshot delivered (0: none).
    public var lastRow: Int64 = 0
    public init() {}
  }

  /// Where a playback starts.
  public enum Start: Sendable {
    /// From the latest snapshot by the moment (a restore, an instant replay): the fewest inputs.
    case latest
    /// From the journal's beginning (its base, when it was compacted): every input, in order
    /// (a replay at its own pace).
    case beginning
  }

  /// Plays the journal back as inputs, as the board took them: a `.restored` board first (with
  /// `.latest`, the latest snapshot taken by `moment` and built under `settings`; with
  /// `.beginning`, the base when the journal was compacted), then every input after it up to
  /// `moment` (the journal's end when nil), each with the board's time it arrived at. Where
  /// inputs are missing (dropped when the disk fell behind), the snapshot after them is
  /// delivered as a `.restored` board when it is reached.
  ///
  /// A snapshot built under other settings is not used: the inputs are played from the start
  /// instead. A journal whose base (compacted, or after lost inputs) has other settings cannot
  /// be played under these (`otherSettings`); a moment before its base is an error (`before`).
  ///
  /// - Parameter stop: asked before each input; true ends the playback there.
  public func play(
    through moment: Instant?, settings: BoardSettings?, from start: Start = .latest,
    stop: () -> Bool = { false }, deliver: (BoardInput, Instant) -> Void
  ) throws(JournalError) -> Playback {
    var out = Playback()
    let all = try snapshots()
    let usable = all.filter { s in moment.map { s.at <= $0 } ?? true }
    if try compactedThrough() > 0, let base = all.first, let moment, moment < base.at {
      throw .before(path: path, oldest: base.at.rfc3339)
    }
    // The latest barrier by the moment: the inputs before it do not lead to it.
    let barrier = usable.last(where: \.gap)
    var first: SnapshotInfo?
    var board: BoardState?
    switch start {
    case .latest:
      if let latest = usable.last {
        let b = try self.board(of: latest)
        if settings.map({ $0 == b.settings }) ?? true {
          (first, board) = (latest, b)
        } else {
          out.settingsDiffer = true
          if let barrier { (first, board) = (barrier, try self.board(of: barrier)) }
        }
      }
    case .beginning:
      if let base = all.first, base.gap { (first, board) = (base, try self.board(of: base)) }
    }
    if let board, let settings, board.settings != settings { throw .otherSettings(path: path) }
    if let first, let board {
      deliver(.restored(board), first.at)
      out.snapshot = first
      out.at = first.at
      out.lastRow = first.through
    }
    // Later barriers restore their board when reached.
    let later = all.drop { s in first.map { s != $0 } ?? false }.dropFirst(first == nil ? 0 : 1)
    var gaps = later.filter { s in s.gap && (moment.map { s.at <= $0 } ?? true) }[...]
    func cross(_ g: SnapshotInfo) throws(JournalError) {
      let b = try self.board(of: g)
      if let settings, b.settings != settings { throw .otherSettings(path: path) }
      deliver(.restored(b), g.at)
      out.snapshot = g
      out.at = g.at
      out.lastRow = g.through
    }
    var stopped = false
    try inputs(after: out.lastRow) { (row, input) throws(JournalError) in
      while let g = gaps.first, g.through < row.id {
        try cross(g)
        gaps = gaps.dropFirst()
      }
      if let moment, row.at > moment {
        out.reachedEnd = false
        return false
      }
      if stop() {
        stopped = true
        return false
      }
      deliver(input, row.at)
      out.inputs += 1
      out.at = row.at
      out.lastRow = row.id
      return true
    }
    if !stopped && out.reachedEnd {
      for g in gaps { try cross(g) }
    }
    if stopped { out.reachedEnd = false }
    return out
  }
}

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
    /// Rows that could not be read and were skipped (the rest was played), in every table.
    public var skipped = 0
    /// The first `JournalLimits.namedSkips` of them, each named: table, row and why.
    public var skips: [Skip] = []
    /// The barrier snapshots delivered or crossed: a resumed playback crosses none again.
    var crossed: Set<Int64> = []
    public init() {}

    /// Counts a row skipped, naming it while there is room.
    mutating func skip(_ s: Skip) {
      skipped += 1
      if skips.count < JournalLimits.namedSkips { skips.append(s) }
    }

    /// What was skipped, in a sentence (nil: nothing): "2 unreadable rows skipped: inputs row
    /// 17: …; snapshots row 3: …".
    public var skippedSummary: String? {
      guard skipped > 0 else { return nil }
      let more = skipped > skips.count ? "; and \(skipped - skips.count) more" : ""
      return "\(skipped) unreadable row\(skipped == 1 ? "" : "s") skipped: "
        + skips.map(\.description).joined(separator: "; ") + more
    }
  }

  /// Where a playback starts.
  public enum Start: Sendable {
    /// From the latest snapshot by the moment (a restore, an instant replay): the fewest inputs.
    case latest
    /// From the journal's beginning (its base, when it was compacted): every input, in order
    /// (a replay at its own pace).
    case beginning
    /// On from where an earlier playback of this journal ended (a replay at its own pace, a
    /// stretch at a time): its counts go on, and nothing it delivered or crossed comes again.
    case resuming(Playback)
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
  /// A row that cannot be read is skipped and counted (`Playback.skipped`, named in `skips`),
  /// and the rest is played: an unreadable snapshot gives way to the one before it (or to the
  /// inputs from the start), an unreadable gap is crossed without its board, an unreadable input
  /// is left out.
  ///
  /// - Parameter stop: asked before each input; true ends the playback there.
  public func play(
    through moment: Instant?, settings: BoardSettings?, from start: Start = .latest,
    stop: () -> Bool = { false }, deliver: (BoardInput, Instant) -> Void
  ) throws(JournalError) -> Playback {
    var out = Playback()
    if case .resuming(let earlier) = start {
      out = earlier
      out.reachedEnd = true
    } else {
      for s in metaSkips { out.skip(s) }
      for s in try unlistedSnapshots() { out.skip(s) }
    }
    let all = try snapshots()
    let usable = all.filter { s in moment.map { s.at <= $0 } ?? true }
    if try compactedThrough() > 0, let base = all.first, let moment, moment < base.at {
      throw .before(path: path, oldest: base.at.rfc3339)
    }
    // The latest barrier by the moment: the inputs before it do not lead to it.
    let barrier = usable.last(where: \.gap)
    var first: SnapshotInfo?
    var board: BoardState?
    // Snapshots skipped already (named once, not again when crossed).
    var unreadable: Set<Int64> = []
    switch start {
    case .latest:
      // The latest snapshot that can be read; one that cannot gives way to the one before.
      for latest in usable.reversed() {
        switch try readBoard(of: latest) {
        case .failure(let bad):
          out.skip(bad)
          unreadable.insert(latest.id)
          continue
        case .success(let b):
          if settings.map({ $0 == b.settings }) ?? true {
            (first, board) = (latest, b)
          } else {
            out.settingsDiffer = true
            if let barrier, !unreadable.contains(barrier.id) {
              switch try readBoard(of: barrier) {
              case .success(let b): (first, board) = (barrier, b)
              case .failure(let bad):
                out.skip(bad)
                unreadable.insert(barrier.id)
              }
            }
          }
        }
        break
      }
    case .resuming: break
    case .beginning:
      if let base = all.first, base.gap {
        switch try readBoard(of: base) {
        case .success(let b): (first, board) = (base, b)
        case .failure(let bad):
          out.skip(bad)
          unreadable.insert(base.id)
        }
      }
    }
    if let board, let settings, board.settings != settings { throw .otherSettings(path: path) }
    if let first, let board {
      deliver(.restored(board), first.at)
      out.snapshot = first
      out.at = first.at
      out.lastRow = first.through
      out.crossed.insert(first.id)
    }
    // Later barriers restore their board when reached.
    let later: [SnapshotInfo]
    if case .resuming = start {
      later = all.filter { s in s.through >= out.lastRow && !out.crossed.contains(s.id) }
    } else {
      later = Array(all.drop { s in first.map { s != $0 } ?? false }.dropFirst(first == nil ? 0 : 1))
    }
    var gaps = later.filter { s in s.gap && (moment.map { s.at <= $0 } ?? true) }[...]
    func cross(_ g: SnapshotInfo) throws(JournalError) {
      out.crossed.insert(g.id)
      if unreadable.contains(g.id) { return }
      let b: BoardState
      switch try readBoard(of: g) {
      case .success(let read): b = read
      case .failure(let bad):
        // Crossed without its board: the inputs after it are played on.
        out.skip(bad)
        unreadable.insert(g.id)
        return
      }
      if let settings, b.settings != settings { throw .otherSettings(path: path) }
      deliver(.restored(b), g.at)
      out.snapshot = g
      out.at = g.at
      out.lastRow = g.through
    }
    var stopped = false
    try inputs(after: out.lastRow, skip: { out.skip($0) }) { (row, input) throws(JournalError) in
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

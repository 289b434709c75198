/// Where an input stands in its publisher's numbered stream: the envelope's `source` and `seq`.
///
/// A rejected event whose envelope could still be read carries one, so that its number is not
/// mistaken for a lost event.
public struct StreamPosition: Hashable, Sendable {
  /// The envelope's `source` (`""` when it names none).
  public var publisher: String
  public var seq: Int64

  public init(publisher: String?, seq: Int64) {
    self.publisher = publisher ?? ""
    self.seq = seq
  }
}

/// The one rule for sequence numbers (`docs/events.md`, "Rules"), used by the reducer for every
/// source and by the Orchestra session for its connection.
///
/// Per publisher: a number not past the last one seen is a duplicate; the next one, or any
/// number for a publisher first heard, moves the cursor; a jump past the next one is a gap.
/// Every number that arrived counts, whatever its event said, was ignored for or was rejected
/// for: only numbers that never arrived make a gap. A snapshot reflects the stream up to its
/// `seq`: every cursor moves there, and publishers first heard later start from it. A snapshot
/// older than what this stream already applied is stale and changes nothing. A (re)start — a new
/// connection, a file read anew — begins a new stream: numbering afresh, and its first snapshot
/// followed even backwards (a restarted server counts again).
public struct SequenceCursor: Hashable, Sendable {
  /// What `advance` found.
  public enum Step: Hashable, Sendable {
    /// The next number, or the first of its publisher: apply it.
    case next
    /// Numbers `missing` never arrived; this one is applied, and the stream needs a resync.
    case gap(missing: ClosedRange<Int64>)
    /// Not past `last`: already applied (or reflected by a snapshot).
    case duplicate(last: Int64)
  }

  /// The last number seen, by publisher.
  public private(set) var last: [String: Int64] = [:]
  /// The `seq` of the last snapshot followed: where a publisher first heard after it starts.
  public private(set) var floor: Int64?
  /// The stream (re)started and neither a number nor a snapshot has come since: the next
  /// snapshot may go back.
  public private(set) var restarted = true

  public init() {}

  /// A cursor as it stood (a decoded board's).
  package init(last: [String: Int64], floor: Int64?, restarted: Bool) {
    self.last = last
    self.floor = floor
    self.restarted = restarted
  }

  /// The highest number this stream has applied or been brought to by a snapshot.
  public var highest: Int64? {
    let top = last.values.max()
    switch (top, floor) {
    case (let a?, let b?): return max(a, b)
    case (let a?, nil): return a
    case (nil, let b): return b
    }
  }

  /// Takes one number that arrived (applied, ignored or rejected alike).
  public mutating func advance(_ p: StreamPosition) -> Step {
    // Numbers have come on this stream: a snapshot older than them is stale from now on.
    restarted = false
    guard let previous = last[p.publisher] ?? floor else {
      last[p.publisher] = p.seq
      return .next
    }
    if p.seq <= previous { return .duplicate(last: previous) }
    last[p.publisher] = p.seq
    return p.seq > previous + 1 ? .gap(missing: (previous + 1)...(p.seq - 1)) : .next
  }

  /// What following a snapshot at `seq` would mean.
  public enum SnapshotStep: Hashable, Sendable {
    /// Follow it (`seq` nil: it carries no number and is followed as it stands).
    case follow
    /// Older than `applied`, already applied on this stream: ignore it.
    case stale(applied: Int64)
  }

  /// Follows a snapshot reflecting the stream up to `seq`, or says it is stale.
  public mutating func snapshot(seq: Int64?) -> SnapshotStep {
    guard let seq else {
      restarted = false
      return .follow
    }
    if !restarted, let applied = highest, seq < applied { return .stale(applied: applied) }
    for p in last.keys { last[p] = seq }
    floor = seq
    restarted = false
    return .follow
  }

  /// The stream starts again (a new connection, a file read anew from the top): its numbering
  /// starts afresh — a restarted server, a rewritten file may count from 1 again — and its first
  /// snapshot is followed even when it goes back.
  public mutating func restart() {
    last = [:]
    floor = nil
    restarted = true
  }
}

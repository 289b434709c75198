public import WallboardCore

/// How a source stands, as the board shows it.
public struct SourceStatus: Hashable, Sendable {
  public enum State: String, Sendable {
    case live, connecting, reconnecting, stale, offline, ended
  }
  public var name: String
  /// The part of the name before `:` (`sim`, `jsonl`, `orchestra`…).
  public var kind: String
  public var status: State
  public var since: Instant?
  public var lastEventAt: Instant?
  /// When the source's data last changed (the time of its last event that was not a heartbeat).
  public var lastChangeAt: Instant?
  public var lastHeard: Instant?
  public var events: Int
  public var rejected: Int
  public var duplicates: Int
  public var gaps: Int
  public var needsResync: Bool
  /// The numbers of the last gap seen.
  public var lastGap: ClosedRange<Int64>?
  public var lastError: String?
  public var detail: String?
  /// From when the board knows the history of this source's features (see
  /// `OriginState.historyFrom`).
  public var historyFrom: Instant?
  /// A wall's `nats://` source: the stream position its board shows (`OriginState.relayed`).
  public var position: UInt64?

  /// Whether the source wants a look: it is not connected (stale, offline, reconnecting), it
  /// misses events (a gap), or it has rejected input — a line it could not decode, a feature
  /// file or row it could not read. Its detail line is the last the board gives up for room.
  public var needsAttention: Bool {
    status == .stale || status == .offline || status == .reconnecting || needsResync || rejected > 0
  }

  /// Every source the board has heard of, by name. `stale`: connected but nothing heard for
  /// `staleAfter` seconds before `now`.
  public static func compute(state: BoardState, now: Instant, staleAfter: Double = 30) -> [SourceStatus] {
    state.origins.keys.sorted().map { name in
      let o = state.origins[name]!
      var status = connected(o)
      if status == .live, let heard = o.lastHeard ?? o.connectionSince,
        Double(now.millis - heard.millis) / 1000 > staleAfter
      {
        status = .stale
      }
      let kind = name.hasPrefix("orchestra://") ? "orchestra" : String(name.prefix { $0 != ":" })
      return SourceStatus(
        name: name, kind: kind, status: status, since: o.connectionSince, lastEventAt: o.lastEventAt,
        lastChangeAt: o.lastChangeAt, lastHeard: o.lastHeard, events: o.events, rejected: o.rejected,
        duplicates: o.duplicates,
        gaps: o.gaps, needsResync: o.needsResync, lastGap: o.lastGap, lastError: o.lastError,
        detail: o.connectionDetail,
        historyFrom: o.historyFrom, position: o.relayed?.sequence)
    }
  }

  /// A source's state as its connection says it, before its silence is judged.
  static func connected(_ o: OriginState) -> State {
    switch o.connection {
    case .none: o.lastHeard == nil ? .connecting : .live
    case .connecting: .connecting
    case .live: .live
    case .reconnecting: .reconnecting
    case .offline: .offline
    case .ended: .ended
    }
  }

  /// When `compute(state:now:staleAfter:)` next says otherwise without an input: the first
  /// millisecond a live source's silence is past `staleAfter` (every other state changes only
  /// with an input); nil when no source will turn stale.
  public static func nextChange(state: BoardState, now: Instant, staleAfter: Double = 30) -> Instant? {
    // The first whole silence, in milliseconds, that `compute` calls stale (its test, exactly).
    guard staleAfter.isFinite, abs(staleAfter) < 1e12 else { return nil }
    var silence = Int64((staleAfter * 1000).rounded(.down))
    while Double(silence) / 1000 > staleAfter { silence -= 1 }
    while !(Double(silence) / 1000 > staleAfter) { silence += 1 }
    var next: Instant?
    for o in state.origins.values where connected(o) == .live {
      guard let heard = o.lastHeard ?? o.connectionSince else { continue }
      let stale = Instant(millis: heard.millis + silence)
      if stale > now, next.map({ stale < $0 }) ?? true { next = stale }
    }
    return next
  }
}

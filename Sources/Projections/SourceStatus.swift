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
      var status: State
      switch o.connection {
      case .none: status = o.lastHeard == nil ? .connecting : .live
      case .connecting: status = .connecting
      case .live: status = .live
      case .reconnecting: status = .reconnecting
      case .offline: status = .offline
      case .ended: status = .ended
      }
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
}

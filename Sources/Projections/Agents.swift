public import WallboardCore

/// An agent session's hold on a feature, as the board shows it.
public struct AgentRow: Hashable, Sendable {
  public var lock: AgentLock
  /// The feature's title, nil when the board does not hold the feature.
  public var title: String?
  /// The feature's status, nil when the board does not hold the feature.
  public var status: String?

  public init(lock: AgentLock, title: String?, status: String?) {
    self.lock = lock
    self.title = title
    self.status = status
  }

  /// Whether the lock has lapsed at `t` (the frame's time: see `AgentLock.lapsed(at:)`).
  public func lapsed(at t: Instant) -> Bool { lock.lapsed(at: t) }
}

/// Which agent sessions hold which features.
public enum Agents {
  /// Every lock the sources read (but those on features the board's filter keeps off it, or of
  /// projects it does not show), one row per (feature, session) over every source (the newest
  /// `lockedAt` of a pair two sources hold, the earliest `since`), each with its feature's title
  /// and status when the board holds it; held longest first (`since`, then feature and
  /// session). Reads no clock: which have lapsed is the frame's to say (`arranged(_:at:)`), so
  /// the list made once stays right as time passes.
  public static func compute(state: BoardState) -> [AgentRow] {
    var byPair: [PairKey: AgentLock] = [:]
    let projects = Set(state.settings.filter.projects)
    for origin in state.agentLocks.keys.sorted() {
      for lock in state.agentLocks[origin] ?? [] {
        // The board's filter: a lock on a feature it keeps off the board, or of a project it
        // does not show, is not shown either.
        if state.hidden[lock.feature] != nil { continue }
        if !projects.isEmpty, !projects.contains(lock.feature.project) { continue }
        let key = PairKey(feature: lock.feature, session: lock.session)
        guard var seen = byPair[key] else {
          byPair[key] = lock
          continue
        }
        seen.since = min(seen.since, lock.since)
        seen.lockedAt = max(seen.lockedAt, lock.lockedAt)
        byPair[key] = seen
      }
    }
    let rows = byPair.values.map { lock in
      let f = state.features[lock.feature]
      return AgentRow(lock: lock, title: f?.title, status: f?.status)
    }
    return rows.sorted { a, b in
      if a.lock.since != b.lock.since { return a.lock.since < b.lock.since }
      return AgentLock.inKeyOrder(a.lock, b.lock)
    }
  }

  /// `rows` as the frame at `t` shows them: the held locks first, then the lapsed ones, each in
  /// the order they came (held longest first).
  public static func arranged(_ rows: [AgentRow], at t: Instant) -> [AgentRow] {
    rows.filter { !$0.lapsed(at: t) } + rows.filter { $0.lapsed(at: t) }
  }

  /// `compute(state:)` arranged for the frame at `t`.
  public static func compute(state: BoardState, at t: Instant) -> [AgentRow] {
    arranged(compute(state: state), at: t)
  }

  struct PairKey: Hashable {
    var feature: FeatureKey
    var session: String
  }
}

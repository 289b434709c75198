/// The agents' locks (`agents.locks`). Internal to the reducer: call `Reducer.reduce(into:_:)`.
///
/// Each source's set replaces the set it said before, whole: a lock missing from it was released
/// (or lapsed and swept upstream). A board snapshot and a source going offline leave the set as
/// it is (the source's row says how fresh it is); a source taken off the board takes its locks
/// with it (`keeping(origins:at:)`).
extension BoardState {
  /// Takes `incoming` as `origin`'s locks: at most `AgentLock.maxPerSource` of them, one per
  /// (feature, session) — the newest `lockedAt` of a pair given twice —, kept in (feature,
  /// session) order. A lock the same session already held, refreshed before it lapsed, keeps
  /// its earlier `since`; a new holder (or a hold that lapsed in between) starts at its own.
  mutating func takeLocks(_ incoming: [AgentLock], from origin: String) {
    var byPair: [LockPair: AgentLock] = [:]
    for lock in incoming.prefix(AgentLock.maxPerSource) {
      let pair = LockPair(lock)
      if let seen = byPair[pair], seen.lockedAt >= lock.lockedAt { continue }
      byPair[pair] = lock
    }
    guard !byPair.isEmpty else {
      agentLocks[origin] = nil
      return
    }
    var before: [LockPair: AgentLock] = [:]
    for old in agentLocks[origin] ?? [] { before[LockPair(old)] = old }
    var kept: [AgentLock] = []
    kept.reserveCapacity(byPair.count)
    for (pair, var lock) in byPair {
      if let old = before[pair], lock.lockedAt <= old.lapsesAt {
        lock.since = min(old.since, lock.since)
      }
      kept.append(lock)
    }
    kept.sort(by: AgentLock.inKeyOrder)
    agentLocks[origin] = kept
  }
}

/// A lock's identity: the feature held and the session holding it.
struct LockPair: Hashable {
  var feature: FeatureKey
  var session: String
  init(_ lock: AgentLock) {
    feature = lock.feature
    session = lock.session
  }
}

extension AgentLock {
  /// The most locks one source's set may hold: the rest of a longer set is left out, by the
  /// reducer and by whatever reads them back (the codec).
  public static let maxPerSource = 4096

  /// The order a source's set is kept in: by feature, then session.
  public static func inKeyOrder(_ a: AgentLock, _ b: AgentLock) -> Bool {
    a.feature != b.feature ? a.feature < b.feature : a.session < b.session
  }
}

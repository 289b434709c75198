/// A restored board kept to the sources running now: what a source no longer on the board
/// contributed goes, as if it had never been there.
extension BoardState {
  /// This board without what the origins outside `running` contributed (their features and
  /// those features' history, hidden ones, sprints, workflows, the active sprint they named,
  /// recent changes, agents' locks and their own record); nil when every origin on it is running. Members of a
  /// sprint that goes are recorded at `time` as no longer in it, so the history the burndown
  /// reads agrees with the sprints that are left.
  ///
  /// A board restored from a journal goes through here before its sources start: it never shows
  /// a source that is not followed, nor a `--sprint` no longer declared (the `declared` origin).
  public func keeping(origins running: Set<String>, at time: Instant) -> BoardState? {
    let gone = Set(origins.keys).subtracting(running)
    guard !gone.isEmpty else { return nil }
    var s = self
    for origin in gone.sorted() { s.forget(origin: origin, at: time) }
    s.lastEventTime = s.origins.values.compactMap(\.lastEventAt).max()
    return s
  }

  /// Takes everything `origin` contributed off the board, and its record.
  mutating func forget(origin: String, at time: Instant) {
    var dropped: Set<FeatureKey> = []
    for (key, owner) in contributions.features where owner == origin {
      contributions.features[key] = nil
      _ = removeFeature(key)
      history[key] = nil
      dropped.insert(key)
    }
    for (key, h) in hidden where h.origin == origin { _ = removeHidden(key) }
    var members: Set<FeatureKey> = []
    for id in sprintOrder where contributions.sprints[id] == origin {
      for f in features.values where membership(of: f).contains(id) { members.insert(f.key) }
      removeSprint(id)
    }
    for key in members.sorted() {
      if let f = features[key] { record(f, exists: true, at: time, membershipMayMove: true) }
    }
    for (key, owner) in contributions.workflows where owner == origin {
      workflows[key] = nil
      contributions.workflows[key] = nil
    }
    if contributions.activeSprint == origin {
      activeSprintId = nil
      contributions.activeSprint = nil
    }
    if !dropped.isEmpty {
      recentBuffer.removeAll { dropped.contains(FeatureKey(project: $0.project, id: $0.featureId)) }
    }
    agentLocks[origin] = nil
    origins[origin] = nil
  }
}

/// Writing a past a snapshot tells into a feature's history. Internal to the reducer.
extension BoardState {
  /// Writes `moves` into the feature's history before what the board knows of it; returns the
  /// earliest moment written, nil when nothing was.
  ///
  /// Only what the board does not know yet: moves before the feature's first known version (all
  /// of them for a feature without history) and before `present` (the snapshot's time, where the
  /// present version goes). Known history is never rewritten, so a snapshot that repeats a
  /// backfill adds nothing. Each move is a version with the feature's *current* points and
  /// sprint membership: a trail records statuses only, not labels or estimates. Times are made
  /// non-decreasing; moves at one moment keep the last. The versions cap holds: with too many
  /// moves the oldest are dropped, leaving room for the present version.
  ///
  /// Each status change written goes to `told`; for a feature without known history, so does
  /// the move into its present status (at `changedAt`, when it last changed) when the past
  /// written ends in another.
  mutating func backfill(
    _ f: Feature, _ moves: [StatusMove], before present: Instant, changedAt: Instant, told: inout [Transition]
  ) -> Instant? {
    let known = history[f.key]?.versions ?? []
    let bound = min(present, known.first?.at ?? present)
    let points = settings.estimateScale.points(points: f.points, estimate: f.estimate)
    let sprints = membership(of: f)
    var past: [FeatureVersion] = []
    for m in moves where m.at < bound {
      let t = max(m.at, past.last?.at ?? m.at)
      let v = FeatureVersion(at: t, status: m.status, points: points, sprints: sprints, exists: true)
      if let last = past.last {
        if last.sameFacts(as: v) { continue }
        if last.at == t {
          past[past.count - 1] = v
          if past.count >= 2 && past[past.count - 2].sameFacts(as: v) { past.removeLast() }
          continue
        }
      }
      past.append(v)
    }
    let room = max(0, limits.maxVersionsPerFeature - known.count - 1)
    if past.count > room { past.removeFirst(past.count - room) }
    guard let first = past.first else { return nil }
    history[f.key] = FeatureHistory(versions: past + known)
    var from: String?
    var steps = past.map { ($0.status, $0.at) }
    if known.isEmpty { steps.append((f.status, max(changedAt, past.last!.at))) }
    for (status, at) in steps where status != from {
      told.append(Transition(featureId: f.id, project: f.projectId, title: f.title, from: from, to: status, at: at))
      from = status
    }
    return first.at
  }
}

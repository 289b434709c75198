public import WallboardCore

extension BoardState {
  /// The first moment after `t` at which the board's projections (`activeSprint`, `Burndown`,
  /// `Flow`, the tallies) of this state can differ from those at `t`; nil when none can.
  ///
  /// The projections read their moment only by comparing it with what the state records — the
  /// features' versions, creation and update times, the sprints' start and close — and by its
  /// date, in the board's `zone` or a sprint's own. So between `t` and the first of those after
  /// it (a recorded time, or the start of a day in one of those zones), they are what they were
  /// at `t`: the moment is all that differs. O(the versions recorded): once per change, never
  /// once a frame.
  public func nextProjectionChange(
    after t: Instant, zone: Zone, sprintZones: SprintZones = SprintZones()
  ) -> Instant? {
    var next: Instant?
    func consider(_ m: Instant?) {
      guard let m, m > t else { return }
      if next.map({ m < $0 }) ?? true { next = m }
    }
    consider(zone.startOfDay(zone.date(of: t).adding(days: 1)))
    for z in sprintZones.zones { consider(z.startOfDay(z.date(of: t).adding(days: 1))) }
    for s in sprints.values {
      consider(s.startedAt)
      consider(s.closedAt)
    }
    for f in features.values {
      consider(f.createdAt)
      consider(f.updatedAt)
    }
    for h in history.values {
      // Versions are in time order: the first after `t` is the one to consider.
      if let last = h.versions.last, last.at > t, let v = h.versions.first(where: { $0.at > t }) { consider(v.at) }
    }
    return next
  }
}

public import WallboardCore

extension BoardState {
  /// The sprint the board shows.
  ///
  /// - `preferred` (`--active-sprint`) when given: that sprint, or none when the board has no
  ///   such sprint (`missingSprint(preferred:)` says so).
  /// - Else the one a snapshot named.
  /// - Else, of the sprints whose dates decide (`Sprint.Activation.dates`: declared ones), the
  ///   one whose `startDate…endDate` holds the date of `now` in its zone (`zone` when it names
  ///   none); of several, the latest start. Without `now`, none of them.
  /// - Else the most recently started sprint that is not closed, else the most recently created
  ///   one whose events decide. A board with only declared sprints, none of them holding today,
  ///   has no active sprint.
  public func activeSprint(
    preferred: String? = nil, at now: Instant? = nil, zone: Zone = .utc, sprintZones: SprintZones = SprintZones()
  ) -> Sprint? {
    if let id = preferred { return sprints[id] }
    if let id = activeSprintId, let s = sprints[id] { return s }
    if let now, let s = datedSprint(holding: now, zone: zone, sprintZones: sprintZones) { return s }
    var best: (Sprint, Int)?
    for (i, id) in sprintOrder.enumerated() {
      guard let s = sprints[id], let started = s.startedAt, s.closedAt == nil else { continue }
      if let (b, bi) = best, (b.startedAt!, bi) > (started, i) { continue }
      best = (s, i)
    }
    if let (s, _) = best { return s }
    return sprintOrder.last { sprints[$0]?.activation == .events }.flatMap { sprints[$0] }
  }

  /// The sprint whose dates decide and hold the date of `now` (in its zone, as `sprintZones`
  /// has it, else `zone`); of several, the latest start (then the latest declared).
  public func datedSprint(holding now: Instant, zone: Zone, sprintZones: SprintZones = SprintZones()) -> Sprint? {
    var best: (Sprint, Int)?
    for (i, id) in sprintOrder.enumerated() {
      guard let s = sprints[id], s.activation == .dates else { continue }
      let today = sprintZones.zone(of: s, else: zone).date(of: now)
      guard s.startDate <= today && today <= s.endDate else { continue }
      if let (b, bi) = best, (b.startDate, bi) > (s.startDate, i) { continue }
      best = (s, i)
    }
    return best?.0
  }

  /// The id of the forced sprint (`--active-sprint`) when the board has no such sprint: what
  /// the header and `inspect` say instead of showing nothing silently.
  public func missingSprint(preferred: String?) -> String? {
    guard let id = preferred, sprints[id] == nil else { return nil }
    return id
  }

  /// The features that are members of `sprint` now.
  public func members(of sprint: Sprint) -> [Feature] {
    features.values.filter { membership(of: $0).contains(sprint.id) }.sorted { $0.key < $1.key }
  }

  /// The workflow for a set of features: that of their most common project.
  public func workflow(for features: [Feature]) -> Workflow {
    var counts: [String: Int] = [:]
    for f in features { if let p = f.projectId { counts[p, default: 0] += 1 } }
    let top = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    return workflow(forProject: top)
  }
}

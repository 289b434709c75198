public import WallboardCore

extension BoardState {
  /// The sprint the board shows: `preferred` when it exists, else the one a snapshot named,
  /// else the most recently started sprint that is not closed, else the most recently created.
  public func activeSprint(preferred: String? = nil) -> Sprint? {
    if let id = preferred, let s = sprints[id] { return s }
    if let id = activeSprintId, let s = sprints[id] { return s }
    var best: (Sprint, Int)?
    for (i, id) in sprintOrder.enumerated() {
      guard let s = sprints[id], let started = s.startedAt, s.closedAt == nil else { continue }
      if let (b, bi) = best, (b.startedAt!, bi) > (started, i) { continue }
      best = (s, i)
    }
    if let (s, _) = best { return s }
    return sprintOrder.last.flatMap { sprints[$0] }
  }

  /// The features that are members of `sprint` now.
  public func members(of sprint: Sprint) -> [Feature] {
    features.values.filter { membership(of: $0).contains(sprint.id) }.sorted { $0.id < $1.id }
  }

  /// The workflow for a set of features: that of their most common project.
  public func workflow(for features: [Feature]) -> Workflow {
    var counts: [String: Int] = [:]
    for f in features { if let p = f.projectId { counts[p, default: 0] += 1 } }
    let top = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    return workflow(forProject: top)
  }
}

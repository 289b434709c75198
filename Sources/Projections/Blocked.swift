public import WallboardCore

/// An unfinished feature waiting on features that are not done (`Blocked.compute`).
public struct BlockedItem: Hashable, Sendable {
  public var key: FeatureKey
  public var title: String
  public var assignee: String?
  /// Its status, as stored (normalised).
  public var status: String
  /// What it waits on that is not done, resolved within its project
  /// (`BoardState.dependencies(of:)`), in the order written.
  public var waitsOn: [FeatureKey]
  /// Since when it has waited (see `Blocked.compute`); nil when the data does not say.
  public var since: Instant?

  public init(
    key: FeatureKey, title: String, assignee: String?, status: String, waitsOn: [FeatureKey], since: Instant?
  ) {
    self.key = key
    self.title = title
    self.assignee = assignee
    self.status = status
    self.waitsOn = waitsOn
    self.since = since
  }

  /// How `waitsOn[i]` reads in the feature's own project's terms: the bare id for a feature of
  /// the same project, `project/id` for another project's (the bare id for one without project).
  public func written(_ dependency: FeatureKey) -> String {
    dependency.project == key.project ? dependency.id : dependency.qualified
  }
}

/// A feature sent back for edits (`needs-edits`), with how many times it went back.
public struct ReworkItem: Hashable, Sendable {
  public var key: FeatureKey
  public var title: String
  public var assignee: String?
  /// How many times it entered `needs-edits`, this time included (at least 1).
  public var times: Int
  /// When it last entered `needs-edits`; nil when the data does not say.
  public var since: Instant?

  public init(key: FeatureKey, title: String, assignee: String?, times: Int, since: Instant?) {
    self.key = key
    self.title = title
    self.assignee = assignee
    self.times = times
    self.since = since
  }
}

/// What is stuck: blocked work and work in rework, over every feature the board holds.
public enum Blocked {
  /// The status of work sent back for edits (upstream's review verdict).
  public static let reworkStatus = "needs-edits"
  /// The seed workflow's explicit blocked state.
  public static let blockedStatus = "blocked"

  /// Every unfinished feature waiting on a feature that is not done, oldest wait first.
  ///
  /// A feature the filter keeps on the board is *unfinished* when its status is not terminal in
  /// its project's workflow (`Workflow.isCompleted`). It is listed when:
  /// - one of its dependencies (`BoardState.dependencies(of:)`: a bare id within its own
  ///   project, `project/id` for another project's) names a feature the board holds — on the
  ///   board or kept off it by the filter — whose status is not a done state of *that* feature's
  ///   project's workflow (`Workflow.isDone`; a rejected or cancelled dependency is not done).
  ///   A dependency the board does not hold at all does not block: the board cannot tell;
  /// - or its status is literally `blocked` (the seed's state), with whatever not-done
  ///   dependencies it has, possibly none.
  ///
  /// `waitsOn` lists the not-done dependencies in the order written. `since` is when the feature
  /// entered its current status: the start of the last unbroken run of that status in its
  /// history, else its `updatedAt`, else nil. Ordered by `since`, oldest first, unknown last,
  /// then by (project, id).
  public static func compute(state: BoardState) -> [BlockedItem] {
    var out: [BlockedItem] = []
    var sets = StatusSets(state)
    for (key, f) in state.features where !f.dependsOn.isEmpty || f.status == blockedStatus {
      guard !sets.of(f.projectId).terminal.contains(f.status) else { continue }
      var waits: [FeatureKey] = []
      if !f.dependsOn.isEmpty {
        for d in state.dependencies(of: key) where d.known {
          guard let g = state.features[d.key] ?? state.hidden[d.key]?.feature else { continue }
          if !sets.of(g.projectId).done.contains(g.status) { waits.append(d.key) }
        }
      }
      guard !waits.isEmpty || f.status == blockedStatus else { continue }
      out.append(
        BlockedItem(
          key: key, title: f.title, assignee: f.assignee, status: f.status, waitsOn: waits,
          since: state.statusSince(f)))
    }
    return out.sorted { olderFirst(($0.since, $0.key), ($1.since, $1.key)) }
  }

  /// Every feature in rework, longest there first.
  ///
  /// A feature the filter keeps whose status is `needs-edits`. `times` is how many times its
  /// history enters `needs-edits` (a version with it whose predecessor had another status or
  /// did not exist), at least 1 (the present stay, when the history does not record it).
  /// `since` as for `compute`. Ordered by `since`, oldest first, unknown last, then by key.
  public static func rework(state: BoardState) -> [ReworkItem] {
    var out: [ReworkItem] = []
    for (key, f) in state.features where f.status == reworkStatus {
      let times = Swift.max(1, state.history[key]?.entries(into: reworkStatus) ?? 0)
      out.append(
        ReworkItem(key: key, title: f.title, assignee: f.assignee, times: times, since: state.statusSince(f)))
    }
    return out.sorted { olderFirst(($0.since, $0.key), ($1.since, $1.key)) }
  }
}

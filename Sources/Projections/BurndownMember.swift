internal import WallboardCore

/// One feature that is, or was, a member of a sprint, as the burndown reads it: its history with
/// the first version placed where the rule of `docs/burndown.md` ("Committed and scope") puts
/// it. The one place that rule lives; the commitment, the daily series, the steps and the scope
/// changes all read these.
///
/// - A feature the board knew at the start keeps its history.
/// - A feature first recorded after the start whose creation time (`Feature.createdAt`) is
///   after the start was **created during the sprint**: it was not there at the start, and its
///   first version holds from its creation (the version moved back to it when the board recorded
///   it later, as a workspace read after the fact does). Being a member then is scope added.
/// - A feature first recorded after the start without a creation time after it — known only from
///   a snapshot, or created before the start — **counts as existing at the start**: its first
///   version is taken to hold from the start, so it is part of the commitment.
/// - A feature no longer on the board (deleted, or off it by the filter) has no creation time
///   left: its history counts as recorded.
/// - What the board recorded after `at` is not known at `at`: such a history counts as recorded.
struct BurndownMember {
  var key: FeatureKey
  var history: FeatureHistory
  var workflow: Workflow
  /// Created during the sprint: absent at the start, its first version a change.
  var createdDuring: Bool
  /// The board's own first record of the feature (before any version was moved).
  var firstRecord: Instant

  /// Where the first version now stands.
  var joined: Instant { history.versions.first?.at ?? firstRecord }

  /// The members of `sprint` (every feature whose history names it), by key.
  static func members(of sprint: Sprint, in state: BoardState, start: Instant, at: Instant) -> [BurndownMember] {
    state.history.filter { _, h in h.versions.contains { $0.sprints.contains(sprint.id) } }
      .sorted { $0.key < $1.key }
      .compactMap { key, h in
        guard let first = h.versions.first else { return nil }
        var versions = h.versions
        var createdDuring = false
        if first.at > start && first.at <= at {
          if let created = state.features[key]?.createdAt, created > start {
            createdDuring = true
            versions[0].at = min(first.at, created)
          } else {
            versions[0].at = start
          }
        }
        return BurndownMember(
          key: key, history: FeatureHistory(versions: versions), workflow: state.workflow(forProject: key.projectId),
          createdDuring: createdDuring, firstRecord: first.at)
      }
  }

  /// From when the board knows the sprint's scope at `at`: the start, unless every feature that
  /// counts as existing at the start was first recorded after it (the board joined late, through
  /// a snapshot without history) — then its first record, or the creation of a member created
  /// during the sprint when that came first. Nil when the board knows the scope from the start.
  static func knownFrom(_ members: [BurndownMember], start: Instant, at: Instant) -> Instant? {
    guard
      let late = members.filter({ !$0.createdDuring && $0.firstRecord <= at }).map(\.firstRecord).min(),
      late > start
    else { return nil }
    let firstJoin = members.filter { $0.createdDuring && $0.joined <= at }.map(\.joined).min()
    return max(start, min(late, firstJoin ?? late))
  }
}

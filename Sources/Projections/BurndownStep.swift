public import WallboardCore

/// One change of a sprint's remaining work, at the moment it happened: burn (work completed, or
/// reopened) or a change of scope (a member added or removed, or re-estimated), never both —
/// a feature that changes both at once gives a scope step, then a burn step, at one moment.
public struct BurndownStep: Hashable, Sendable {
  public enum Kind: String, Sendable {
    /// Completed work (a drop), or completed work reopened (a rise).
    case burn
    case added, removed, estimate
  }
  public var at: Instant
  public var kind: Kind
  public var feature: FeatureKey
  public var featureId: String { feature.id }
  /// Change of the scope (0 for burn).
  public var scopeDelta: Double
  /// Change of the completed total.
  public var completedDelta: Double
  /// The totals after the step.
  public var scope: Double
  public var completed: Double

  /// Remaining work after the step.
  public var remaining: Double { scope - completed }
  /// Change of the remaining work.
  public var remainingDelta: Double { scopeDelta - completedDelta }
}

extension BurndownStep {
  /// Sweeps every member's versions between `from` and `to` (changes after `from`, up to and
  /// including `to`), in time order (ties by feature id), keeping the totals as it goes. A member
  /// created during the sprint (`BurndownMember.createdDuring`) is absent at `from`: its first
  /// version is a change even at `from` itself.
  static func compute(
    members: [BurndownMember], from: Instant, to: Instant, isMember: (FeatureVersion?) -> Bool,
    value: (FeatureVersion) -> Double
  ) -> [BurndownStep] {
    guard to >= from else { return [] }
    struct Change {
      var at: Instant
      var feature: Int
      var version: Int
    }
    // Where each member stands at `from`, and every later change up to `to`.
    var current: [FeatureVersion?] = []
    var changes: [Change] = []
    var scope = 0.0
    var completed = 0.0
    func contribution(_ v: FeatureVersion?, _ wf: Workflow) -> (Double, Double) {
      guard isMember(v), let v else { return (0, 0) }
      let x = value(v)
      return (x, wf.isCompleted(v.status) ? x : 0)
    }
    for (i, m) in members.enumerated() {
      let v = m.createdDuring ? nil : m.history.version(atOrBefore: from)
      current.append(v)
      let (s, c) = contribution(v, m.workflow)
      scope += s
      completed += c
      for (j, later) in m.history.versions.enumerated()
      where (later.at > from || (m.createdDuring && later.at == from)) && later.at <= to {
        changes.append(Change(at: later.at, feature: i, version: j))
      }
    }
    changes.sort {
      $0.at != $1.at ? $0.at < $1.at : members[$0.feature].key < members[$1.feature].key
    }

    var steps: [BurndownStep] = []
    for change in changes {
      let m = members[change.feature]
      let id = m.key
      let wf = m.workflow
      let before = current[change.feature]
      let after = m.history.versions[change.version]
      current[change.feature] = after
      let (s0, c0) = contribution(before, wf)
      let (s1, c1) = contribution(after, wf)
      let wasMember = isMember(before)
      let isNowMember = isMember(after)
      if s1 != s0 || wasMember != isNowMember {
        // The scope moved: the member brings (or takes) its completed part along, so that the
        // remaining work changes only by what is still to do.
        let kind: Kind = !wasMember ? .added : !isNowMember ? .removed : .estimate
        let carried = wasMember && isNowMember ? (c0 > 0 && c1 > 0 ? c1 - c0 : 0) : c1 - c0
        scope += s1 - s0
        completed += carried
        steps.append(
          BurndownStep(
            at: change.at, kind: kind, feature: id, scopeDelta: s1 - s0, completedDelta: carried, scope: scope,
            completed: completed))
        if c1 - c0 != carried {
          completed += c1 - c0 - carried
          steps.append(
            BurndownStep(
              at: change.at, kind: .burn, feature: id, scopeDelta: 0, completedDelta: c1 - c0 - carried,
              scope: scope, completed: completed))
        }
      } else if c1 != c0 {
        completed += c1 - c0
        steps.append(
          BurndownStep(
            at: change.at, kind: .burn, feature: id, scopeDelta: 0, completedDelta: c1 - c0, scope: scope,
            completed: completed))
      }
    }
    return steps
  }
}

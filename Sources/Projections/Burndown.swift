public import WallboardCore

/// What to count in a burndown.
public enum BurndownUnit: String, Sendable, CaseIterable {
  case points, count
}

/// The unit the user asked for; `auto` = points when any member has an estimate.
public enum UnitChoice: String, Sendable, CaseIterable {
  case auto, points, count
}

/// A change of a sprint's scope after it started: a member added (created during the sprint, or
/// joining it), removed or re-estimated. Never drawn as burn.
public struct ScopeChange: Hashable, Sendable {
  public enum Kind: String, Sendable { case added, removed, estimate }
  public var date: CivilDate
  public var at: Instant
  public var feature: FeatureKey
  public var featureId: String { feature.id }
  public var delta: Double
  public var kind: Kind
}

/// The burndown and burnup series of one sprint, one entry per calendar day
/// (`docs/burndown.md`, from `shared/reference/burndown.md`).
public struct Burndown: Hashable, Sendable {
  public var sprintId: String
  public var unit: BurndownUnit
  public var days: [CivilDate]
  public var working: [Bool]
  public var ideal: [Double]
  public var remaining: [Double?]
  public var scope: [Double?]
  public var completed: [Double?]
  /// The steps that moved the scope, oldest first: what the chart marks and `inspect` lists, so
  /// that `committed` plus their deltas up to a day is that day's `scope`.
  public var scopeChanges: [ScopeChange]
  /// Every change of the remaining work and the scope, at the moment it happened, oldest first:
  /// what the chart draws as steps (`BurndownStep`).
  public var steps: [BurndownStep]
  /// Where the steps begin: the sprint's start, or the board's first record of a member when it
  /// joined later (never after `at`).
  public var stepsFrom: Instant
  /// Scope and completed totals at `stepsFrom`, before the first step: of the members that
  /// existed at the start (`committed`, once the sprint has started).
  public var startScope: Double
  public var startCompleted: Double
  /// The unit total of the members that existed, and were members, when the sprint started (a
  /// member created during it is scope added; one without a creation time counts as existing):
  /// where the guideline begins. See `BurndownMember`.
  public var committed: Double
  /// Members without an estimate at `at`.
  public var unestimated: Int
  /// Working days after the date of `at` through the end date.
  public var daysLeft: Int
  /// Index into `days` of the date of `at`, or nil when `at` is outside the days.
  public var todayIndex: Int?
  /// The moment the sprint counts as started.
  public var startMoment: Instant
  /// The zone whose midnights are the day boundaries.
  public var zone: Zone
}

extension Burndown {
  /// How many days past its end date a sprint's chart goes on, at most (an unclosed sprint's
  /// chart runs through today).
  public static let maxOverrunDays = 90

  /// Computes the burndown of `sprint` at `at`.
  ///
  /// - Parameters:
  ///   - boardZone: the board's zone, used when the sprint names none (or one `sprintZones`
  ///     lacks: this system has no such zone).
  ///   - sprintZones: the zones the sprints name, as the caller read them.
  public static func compute(
    state: BoardState, sprint: Sprint, at: Instant, boardZone: Zone, sprintZones: SprintZones = SprintZones(),
    unit choice: UnitChoice = .auto
  ) -> Burndown {
    let zone = sprintZones.zone(of: sprint, else: boardZone)
    let startMoment = sprint.startedAt ?? zone.startOfDay(sprint.startDate)
    // Who the members are and from when each counts: the one rule (`BurndownMember`).
    let members = BurndownMember.members(of: sprint, in: state, start: startMoment, at: at)

    func isMember(_ v: FeatureVersion?) -> Bool {
      guard let v, v.exists else { return false }
      return v.sprints.contains(sprint.id)
    }
    func points(_ v: FeatureVersion) -> Double? { v.points }

    // Unit: points when any member at `at` has an estimate.
    let membersAtAt = members.compactMap { m -> FeatureVersion? in
      let v = m.history.version(atOrBefore: at)
      return isMember(v) ? v : nil
    }
    let unit: BurndownUnit
    switch choice {
    case .points: unit = .points
    case .count: unit = .count
    case .auto: unit = membersAtAt.contains { points($0) != nil } ? .points : .count
    }
    func value(_ v: FeatureVersion) -> Double { unit == .count ? 1 : (points(v) ?? 0) }

    /// (scope, completed) at moment t; without the members created during the sprint when
    /// `existingOnly` (what stood at the start).
    func totals(at t: Instant, existingOnly: Bool = false) -> (Double, Double) {
      var scope = 0.0
      var done = 0.0
      for m in members where !(existingOnly && m.createdDuring) {
        let v = m.history.version(atOrBefore: t)
        guard isMember(v), let v else { continue }
        let x = value(v)
        scope += x
        if m.workflow.isCompleted(v.status) { done += x }
      }
      return (scope, done)
    }

    // Days: through the end date, or on through today (or the close) when the sprint overran —
    // at most `maxOverrunDays`, so that no far-off moment makes a chart of millions of days.
    let today = zone.date(of: at)
    var last = sprint.endDate
    if let closed = sprint.closedAt {
      last = max(last, zone.date(of: closed))
    } else if today > last {
      last = today
    }
    last = min(last, sprint.endDate.adding(days: Burndown.maxOverrunDays))
    let count = max(0, last.daysSinceEpoch - sprint.startDate.daysSinceEpoch + 1)
    let days = (0..<count).map { sprint.startDate.adding(days: $0) }
    let working = days.map(sprint.isWorking)
    let wTotal = zip(days, working).filter { $0.0 <= sprint.endDate && $0.1 }.count

    // The commitment: the members that existed at the start, as they stood then.
    let committed = totals(at: startMoment, existingOnly: true).0
    // The board knows nothing before its first record of a member that existed at the start when
    // it joined late (through a snapshot): those days are unknown, not zero.
    let knownFrom = BurndownMember.knownFrom(members, start: startMoment, at: at)

    var ideal: [Double] = []
    var w = 0
    for (d, isWorking) in zip(days, working) {
      if isWorking { w += 1 }
      if d > sprint.endDate || wTotal == 0 {
        ideal.append(d >= sprint.endDate ? 0 : committed)
      } else {
        ideal.append(committed * Double(wTotal - w) / Double(wTotal))
      }
    }

    var remaining: [Double?] = []
    var scope: [Double?] = []
    var completed: [Double?] = []
    for d in days {
      guard d <= today, knownFrom.map({ zone.endOfDay(d) >= $0 }) ?? true else {
        remaining.append(nil)
        scope.append(nil)
        completed.append(nil)
        continue
      }
      let moment = d == today ? at : zone.endOfDay(d)
      let (s, c) = totals(at: moment)
      scope.append(s)
      completed.append(c)
      remaining.append(s - c)
    }

    // Never after `at`: a chart of a sprint that has not started, or of what the board did not
    // know yet, is flat at what it knew at `at`.
    let stepsFrom = min(knownFrom ?? startMoment, at)
    let steps = BurndownStep.compute(members: members, from: stepsFrom, to: at, isMember: isMember, value: value)
    let (startScope, startCompleted) = totals(at: stepsFrom, existingOnly: true)
    // The scope changes are the steps that moved the scope: what the chart marks, `inspect` lists.
    let changes = steps.compactMap { s -> ScopeChange? in
      let kind: ScopeChange.Kind
      switch s.kind {
      case .burn: return nil
      case .added: kind = .added
      case .removed: kind = .removed
      case .estimate: kind = .estimate
      }
      return ScopeChange(date: zone.date(of: s.at), at: s.at, feature: s.feature, delta: s.scopeDelta, kind: kind)
    }

    let unestimated = membersAtAt.filter { points($0) == nil }.count
    let daysLeft = days.indices.filter { days[$0] > today && days[$0] <= sprint.endDate && working[$0] }.count
    let todayIndex = days.firstIndex(of: today)

    return Burndown(
      sprintId: sprint.id, unit: unit, days: days, working: working, ideal: ideal,
      remaining: remaining, scope: scope, completed: completed, scopeChanges: changes, steps: steps,
      stepsFrom: stepsFrom, startScope: startScope, startCompleted: startCompleted,
      committed: committed, unestimated: unestimated, daysLeft: daysLeft, todayIndex: todayIndex,
      startMoment: startMoment, zone: zone)
  }
}

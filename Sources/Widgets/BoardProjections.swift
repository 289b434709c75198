public import Projections
public import WallboardCore

/// The projections of one frame that read the board's content — the sprint, its burndown or
/// the flow, the tallies, the progress, the projects counted — as opposed to what reads the
/// clock (the clock, the ages, the sources' states). O(the board): made again only when the
/// content or the day changed (`ProjectionMemo`), never once a second.
public struct BoardProjections: Sendable {
  public var sprint: Sprint?
  public var burndown: Burndown?
  /// The cumulative flow and throughput, when no sprint is active.
  public var flow: Flow?
  public var tallies: [Tally]
  public var progress: Progress
  /// The projects of the scope's features, sorted (`HeaderModel.projects(of:)`).
  public var projects: [String]
  /// `FrameModel.unmatchedProjects`.
  public var unmatchedProjects: String?

  public init(
    state: BoardState, at: Instant, zone: Zone, unit: UnitChoice, activeSprint: String? = nil,
    flowDays: Int = Flow.defaultDays
  ) {
    let sprint = state.activeSprint(preferred: activeSprint, at: at, zone: zone)
    let scope = BoardScope(state: state, sprint: sprint)
    self.sprint = sprint
    burndown = sprint.map { Burndown.compute(state: state, sprint: $0, at: at, boardZone: zone, unit: unit) }
    // Only without a sprint: nothing draws the flow while the burndown is shown.
    flow =
      sprint == nil
      ? Flow.compute(state: state, scope: scope, sprint: nil, at: at, zone: zone, days: flowDays) : nil
    tallies = Tally.compute(state: state, scope: scope)
    progress = Progress.compute(state: state, scope: scope)
    projects = HeaderModel.projects(of: scope)
    unmatchedProjects = FrameModel.unmatchedProjects(state)
  }
}

/// Keeps the last `BoardProjections` and makes them again only when what they read changed:
/// the board's content (its `BoardStore.version`), the zone, the unit, the forced sprint, the
/// flow's window, or the moment past `BoardState.nextProjectionChange(after:zone:)` (a recorded
/// time or a new day). An idle board thus costs what its clock and ages cost, whatever its size.
///
/// A value: the run loop owns one; nothing global. The projections it hands out between two
/// recomputations are those made at the first moment of that span, equal to ones made at any
/// moment of it (but for a flow's `historyFrom` when a feature has no recorded version: then
/// that first moment rather than the current one, on the same day).
public struct ProjectionMemo: Sendable {
  /// What the kept projections were made from.
  struct Key: Equatable, Sendable {
    var version: Int
    var zone: Zone
    var unit: UnitChoice
    var activeSprint: String?
    var flowDays: Int
  }

  private var key: Key?
  private var kept: BoardProjections?
  /// The span of moments the kept projections hold for: from when they were made, until the
  /// next moment they can change (nil: on for ever).
  private var from = Instant(millis: 0)
  private var until: Instant?
  /// How many times the projections were made (for tests and the diagnostics: an idle board's
  /// count stays still).
  public private(set) var computed = 0

  public init() {}

  /// The projections of `state` at `at`. `version` must change whenever `state` does
  /// (`BoardStore.version`).
  public mutating func projections(
    state: BoardState, version: Int, at: Instant, zone: Zone, unit: UnitChoice, activeSprint: String? = nil,
    flowDays: Int = Flow.defaultDays
  ) -> BoardProjections {
    let k = Key(version: version, zone: zone, unit: unit, activeSprint: activeSprint, flowDays: flowDays)
    if let kept, key == k, at >= from, until.map({ at < $0 }) ?? true { return kept }
    let made = BoardProjections(
      state: state, at: at, zone: zone, unit: unit, activeSprint: activeSprint, flowDays: flowDays)
    computed += 1
    key = k
    kept = made
    from = at
    until = state.nextProjectionChange(after: at, zone: zone)
    return made
  }
}

public import WallboardCore

/// How a board is viewed: the choices the options make, once.
public struct ViewSettings: Hashable, Sendable {
  public var unit: UnitChoice
  /// The sprint `--active-sprint` forces, if any.
  public var activeSprint: String?
  /// The flow's window when no sprint is active (`Flow.dayRange`).
  public var flowDays: Int
  /// Seconds without news after which a live source is stale.
  public var staleAfter: Double

  public init(
    unit: UnitChoice = .auto, activeSprint: String? = nil, flowDays: Int = Flow.defaultDays, staleAfter: Double = 30
  ) {
    self.unit = unit
    self.activeSprint = activeSprint
    self.flowDays = flowDays
    self.staleAfter = staleAfter
  }
}

/// The board's content as of a moment — the sprint, its burndown, the flow, the tallies, the
/// progress, the projects counted: what reads the board rather than the clock. Each is made
/// when first asked for, and once: the pixel board never asks for a sprint's flow, `inspect`
/// asks for everything. O(the board) each; kept from frame to frame while the content and the
/// day stay the same (`ProjectionMemo`).
///
/// A class so that what one frame made, the next (and every renderer of the frame) reuses; used
/// by one thread (the run loop's): not `Sendable`.
public final class BoardContent {
  public let state: BoardState
  public let at: Instant
  public let zone: Zone
  public let settings: ViewSettings
  /// The zones the sprints name, as the caller read them (`ZoneBook`).
  public let sprintZones: SprintZones

  public init(
    state: BoardState, at: Instant, zone: Zone, settings: ViewSettings, sprintZones: SprintZones = SprintZones()
  ) {
    self.state = state
    self.at = at
    self.zone = zone
    self.settings = settings
    self.sprintZones = sprintZones
  }

  /// The active sprint (`BoardState.activeSprint`).
  public private(set) lazy var sprint: Sprint? = state.activeSprint(
    preferred: settings.activeSprint, at: at, zone: zone, sprintZones: sprintZones)
  /// The sprint `--active-sprint` names when the board has none of that id.
  public var missingSprint: String? { state.missingSprint(preferred: settings.activeSprint) }
  /// The features counted: the sprint's, or every one the filter keeps.
  public private(set) lazy var scope = BoardScope(state: state, sprint: sprint)
  public private(set) lazy var burndown: Burndown? = sprint.map {
    Burndown.compute(
      state: state, sprint: $0, at: at, boardZone: zone, sprintZones: sprintZones, unit: settings.unit)
  }
  /// The cumulative flow and throughput over the scope (the sprint's, when one is active).
  public private(set) lazy var flow = Flow.compute(
    state: state, scope: scope, sprint: sprint, at: at, zone: zone, days: settings.flowDays)
  public private(set) lazy var tallies = Tally.compute(state: state, scope: scope)
  public private(set) lazy var progress = Progress.compute(state: state, scope: scope)
  /// Unfinished features waiting on features that are not done, over the whole board.
  public private(set) lazy var blocked = Blocked.compute(state: state)
  /// Features in rework (`needs-edits`), over the whole board.
  public private(set) lazy var rework = Blocked.rework(state: state)
  /// Features in active work, oldest first, over the whole board.
  public private(set) lazy var aging = Aging.compute(state: state)
  /// The team's cycle time over the last `CycleTime.defaultWindowDays` days.
  public private(set) lazy var cycleTime = Aging.cycleTime(state: state, at: at, zone: zone)
  /// When the sprint (or, without one, how much of the backlog) will finish.
  /// (With a sprint, its days are the sprint's zone's, as the burndown's.)
  public private(set) lazy var forecast = Forecast.compute(
    state: state, sprint: sprint, scope: scope, at: at, zone: burndown?.zone ?? zone)
  /// The agent sessions' locks.
  public private(set) lazy var agents = Agents.compute(state: state)
  /// The projects of the scope's features, sorted.
  public private(set) lazy var projects = Set(scope.features.compactMap(\.projectId)).sorted()
  /// "project nosuch" (or "projects a, b") when the filter names projects and the sources hold
  /// no feature of any of them, so that such a board says so rather than look empty and calm.
  public private(set) lazy var unmatchedProjects: String? = {
    let wanted = state.settings.filter.projects
    guard !wanted.isEmpty, state.heldProjects.isDisjoint(with: wanted) else { return nil }
    return (wanted.count == 1 ? "project " : "projects ") + wanted.joined(separator: ", ")
  }()
}

/// One frame's view of the board, the one every renderer reads: the pixel board, the text
/// board and `inspect` show the same content, the same sources' states and the same banner.
/// What reads the clock — the sources' states, the banner — is made for the frame's `now`; the
/// content is the kept one (`BoardContent`).
public struct BoardView {
  public let content: BoardContent
  /// The board's time of this frame (`--at`, or the clock): the content's may be earlier in
  /// the same span (`ProjectionMemo`).
  public let at: Instant
  /// The real clock, against which each source's staleness is judged.
  public let now: Instant
  /// Every source, as the board stands at `now`.
  public let sources: [SourceStatus]
  /// What the board says across its top, if anything.
  public let banner: BoardBanner?
  /// The board as it stands now: the content's state, with every input since (a source's
  /// keep-alive, a connection change, a rejected line) that changes no projection and so made
  /// no new content (`BoardStore.version`). The sources' rows and the banner are read from it.
  public let state: BoardState

  /// - Parameters:
  ///   - state: the board as it stands now, when inputs that change no projection came after
  ///     the content was made (nil: the content's own).
  ///   - restoredFrom: the board was restored from its journal and no source is live yet: when
  ///     it last heard anything (`BoardStore.restoredFrom`).
  public init(content: BoardContent, state: BoardState? = nil, at: Instant, now: Instant, restoredFrom: Instant? = nil)
  {
    self.content = content
    self.state = state ?? content.state
    self.at = at
    self.now = now
    sources = SourceStatus.compute(state: self.state, now: now, staleAfter: content.settings.staleAfter)
    banner = BoardBanner.of(sources: sources, restoredFrom: restoredFrom, unmatched: { content.unmatchedProjects })
  }

  /// A view made afresh (no kept content).
  public init(
    state: BoardState, at: Instant, now: Instant, zone: Zone, settings: ViewSettings = ViewSettings(),
    sprintZones: SprintZones = SprintZones(), restoredFrom: Instant? = nil
  ) {
    self.init(
      content: BoardContent(state: state, at: at, zone: zone, settings: settings, sprintZones: sprintZones), at: at,
      now: now, restoredFrom: restoredFrom)
  }

  public var zone: Zone { content.zone }
  public var settings: ViewSettings { content.settings }
}

/// What the board says across its top: the one rule, for every renderer.
public enum BoardBanner: Hashable, Sendable {
  /// Restored from its journal, no source live yet: the last known board, from then.
  case restored(from: Instant)
  /// A source is not live (connecting, reconnecting, stale or offline): what is shown is from
  /// `dataFrom` (the oldest such source's last event, else the last it heard), nil when it has
  /// heard nothing yet. `sources` names them, in the board's order.
  case notConnected(dataFrom: Instant?, sources: [String])
  /// Every source is connected and none holds a feature of the projects the filter names.
  case noFeatures(in: String)

  /// Whether `s` leaves the board not connected: any state but live and ended. A source still
  /// connecting is not connected either (the banner says so from the first frame).
  public static func troubled(_ s: SourceStatus.State) -> Bool { s != .live && s != .ended }

  /// The banner for `sources`, in order of precedence; `unmatched` is asked only when the
  /// others do not apply.
  public static func of(
    sources: [SourceStatus], restoredFrom: Instant?, unmatched: () -> String?
  ) -> BoardBanner? {
    if let restoredFrom { return .restored(from: restoredFrom) }
    let troubled = sources.filter { BoardBanner.troubled($0.status) }
    if !troubled.isEmpty {
      return .notConnected(
        dataFrom: troubled.compactMap { $0.lastEventAt ?? $0.lastHeard }.min(), sources: troubled.map(\.name))
    }
    if !sources.isEmpty, let u = unmatched() { return .noFeatures(in: u) }
    return nil
  }
}

public import WallboardCore

/// Keeps the last `BoardContent` and makes it again only when what it reads changed: the
/// board's content (its `BoardStore.version`), the zones, the view's settings, or the moment past
/// `BoardState.nextProjectionChange(after:zone:)` (a recorded time or a new day). An idle board
/// thus costs what its clock and ages cost, whatever its size.
///
/// A value: the run loop owns one; nothing global. The content it hands out between two
/// recomputations is the one made at the first moment of that span, equal to one made at any
/// moment of it (but for a flow's `historyFrom` when a feature has no recorded version: then
/// that first moment rather than the current one, on the same day).
public struct ProjectionMemo {
  /// What the kept content was made from.
  struct Key: Equatable {
    var version: Int
    var zone: Zone
    var settings: ViewSettings
    var sprintZones: SprintZones
  }

  private var key: Key?
  private var kept: BoardContent?
  /// The span of moments the kept content holds for: from when it was made, until the next
  /// moment it can change (nil: on for ever).
  private var from = Instant(millis: 0)
  /// The board's moment at which the kept content can first differ (nil: never, with the board
  /// as it is): a frame made from it holds no longer (`NextChange`).
  public private(set) var until: Instant?
  /// How many times the content was made (for tests and the diagnostics: an idle board's count
  /// stays still).
  public private(set) var computed = 0

  public init() {}

  /// The content of `state` at `at`. `version` must change whenever `state` does
  /// (`BoardStore.version`).
  public mutating func content(
    state: BoardState, version: Int, at: Instant, zone: Zone, settings: ViewSettings,
    sprintZones: SprintZones = SprintZones()
  ) -> BoardContent {
    let k = Key(version: version, zone: zone, settings: settings, sprintZones: sprintZones)
    if let kept, key == k, at >= from, until.map({ at < $0 }) ?? true { return kept }
    let made = BoardContent(state: state, at: at, zone: zone, settings: settings, sprintZones: sprintZones)
    computed += 1
    key = k
    kept = made
    from = at
    until = state.nextProjectionChange(after: at, zone: zone, sprintZones: sprintZones)
    return made
  }
}

public import WallboardCore

/// What a journal keeps, whatever its size: the active sprint, the few before it and the flow's
/// window; and the size past which older inputs are compacted into a snapshot.
public struct Retention: Hashable, Sendable {
  /// The sprints kept before the active one (or the latest, when none is active).
  public var previousSprints: Int
  /// The cumulative flow's window, in days back from the board's time.
  public var flowDays: Int
  /// Past this many bytes on disk, older inputs are compacted.
  public var maxBytes: Int64

  public static let defaultPreviousSprints = 3
  public static let defaultMaxBytes: Int64 = 50 * 1_048_576

  public init(
    previousSprints: Int = Retention.defaultPreviousSprints, flowDays: Int = 14,
    maxBytes: Int64 = Retention.defaultMaxBytes
  ) {
    precondition(previousSprints >= 0 && flowDays >= 0 && maxBytes > 0, "retention needs non-negative counts")
    self.previousSprints = previousSprints
    self.flowDays = flowDays
    self.maxBytes = maxBytes
  }

  /// The earliest moment whose inputs compaction must keep: the start of the flow's window, of
  /// the active sprint and of the `previousSprints` created before it, whichever is earliest.
  /// A sprint's start is taken a day early, so that no time zone puts its first day outside.
  public func floor(state: BoardState, at: Instant) -> Instant {
    var floor = at.adding(seconds: -Double(flowDays + 1) * 86_400)
    let order = state.sprintOrder
    guard !order.isEmpty else { return floor }
    // The sprint a snapshot named, else the latest begun by `at`: a day or so either way only
    // keeps a little more.
    let today = at.utcDate
    let begun = order.lastIndex { state.sprints[$0].map { $0.startDate <= today } ?? false }
    let active = state.activeSprintId.flatMap { order.firstIndex(of: $0) } ?? begun ?? order.count - 1
    for id in order[max(0, active - previousSprints)...active] {
      guard let s = state.sprints[id] else { continue }
      let start = Instant(seconds: Int64(s.startDate.daysSinceEpoch - 1) * 86_400)
      floor = min(floor, start, s.startedAt ?? start)
    }
    return floor
  }
}

public import WallboardCore

/// A feature in active work, with when it entered its state and when it began the work
/// (`Aging.compute`). Ages are read against a frame's clock (`ageDays(at:)`), so that the list
/// itself does not change as time passes.
public struct AgingItem: Hashable, Sendable {
  public var key: FeatureKey
  public var title: String
  public var assignee: String?
  public var status: String
  /// When it entered its current status; nil when the data does not say.
  public var stateSince: Instant?
  /// When its current stretch of active work began; nil when the data does not say.
  public var workSince: Instant?

  public init(
    key: FeatureKey, title: String, assignee: String?, status: String, stateSince: Instant?, workSince: Instant?
  ) {
    self.key = key
    self.title = title
    self.assignee = assignee
    self.status = status
    self.stateSince = stateSince
    self.workSince = workSince
  }
}

/// The team's cycle time: from entering active work to done, over features done within the
/// window before the board's day.
public struct CycleTime: Hashable, Sendable {
  public var p50Days: Double?
  public var p85Days: Double?
  /// How many features were measured.
  public var samples: Int
  public var windowDays: Int

  public init(p50Days: Double?, p85Days: Double?, samples: Int, windowDays: Int) {
    self.p50Days = p50Days
    self.p85Days = p85Days
    self.samples = samples
    self.windowDays = windowDays
  }

  /// The window cycle times are taken over, in days.
  public static let defaultWindowDays = 90
}

/// How old the work in progress is.
public enum Aging {
  /// Every feature in an active-work state of its workflow, oldest first.
  public static func compute(state: BoardState) -> [AgingItem] {
    []  // TODO(issue 26): computed in the projections part
  }

  /// The cycle time of the features done in the `windowDays` before `at`.
  public static func cycleTime(
    state: BoardState, at: Instant, zone: Zone, windowDays: Int = CycleTime.defaultWindowDays
  ) -> CycleTime {
    CycleTime(p50Days: nil, p85Days: nil, samples: 0, windowDays: windowDays)  // TODO(issue 26)
  }
}

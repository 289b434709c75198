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
  /// Every unfinished feature waiting on a feature that is not done, oldest wait first.
  public static func compute(state: BoardState) -> [BlockedItem] {
    []  // TODO(issue 26): computed in the projections part
  }

  /// Every feature in rework (`needs-edits`), longest there first.
  public static func rework(state: BoardState) -> [ReworkItem] {
    []  // TODO(issue 26): computed in the projections part
  }
}

public import WallboardCore

/// An agent session's hold on a feature, as the board shows it.
public struct AgentRow: Hashable, Sendable {
  public var lock: AgentLock
  /// The feature's title, nil when the board does not hold the feature.
  public var title: String?
  /// The feature's status, nil when the board does not hold the feature.
  public var status: String?

  public init(lock: AgentLock, title: String?, status: String?) {
    self.lock = lock
    self.title = title
    self.status = status
  }
}

/// Which agent sessions hold which features.
public enum Agents {
  /// Every lock the sources read, newest first.
  public static func compute(state: BoardState) -> [AgentRow] {
    []  // TODO(issue 26): computed in the agents part
  }
}

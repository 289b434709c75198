public import Clock
public import WallboardCore

/// What making a source may need from the process: where `HOME` is (Orchestra keeps its
/// databases under it), the current folder, the one clock, and the projects the board shows.
public struct SourceContext: Sendable {
  public var locator: WorkspaceLocator
  public var clock: Clock
  /// Only these projects' features (`--project`), for the sources that can leave the others
  /// unread; nil: every project.
  public var projects: Set<String>?
  /// The board's settings, for a source that reads boards built under them (a journal).
  public var settings: BoardSettings?
  /// What the board restored from its journal holds of each origin: a source that can go on
  /// from there (the simulation) does so instead of starting again.
  public var restored: [String: OriginState]
  public init(
    locator: WorkspaceLocator, clock: Clock, projects: Set<String>? = nil,
    settings: BoardSettings? = nil, restored: [String: OriginState] = [:]
  ) {
    self.locator = locator
    self.clock = clock
    self.projects = projects
    self.settings = settings
    self.restored = restored
  }
}

/// Every kind of source this build has: the one list. A new kind is a file with its source and
/// its `SourceKind`, plus one line here.
public enum SourceRegistry {
  /// In the order values are tried (`orchestra://` before `orchestra:`) and listed in messages.
  public static let kinds: [any SourceKind] = [
    SimSource.Kind(),
    JSONLinesSource.Kind(),
    OrchestraSource.Kind(),
    OrchestraWorkspaceSource.Kind(),
    OrchestraDBSource.Kind(),
    OrchestraMarkdownSource.Kind(),
    ReplaySource.Kind(),
  ]

  /// The source for `spec`; an error for one that cannot be made.
  public static func make(_ spec: SourceSpec, context: SourceContext) throws(SourceError) -> any EventSource {
    try spec.configuration.make(context)
  }
}

public import WallboardCore

/// What making a source may need from the process: where `HOME` is (Orchestra keeps its
/// databases under it), the current folder, the one clock, and the projects the board shows.
public struct SourceContext: Sendable {
  public var locator: WorkspaceLocator
  public var clock: @Sendable () -> Instant
  /// Only these projects' features (`--project`), for the sources that can leave the others
  /// unread; nil: every project.
  public var projects: Set<String>?
  public init(
    locator: WorkspaceLocator, clock: @escaping @Sendable () -> Instant, projects: Set<String>? = nil
  ) {
    self.locator = locator
    self.clock = clock
    self.projects = projects
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
    OrchestraDBSource.Kind(),
    ReplayKind(),
  ]

  /// The source for `spec`; an error for one that cannot be made.
  public static func make(_ spec: SourceSpec, context: SourceContext) throws(SourceError) -> any EventSource {
    try spec.configuration.make(context)
  }
}

/// `replay:PATH`: a journal written by Wallboard — parsed, so that a config naming it is read,
/// but not playable before the journal exists (issue 11).
struct ReplayKind: SourceKind {
  struct Spec: SourceConfiguration {
    var path: String
    var name: String { "replay:" + path }
    func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      throw SourceError(source: name, problem: "not available in this build yet (no journal to replay)")
    }
  }
  var usage: String { "replay:PATH" }
  func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
    try value(of: text, after: "replay:", needs: "a path").map { Spec(path: $0) }
  }
}

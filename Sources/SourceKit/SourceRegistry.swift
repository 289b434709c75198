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
  /// The folder of TLS certificates for the sources that dial with mutual TLS (`--certs`); nil:
  /// their default, `~/.orchestra/certs`.
  public var certificates: String?
  /// `--nats-creds` (an NKey seed or a `.creds` file) and `--nats-ca` (the CA that checks the
  /// broker's TLS certificate), for `nats://` sources.
  public var natsCredentials: String?
  public var natsCA: String?
  /// The wall this board is, when it runs as one (`run`): the `nats://` sources report it to
  /// their board's fleet. Nil for `inspect` and `snapshot`, which report nothing.
  public var wall: WallPresence?
  public init(
    locator: WorkspaceLocator, clock: Clock, projects: Set<String>? = nil,
    settings: BoardSettings? = nil, restored: [String: OriginState] = [:], certificates: String? = nil,
    natsCredentials: String? = nil, natsCA: String? = nil, wall: WallPresence? = nil
  ) {
    self.locator = locator
    self.clock = clock
    self.projects = projects
    self.settings = settings
    self.restored = restored
    self.certificates = certificates
    self.natsCredentials = natsCredentials
    self.natsCA = natsCA
    self.wall = wall
  }

  /// Where the certificates are: `--certs`, else `~/.orchestra/certs`.
  public var certificateFolder: String { certificates ?? "\(locator.home)/.orchestra/certs" }
}

/// The kinds of source a build has, in the order values are tried (`orchestra://` before
/// `orchestra:`) and listed in messages: a `--source` value is parsed by the first kind that
/// takes it. `SourceRegistry.standard` (EventSources) is this build's; a new kind is a file with
/// its source and its `SourceKind`, plus one line there.
public struct SourceRegistry: Sendable {
  public let kinds: [any SourceKind]

  public init(_ kinds: [any SourceKind]) { self.kinds = kinds }

  /// Parses a `--source` value: the first kind's that takes it; none, an error listing them all.
  public func parse(_ text: String) throws(SourceSpecError) -> SourceSpec {
    for kind in kinds {
      if let configuration = try kind.parse(text) { return SourceSpec(configuration) }
    }
    throw SourceSpecError(text: text, problem: "unknown kind of source", accepted: accepted)
  }

  /// Every kind's spelling, for the help and for a value none takes.
  public var accepted: String { kinds.map(\.usage).joined(separator: ", ") }

  /// The source for `spec`; an error for one that cannot be made.
  public static func make(_ spec: SourceSpec, context: SourceContext) throws(SourceError) -> any EventSource {
    try spec.configuration.make(context)
  }
}

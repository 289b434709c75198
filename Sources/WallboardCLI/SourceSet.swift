internal import Clock
internal import EventSources
internal import Runtime
internal import SourceKit
internal import WallboardCore

/// The sources of a running board (or of `inspect`/`snapshot` following the live ones): each
/// runs on its own thread and puts its inputs in one inbox.
final class SourceSet {
  /// Every source of the set, started or not yet.
  let all: [any EventSource]
  /// Those started.
  private(set) var sources: [any EventSource] = []
  /// Closed on `stop()`, so that a source waiting for room in it wakes and ends.
  private var inbox: Inbox?

  /// The set of `sources`, none started yet.
  init(_ sources: [any EventSource]) { all = sources }

  /// Makes every source `specs` name (an error names the first that cannot be made), after the
  /// declared sprints' source when there are any: first, so that every feature is recorded
  /// knowing their membership labels. `restored` is what a board restored from a journal holds
  /// of each origin (the simulation goes on from there).
  static func make(
    _ specs: [SourceSpec], declared: [Sprint] = [], projects: [String] = [], settings: BoardSettings? = nil,
    restored: [String: OriginState] = [:], certificates: String? = nil, nats: NATSAccess = NATSAccess(),
    wall: WallPresence? = nil, environment: [String: String], clock: Clock
  ) throws(CLIError) -> [any EventSource] {
    var context = Self.context(
      projects: projects, settings: settings, certificates: certificates, nats: nats, environment: environment,
      clock: clock)
    context.wall = wall
    context.restored = restored
    var out: [any EventSource] = declared.isEmpty ? [] : [DeclaredSprintsSource(sprints: declared, clock: clock)]
    for spec in specs {
      do throws(SourceError) { out.append(try SourceRegistry.make(spec, context: context)) } catch {
        throw .source(error)
      }
    }
    return out
  }

  /// What making a source may need. `--project`: the workspace sources leave other projects'
  /// features unread (the board's filter would keep them aside anyway).
  static func context(
    projects: [String] = [], settings: BoardSettings? = nil, certificates: String? = nil,
    nats: NATSAccess = NATSAccess(), environment: [String: String], clock: Clock
  ) -> SourceContext {
    SourceContext(
      locator: .live(environment: environment), clock: clock, projects: projects.isEmpty ? nil : Set(projects),
      settings: settings, certificates: certificates, natsCredentials: nats.credentials, natsCA: nats.ca)
  }

  /// Refuses, for `snapshot` and `inspect`, a source with nothing at the path it names (a
  /// missing workspace folder, one without `.projects/` or a database): a bad-input error naming
  /// the source and the path, before anything is read or written. `run` follows such a source
  /// anyway: offline, saying why, until the path appears.
  static func checkPaths(_ specs: [SourceSpec], context: SourceContext) throws(CLIError) {
    for spec in specs {
      if let missing = spec.configuration.missing(context) { throw .source(missing) }
    }
  }

  /// The most projects a message lists; more are counted.
  static let listedProjects = 10

  /// Refuses, for `snapshot` and `inspect`, a `--project` that matches no project the sources
  /// hold — those of the features read (on the board or kept off it by the filter) and those
  /// each workspace's store lists — naming the projects there are (the first
  /// `listedProjects`, and how many in all) and the nearest one. Not judged while a source
  /// that cannot list its projects has not answered (a server offline): the board says that.
  static func checkProjects(
    _ wanted: [String], specs: [SourceSpec], state: BoardState, context: SourceContext
  ) throws(CLIError) {
    guard !wanted.isEmpty else { return }
    var held = state.heldProjects
    for spec in specs {
      if let listed = spec.configuration.projects(context) {
        held.formUnion(listed)
      } else if let c = state.origins[spec.name]?.connection, [.connecting, .reconnecting, .offline].contains(c) {
        return
      }
    }
    let all = held.sorted()
    for project in wanted where !held.contains(project) {
      let shown = all.prefix(listedProjects).joined(separator: ", ")
      let there =
        all.isEmpty
        ? "the sources hold none"
        : "the sources hold \(shown)\(all.count > listedProjects ? ", … (\(all.count) in all)" : "")"
      throw .badValue(
        "--project: \"\(project)\" matches no project (\(there))"
          + Suggestion.clause(for: project, among: all))
    }
  }

  /// What the board knows of each source before it has said anything: connecting, so that every
  /// configured source is listed from the first frame (and by `inspect`) with its state — never
  /// absent while its first read runs or is stuck. Declared sprints are no connection.
  static func announce(_ sources: [any EventSource], at: Instant) -> [BoardInput] {
    sources.filter { !($0 is DeclaredSprintsSource) }.map {
      .connection(origin: $0.origin, status: .connecting, at: at, detail: notReadYet)
    }
  }

  /// The detail of a source that has said nothing yet.
  static let notReadYet = "not read yet"

  /// Starts `sources`. With `liveOnly`, the finite ones are left to the caller (read to their end).
  static func start(_ sources: [any EventSource], inbox: Inbox, liveOnly: Bool = false) -> SourceSet {
    let set = SourceSet(sources)
    set.start(inbox: inbox, liveOnly: liveOnly)
    return set
  }

  /// Starts the sources, each putting what it reads in `inbox`. Once.
  func start(inbox: Inbox, liveOnly: Bool = false) {
    precondition(self.inbox == nil, "a source set is started once")
    self.inbox = inbox
    for s in all where !(liveOnly && s.isFinite) {
      s.start { inbox.put($0) }
      sources.append(s)
    }
  }

  /// When each waiting source will try again, by name.
  var reconnectAt: [String: Instant] {
    var out: [String: Instant] = [:]
    for s in sources { if let t = s.nextAttemptAt { out[s.origin] = t } }
    return out
  }

  /// The board's clock: the sources' own (the simulation's) when every source has one, else `real`.
  /// Declared sprints are no source of time: they leave the choice to the others.
  func clock(real: @escaping @Sendable () -> Instant) -> @Sendable () -> Instant {
    let timed = all.filter { !($0 is DeclaredSprintsSource) }
    let own = timed.compactMap(\.ownClock)
    return own.count == timed.count && !own.isEmpty ? own[0] : real
  }

  func stop() {
    inbox?.close()
    sources.forEach { $0.stop() }
  }
}

public import Clock
public import SourceKit
public import WallboardCore
internal import WorkspaceFormats

/// How the markdown source waits for the tree to change: the shared `FileWatcher` (inotify,
/// with a polling fallback) conforms; the seam keeps the source testable without it.
protocol ChangeWaiting: Sendable {
  /// Watches a file or folder (a folder: the entries in it); it may not exist yet.
  func watch(_ path: String)
  /// Waits until something watched changes, at most `timeout` seconds: the changed paths,
  /// empty on timeout or `wake()`.
  func wait(timeout: Double) -> Set<String>
  /// Ends a `wait` now (from any thread).
  func wake()
  /// Whether changes are told by the kernel (inotify), not found by looking.
  var usesInotify: Bool { get }
}

/// `orchestra-md:WORKSPACE`, and `orchestra:WORKSPACE` when the workspace has no database:
/// follows the markdown tree `<ws>/.projects/` that plugin-storage-markdown writes.
///
/// First the whole tree as a `board.snapshot` of this source (its features, upstream's
/// workflow), dated when the tree's data last changed (its newest `updated_at`, file time or
/// trail move) and received at the read; live with a detail naming the tree (and the
/// `export_markdown` variant); offline, saying so, until `.projects/` appears. Then, on every
/// change (debounced), one event per changed feature file — `feature.created` with the whole
/// feature, or `feature.deleted` for a removed file of a feature it showed — timed by the
/// file's `updated_at`, else its mtime (a removal by the look that finds it). A
/// half-written file is read again before it is reported (see `MarkdownFollower`). Live every
/// few seconds while quiet; idle, it only waits (and looks again every `rescanInterval`, or
/// less often on a large tree).
///
/// A feature file that cannot be read is rejected once (naming its path and line), and said on
/// the source's line of the board for as long as it stays so: the live detail starts "1 feature
/// file unreadable: FEAT-X.md:14: …", said again at once when that changes, and back to the
/// tree alone when the file reads again or is removed.
public final class OrchestraMarkdownSource: LiveEventSource, MachineShell, @unchecked Sendable {
  public typealias Machine = PollMachine
  public let origin: String
  public let tree: MarkdownWorkspace
  /// Changes closer together than this are read as one.
  public var debounce = 0.2
  /// The longest a burst of changes is gathered before it is read.
  public var maxGather = 1.0
  /// How often the source says it is live while nothing changes.
  public var aliveInterval = 5.0
  /// How often the tree is looked at even when the waiter reported nothing (a safety net): every
  /// 10 s when it polls anyway, every minute behind inotify; on a large tree less often, so that
  /// these looks cost at most 0.1 % of a core.
  public var rescanInterval: Double
  /// What the last look cost, in seconds.
  private var lookCost = 0.0
  private var safetyInterval: Double { max(rescanInterval, lookCost * 1000) }
  private let projects: Set<String>?
  private let globalDatabase: String?
  private let clock: Clock
  private let waiter: any ChangeWaiting
  /// Guards what another thread touches: the driver, `deliver`, the hint.
  private let lock = Lock()
  private var driver: MachineDriver<PollMachine>?
  private var deliver: (@Sendable (BoardInput) -> Void)?
  /// A look was asked for (`lookNow`) and not made yet.
  private var hinted = false
  /// What the follower holds between looks; on the driver's thread only.
  private var follower: MarkdownFollower?
  private var variant = MarkdownWorkspace.Variant.plugin
  private var lastDown: String?
  /// The live detail last said (it names the files that cannot be read now).
  private var said: String?
  private var aliveAt = Instant(millis: 0)
  private var lookedAt = Instant(millis: 0)
  /// The waiter reported a change since the last look.
  private var changed = true
  /// The agents' locks of the global database (`SessionLocksFollower`), looked at every
  /// `locksInterval` seconds while the tree is followed; on the driver's thread.
  private lazy var locks = SessionLocksFollower(path: globalDatabase, origin: origin, projects: projects)
  /// How often the global database's locks are looked at (a `data_version` when nothing changed).
  public var locksInterval = 1.0

  /// - Parameters:
  ///   - projects: only these projects' features (nil: every project).
  ///   - globalDatabase: `~/.orchestra/db/global.db`, for per-project workflows (nil: not read).
  public convenience init(
    origin: String, workspace: String, projects: Set<String>? = nil, globalDatabase: String? = nil,
    clock: Clock
  ) {
    // The shared watcher (inotify, else polling), with a short debounce: the source gathers a
    // burst of changes itself.
    self.init(
      origin: origin, workspace: workspace, projects: projects, globalDatabase: globalDatabase, clock: clock,
      waiter: FileWatcher(mode: .automatic, pollInterval: 1.0, debounce: 0.05, clock: clock))
  }

  init(
    origin: String, workspace: String, projects: Set<String>?, globalDatabase: String? = nil,
    clock: Clock, waiter: any ChangeWaiting,
    limits: MarkdownWorkspace.Limits = MarkdownWorkspace.Limits()
  ) {
    self.origin = origin
    self.tree = MarkdownWorkspace(workspace: workspace, limits: limits)
    self.globalDatabase = globalDatabase
    self.projects = projects
    self.clock = clock
    self.waiter = waiter
    rescanInterval = waiter.usesInotify ? 60 : 10
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let driver = MachineDriver(
      PollMachine(), clock: clock, name: "wallboard \(origin)")
    lock.withLock {
      self.deliver = deliver
      self.driver = driver
    }
    waiter.watch(tree.root)
    driver.start(self)
  }

  public func stop() { lock.withLock { driver }?.stop() }

  /// A hint that the tree changed (a server pushed a change): look now rather than when the
  /// waiter next reports. From any thread.
  public func lookNow() {
    let driver = lock.withLock { () -> MachineDriver<PollMachine>? in
      hinted = true
      return self.driver
    }
    driver?.post(.changed)
  }

  /// Whether a look was asked for since the last call.
  private func takeHint() -> Bool {
    lock.withLock {
      defer { hinted = false }
      return hinted
    }
  }

  /// The time the follower schedules by (reads again, the safety look, the live ticks): the
  /// monotonic clock, whatever clock the events are stamped with — a wall clock set back an
  /// hour must not silence the source for an hour.
  /// (`PushHint`'s machine and the follower still schedule in `Instant`s: the monotonic time in
  /// milliseconds.)
  private func monotonic() -> Instant { Instant(millis: clock.monotonic().nanoseconds / 1_000_000) }

  private func say(_ input: BoardInput) { lock.withLock { deliver }?(input) }

  // MARK: The shell

  /// One look: the tree read in full when it appears, then what changed in it; said live every
  /// few seconds. Answers when the next look is due: a read again, the live tick or the safety
  /// look, whichever is first.
  public func perform(_ action: PollMachine.Action) -> [PollMachine.Input] {
    let deliver: @Sendable (BoardInput) -> Void = { [weak self] in self?.say($0) }
    let now = monotonic()
    let changed = self.changed || takeHint()
    self.changed = false
    if !tree.exists {
      follower = nil
      let why = WorkspaceLocator.treeMissing(tree.workspace)?.description ?? "\(tree.root): no markdown tree (yet)"
      if lastDown != why {
        deliver(.connection(origin: origin, status: .offline, at: clock.now(), detail: why))
        lastDown = why
      }
      return [.looked(.read(next: 1.0))]
    } else if follower == nil {
      var f = MarkdownFollower()
      variant = bootstrap(&f, deliver)
      said = detail(f, variant)
      deliver(.connection(origin: origin, status: .live, at: clock.now(), detail: said))
      lookCost = Double(monotonic().millis - now.millis) / 1000
      follower = f
      lastDown = nil
      aliveAt = now
      lookedAt = now
    } else if changed || follower!.nextRetry.map({ $0 <= now }) == true
      || now.millis - lookedAt.millis >= Int64(safetyInterval * 1000)
    {
      variant = look(&follower!, variant: variant, deliver)
      lookedAt = now
      lookCost = Double(monotonic().millis - now.millis) / 1000
      // A file that became unreadable, or readable again (or the variant): said at once.
      if detail(follower!, variant) != said { aliveAt = Instant(millis: 0) }
    }
    if follower != nil {
      let noted = locks.note
      for input in locks.look(
        at: clock.now(),
        workspaceProjects: {
          WorkspaceLocation.Store.markdown(self.tree.root).projects.map(Set.init)
        })
      { deliver(input) }
      if locks.note != noted { aliveAt = Instant(millis: 0) }
    }
    if let f = follower, now.millis - aliveAt.millis >= Int64(aliveInterval * 1000) {
      said = detail(f, variant)
      deliver(.connection(origin: origin, status: .live, at: clock.now(), detail: said))
      aliveAt = now
    }
    var until = min(aliveAt.millis + Int64(aliveInterval * 1000), lookedAt.millis + Int64(safetyInterval * 1000))
    if let retry = follower?.nextRetry { until = min(until, retry.millis) }
    if follower != nil, globalDatabase != nil { until = min(until, now.millis + Int64(locksInterval * 1000)) }
    return [.looked(.read(next: max(0.01, Double(until - monotonic().millis) / 1000)))]
  }

  /// Waits until the tree changes (then gathers the burst, at most `maxGather`), or `deadline`.
  public func await(until deadline: Monotonic) -> [PollMachine.Input]? {
    let timeout = max(0, deadline.seconds(since: clock.monotonic()))
    guard !waiter.wait(timeout: timeout).isEmpty else { return [] }
    let end = clock.monotonic().seconds + maxGather
    while clock.monotonic().seconds < end {
      if waiter.wait(timeout: debounce).isEmpty { break }
    }
    changed = true
    return [.changed]
  }

  public func interrupt(stopping: Bool) { waiter.wake() }

  public func finish() {
    follower = nil
    say(.connection(origin: origin, status: .offline, at: clock.now(), detail: "stopped"))
  }

  /// Reads the whole tree and delivers it as this source's snapshot (the caller then says it is
  /// live); returns its variant.
  private func bootstrap(
    _ f: inout MarkdownFollower, _ deliver: @escaping @Sendable (BoardInput) -> Void
  ) -> MarkdownWorkspace.Variant {
    let listing = tree.list(projects: projects)
    leftOut = listing.leftOut
    watchFolders(listing)
    let outputs = f.look(listing, at: monotonic(), read: tree.read)
    let at = clock.now()
    // The workspace's own workflows, when it has them (else upstream's states).
    let (definitions, initialState, workflowProblems) = WorkspaceWorkflows(
      tree: tree.root, globalDatabase: globalDatabase
    ).load()
    for p in workflowProblems { deliver(.rejected(origin: origin, at: at, reason: p)) }
    var features: [Feature] = []
    var history: [FeatureKey: [StatusMove]] = [:]
    var variant = MarkdownWorkspace.Variant.plugin
    /// When the tree's data last changed: its newest `updated_at` (else file time) or trail move.
    var newest: Instant?
    for p in listing.problems { deliver(.rejected(origin: origin, at: at, reason: p.description)) }
    for o in outputs {
      switch o {
      case .upserted(let r):
        features.append(r.feature)
        if r.variant == .exportMarkdown { variant = .exportMarkdown }
        // Each feature's past, from the audit trail at the end of its body.
        let past = AuditTrail.history(
          AuditTrail.parse(r.body, tail: r.bodyTruncated), createdAt: r.feature.createdAt,
          updatedAt: r.feature.updatedAt, status: r.feature.status, initialState: initialState, now: at)
        if let p = past.problem(createdAt: r.feature.createdAt, now: at) {
          deliver(.rejected(origin: origin, at: at, reason: "\(r.path): \(p)"))
        }
        let moves = past.moves
        if !moves.isEmpty { history[r.feature.key] = moves }
        for t in [r.feature.updatedAt ?? r.modified, moves.last?.at].compactMap({ $0 }) {
          newest = max(newest ?? t, t)
        }
      case .rejected(let p): deliver(.rejected(origin: origin, at: at, reason: p.description))
      case .deleted: break
      }
    }
    if variant == .plugin && tree.hasExportedProject(listing) { variant = .exportMarkdown }
    features.sort { $0.key < $1.key }
    // Dated when the data last changed (never after the read; the read for a tree without
    // features), received now.
    deliver(
      .event(
        Event(
          origin: origin, time: newest.map { min($0, at) } ?? at, receivedAt: at,
          body: .boardSnapshot(
            BoardSnapshot(
              features: features, workflows: definitions, history: history)))))
    return variant
  }

  /// The live detail: the tree, and first the feature files that cannot be read now.
  private func detail(_ f: MarkdownFollower, _ variant: MarkdownWorkspace.Variant) -> String {
    OrchestraDBSource.noted(tree.detail(variant, unreadable: Array(f.unreadable.values), leftOut: leftOut), locks.note)
  }

  /// Feature files past the cap at the last listing (the run thread's own).
  private var leftOut = 0

  /// One look: each changed feature file becomes one event; returns the tree's variant now.
  private func look(
    _ f: inout MarkdownFollower, variant: MarkdownWorkspace.Variant,
    _ deliver: @escaping @Sendable (BoardInput) -> Void
  ) -> MarkdownWorkspace.Variant {
    let listing = tree.list(projects: projects)
    leftOut = listing.leftOut
    watchFolders(listing)
    let outputs = f.look(listing, at: monotonic(), read: tree.read)
    let at = clock.now()
    var variant = variant
    for o in outputs {
      switch o {
      case .upserted(let r):
        if r.variant == .exportMarkdown { variant = .exportMarkdown }
        let time = r.feature.updatedAt ?? r.modified
        deliver(.event(Event(origin: origin, time: time, receivedAt: at, body: .featureCreated(r.feature))))
      case .deleted(let id, let project, _):
        // A removed file leaves no time of its own: the look that finds it dates it (while the
        // tree is followed, within about a second of the removal; the safety look within a minute).
        deliver(
          .event(Event(origin: origin, time: at, receivedAt: at, body: .featureDeleted(id: id, project: project))))
      case .rejected(let p):
        deliver(.rejected(origin: origin, at: at, reason: p.description))
      }
    }
    return variant
  }

  private func watchFolders(_ listing: MarkdownWorkspace.Listing) {
    for folder in listing.folders { waiter.watch(folder) }
  }
}

extension FileWatcher: ChangeWaiting {}

extension OrchestraMarkdownSource {
  /// `orchestra-md:WORKSPACE`: the workspace folder (its `.projects/` is read).
  public struct Spec: SourceConfiguration {
    public var workspace: String
    public var name: String { "orchestra-md:" + workspace }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      OrchestraMarkdownSource(
        origin: name, workspace: WorkspaceLocator.absolute(workspace, from: context.locator.currentDirectory),
        projects: context.projects, globalDatabase: context.locator.globalDatabase, clock: context.clock)
    }

    /// No such folder, a file, or no `.projects/` in the folder.
    public func missing(_ context: SourceContext) -> SourceError? {
      let ws = WorkspaceLocator.absolute(workspace, from: context.locator.currentDirectory)
      return WorkspaceLocator.treeMissing(ws).map { SourceError(source: name, problem: $0.description) }
    }

    public func projects(_ context: SourceContext) -> [String]? {
      let ws = WorkspaceLocator.absolute(workspace, from: context.locator.currentDirectory)
      return WorkspaceLocation.Store.markdown(WorkspaceLocator.tree(of: ws)).projects
    }
  }

  struct Kind: SourceKind {
    var usage: String { "orchestra-md:WORKSPACE" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      try value(of: text, after: "orchestra-md:", needs: "a workspace folder").map { Spec(workspace: $0) }
    }
  }
}

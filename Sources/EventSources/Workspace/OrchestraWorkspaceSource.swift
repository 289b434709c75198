public import Clock
internal import Glibc
internal import SQLite
public import SourceKit
internal import Transport
public import WallboardCore
internal import Wire

/// `orchestra:WORKSPACE`: a workspace as Orchestra keeps it, whichever store it has — the
/// storage plugin's SQLite database (found through `~/.orchestra/db/index.json` and the hash
/// rule), else the markdown tree `.projects/` — and, when a newer `orchestra serve` runs for
/// it, that server's push as a hint to read the store at once.
///
/// The store is found again every few seconds: a database that appears later (the server was
/// started), or goes (the markdown tree is then read), is followed; the new store's snapshot
/// replaces the old one's features, since both deliver under this source's one origin. The
/// detail says which store is read, and whether pushes are heard. A database that cannot be
/// opened at all (not a database, unreadable; not one that is only locked) gives way to the
/// markdown tree when the workspace has one, and the detail says why.
public final class OrchestraWorkspaceSource: LiveEventSource, MachineShell, @unchecked Sendable {
  public typealias Machine = WorkspaceMachine
  public let origin: String
  /// The workspace, absolute.
  public let workspace: String
  /// Seconds between looks for the store; set before `start`.
  public var checkInterval = 5.0
  private let locator: WorkspaceLocator
  private let clock: Clock
  /// The source that reads one store (nil for `.missing`).
  private let makeStore: @Sendable (WorkspaceLocation) -> (any EventSource)?
  /// Why the database at a path cannot be opened at all; nil when it can (or is only locked).
  private let probe: @Sendable (String) -> String?
  private let seed: UInt64
  /// Guards what follows (the store's source delivers on its own thread).
  private let lock = Lock()
  private var driver: MachineDriver<WorkspaceMachine>?
  private var deliver: (@Sendable (BoardInput) -> Void)?
  private var stopped = false
  /// What the detail says of the push ("push from 127.0.0.1:50234", or a refusal).
  private var pushFrom: String?
  /// The detail of the store's source while it is live (nil while it is not).
  private var lastLiveDetail: String?
  private var current: (store: WorkspaceLocation.Store, source: any EventSource, generation: Int)?
  /// What the store's live detail ends with: why the database gave way to the markdown tree.
  private var note: String?
  private var generation = 0
  /// The last offline detail said while no store is there (said once).
  private var lastOffline: String?
  /// The push stream and what wakes its reads; on the driver's thread only.
  private let interrupter = Interrupter()
  private var push: OrchestraStream?

  /// The store's detail, and what the push hint says (`PushHintMachine.note`) when it says
  /// anything.
  static func detail(_ store: String, push: String?) -> String {
    guard let push else { return store }
    return store.isEmpty ? push : "\(store) · \(push)"
  }

  public init(
    origin: String, workspace: String, locator: WorkspaceLocator,
    clock: Clock,
    probe: @escaping @Sendable (String) -> String? = { _ in nil },
    seed: UInt64 = UInt64(UInt32.random(in: 0...UInt32.max)),
    makeStore: @escaping @Sendable (WorkspaceLocation) -> (any EventSource)?
  ) {
    self.origin = origin
    self.probe = probe
    self.workspace = WorkspaceLocator.absolute(workspace, from: locator.currentDirectory)
    self.locator = locator
    self.clock = clock
    self.seed = seed
    self.makeStore = makeStore
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let machine = WorkspaceMachine(push: PushHintMachine(seed: seed), checkInterval: checkInterval)
    let driver = MachineDriver(machine, clock: clock, name: "wallboard \(origin)")
    lock.withLock {
      self.deliver = deliver
      self.driver = driver
    }
    driver.start(self)
  }

  public func stop() {
    let (driver, inner) = lock.withLock { () -> (MachineDriver<WorkspaceMachine>?, (any EventSource)?) in
      stopped = true
      return (self.driver, current?.source)
    }
    driver?.stop()
    inner?.stop()
  }

  public func lookNow() { lock.withLock { current?.source }?.lookNow() }

  /// When the store's source tries again after a failed read.
  public var nextAttemptAt: Instant? { lock.withLock { current?.source }?.nextAttemptAt }

  private func say(_ input: BoardInput) { lock.withLock { deliver }?(input) }

  // MARK: The shell

  public func perform(_ action: WorkspaceMachine.Action) -> [WorkspaceMachine.Input] {
    switch action {
    case .locateStore:
      locateStore()
      return []
    case .push(.readInfo): return [.push(.info(readInfo()))]
    case .push(.connect(let host, let port)): return [.push(connectPush(host: host, port: port))]
    case .push(.close):
      closePush()
      return []
    case .push(.readStore):
      lookNow()
      return []
    case .pushNote(let said):
      // When the push is heard, lost or refused, the detail says so at once.
      let live = lock.withLock { () -> String? in
        pushFrom = said
        return lastLiveDetail
      }
      if let live {
        say(.connection(origin: origin, status: .live, at: clock.now(), detail: Self.detail(live, push: said)))
      }
      return []
    }
  }

  public func await(until deadline: Monotonic) -> [WorkspaceMachine.Input]? {
    guard let push else { return nil }
    switch push.await(until: deadline) {
    case .frames(let frames): return frames.map { .push(.received($0)) }
    case .ended(let why):
      closePush()
      return [.push(.ended(why))]
    }
  }

  public func interrupt(stopping: Bool) { interrupter.interrupt(stopping: stopping) }

  public func finish() {
    closePush()
    let inner = lock.withLock { current?.source }
    inner?.stop()
    say(.connection(origin: origin, status: .offline, at: clock.now(), detail: "stopped"))
  }

  // MARK: The store

  /// Finds the store again; follows it when it changed; says once why there is none.
  private func locateStore() {
    let (found, note) = readable(locator.locate(workspace: workspace))
    if found.store != lock.withLock({ current?.store }) { switchStore(to: found, note: note) }
    let offline: String?
    if case .missing = found.store { offline = found.detail } else { offline = nil }
    let changed = lock.withLock { () -> Bool in
      defer { lastOffline = offline }
      return offline != nil && offline != lastOffline
    }
    if changed, let offline {
      say(.connection(origin: origin, status: .offline, at: clock.now(), detail: offline))
    }
  }

  /// `found`, or — when its database cannot be opened at all and the workspace has a markdown
  /// tree — the tree, with why (for the detail). A database followed and live is not asked again.
  private func readable(_ found: WorkspaceLocation) -> (WorkspaceLocation, note: String?) {
    guard case .database(let db) = found.store,
      !lock.withLock({ current?.store == found.store && lastLiveDetail != nil }), let why = probe(db)
    else { return (found, nil) }
    let tree = WorkspaceLocator.tree(of: found.workspace)
    guard locator.directoryExists(tree) else { return (found, nil) }
    let note = "database \(db) cannot be opened: \(why)"
    return (
      WorkspaceLocation(workspace: found.workspace, store: .markdown(tree), detail: "markdown \(tree) (\(note))"), note
    )
  }

  /// Stops the store's source and starts the one for `found` (none for `.missing`); `note` ends
  /// its live detail.
  private func switchStore(to found: WorkspaceLocation, note: String?) {
    let (old, gen) = lock.withLock { () -> ((any EventSource)?, Int) in
      generation += 1
      let old = current?.source
      current = nil
      lastLiveDetail = nil
      self.note = note
      return (old, generation)
    }
    old?.stop()
    guard let source = makeStore(found) else { return }
    let kept = lock.withLock { () -> Bool in
      guard !stopped else { return false }
      current = (found.store, source, gen)
      return true
    }
    guard kept else { return }
    // What a replaced store's source still says (its "stopped") is not this source's news.
    source.start { [weak self] input in
      guard let self else { return }
      let (current, push, note, deliver) = self.lock.withLock {
        () -> (Bool, String?, String?, (@Sendable (BoardInput) -> Void)?) in
        let current = self.generation == gen && !self.stopped
        if current, case .connection(_, let status, _, let detail) = input {
          self.lastLiveDetail = status == .live ? Self.noted(detail ?? "", self.note) : nil
        }
        return (current, self.pushFrom, self.note, self.deliver)
      }
      guard current, let deliver else { return }
      // The detail says when a server's push is heard besides the store.
      if case .connection(let o, .live, let at, let detail) = input {
        deliver(
          .connection(
            origin: o, status: .live, at: at, detail: Self.detail(Self.noted(detail ?? "", note), push: push)))
      } else {
        deliver(input)
      }
    }
  }

  /// A store's detail and, after it, why the database gave way to it.
  static func noted(_ detail: String, _ note: String?) -> String {
    guard let note else { return detail }
    return detail.isEmpty ? note : "\(detail) · \(note)"
  }

  // MARK: The push

  /// The running server's `.info`, when it is this workspace's and its process lives.
  private func readInfo() -> RunInfo? {
    let file = "\(locator.home)/.orchestra/run/\(RunInfo.slug(of: workspace)).info"
    guard let bytes = locator.read(file), let info = RunInfo.parse(bytes),
      WorkspaceLocator.absolute(info.workspace, from: "/") == workspace, kill(info.pid, 0) == 0 || errno == EPERM
    else { return nil }
    return info
  }

  /// Subscribes to `features` on the loopback addresses `host` resolves to (`PushHost`), the
  /// first that answers; any other host is refused without a try.
  private func connectPush(host: String, port: Int) -> PushHintMachine.Input {
    closePush()
    let addresses: [String]
    switch PushHost.resolve(host).flatMap({ PushHost.check(host, resolved: $0) }) {
    case .failure(let refusal): return .refused(refusal)
    case .success(let a): addresses = a
    }
    var failure = "no address"
    for address in addresses {
      let link = OrchestraLink(
        host: address, port: port, dialer: TCPDialer(clock: clock), clock: clock, interrupter: interrupter)
      do throws(OrchestraLink.Failure) {
        push = try link.subscribe(
          topics: ["features"], id: "wallboard-hint-\(clock.now().millis)", connectTimeout: 2)
        return .connected
      } catch {
        failure = error.description
        if interrupter.isStopped { break }
      }
    }
    return .connectFailed(failure)
  }

  private func closePush() {
    push?.close()
    push = nil
  }
}

extension OrchestraWorkspaceSource {
  /// `orchestra:WORKSPACE`: the workspace folder; its store is found as upstream names it.
  public struct Spec: SourceConfiguration {
    public var workspace: String
    public var name: String { "orchestra:" + workspace }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      let origin = name
      let projects = context.projects
      let globalDatabase = context.locator.globalDatabase
      let clock = context.clock
      return OrchestraWorkspaceSource(
        origin: origin, workspace: workspace, locator: context.locator, clock: clock, probe: Self.whyUnopenable
      ) { found in
        switch found.store {
        case .database(let path):
          let tree = WorkspaceLocator.tree(of: found.workspace)
          let workflows = WorkspaceWorkflows(tree: tree, globalDatabase: globalDatabase)
          return OrchestraDBSource(origin: origin, projects: projects, workflows: workflows, clock: clock) {
            WorkspaceLocator.isFile(path) ? (path, found.detail) : (nil, "\(path): no such database any more")
          }
        case .markdown:
          return OrchestraMarkdownSource(
            origin: origin, workspace: found.workspace, projects: projects, globalDatabase: globalDatabase, clock: clock
          )
        case .missing:
          return nil
        }
      }
    }

    /// Why the database at `path` cannot be opened as a workspace's; nil when it can, or when it is
    /// only locked (a writer's transaction: the next try reads it).
    @Sendable static func whyUnopenable(_ path: String) -> String? {
      do throws(SQLiteError) {
        _ = try OrchestraDatabase(path: path, busyTimeout: 0)
        return nil
      } catch {
        return error.isBusy ? nil : error.message
      }
    }

    /// Neither store there: no such folder, a file, or a folder with neither.
    public func missing(_ context: SourceContext) -> SourceError? {
      guard case .missing(let why) = context.locator.locate(workspace: workspace).store else { return nil }
      return SourceError(source: name, problem: why.description)
    }

    public func projects(_ context: SourceContext) -> [String]? {
      context.locator.locate(workspace: workspace).store.projects
    }
  }

  struct Kind: SourceKind {
    var usage: String { "orchestra:WORKSPACE" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      // `orchestra://HOST:PORT` is the TCP protocol's (its kind comes first in the registry).
      guard !text.hasPrefix("orchestra://") else { return nil }
      return try value(of: text, after: "orchestra:", needs: "a workspace folder").map { Spec(workspace: $0) }
    }
  }
}

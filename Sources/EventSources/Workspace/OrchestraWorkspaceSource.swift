public import Clock
internal import Foundation
internal import SQLite
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
public final class OrchestraWorkspaceSource: LiveEventSource, @unchecked Sendable {
  public let origin: String
  /// The workspace, absolute.
  public let workspace: String
  public var checkInterval = 5.0
  private let locator: WorkspaceLocator
  private let clock: Clock
  /// The source that reads one store (nil for `.missing`).
  private let makeStore: @Sendable (WorkspaceLocation) -> (any EventSource)?
  /// Why the database at a path cannot be opened at all; nil when it can (or is only locked).
  private let probe: @Sendable (String) -> String?
  /// Guards what follows; signalled by `stop()`.
  private let lock = NSCondition()
  private var stopped = false
  /// What the detail says of the push ("push from 127.0.0.1:50234", or a refusal).
  private var pushFrom: String?
  /// The detail of the store's source while it is live (nil while it is not).
  private var lastLiveDetail: String?

  /// The store's detail, and what the push hint says (`PushHintMachine.note`) when it says
  /// anything.
  static func detail(_ store: String, push: String?) -> String {
    guard let push else { return store }
    return store.isEmpty ? push : "\(store) · \(push)"
  }
  private var current: (store: WorkspaceLocation.Store, source: any EventSource, generation: Int)?
  /// What the store's live detail ends with: why the database gave way to the markdown tree.
  private var note: String?
  private var generation = 0
  private var pushConnection: TCPConnection?

  public init(
    origin: String, workspace: String, locator: WorkspaceLocator,
    clock: Clock,
    probe: @escaping @Sendable (String) -> String? = { _ in nil },
    makeStore: @escaping @Sendable (WorkspaceLocation) -> (any EventSource)?
  ) {
    self.origin = origin
    self.probe = probe
    self.workspace = WorkspaceLocator.absolute(workspace, from: locator.currentDirectory)
    self.locator = locator
    self.clock = clock
    self.makeStore = makeStore
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let t = Thread { [self] in run(deliver) }
    t.name = "wallboard \(origin)"
    t.start()
  }

  public func stop() {
    let inner = lock.withLock { () -> (any EventSource)? in
      stopped = true
      pushConnection?.shutdown()
      lock.broadcast()
      return current?.source
    }
    inner?.stop()
  }

  public func lookNow() { lock.withLock { current?.source }?.lookNow() }

  /// When the store's source tries again after a failed read.
  public var nextAttemptAt: Instant? { lock.withLock { current?.source }?.nextAttemptAt }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func run(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    var machine = PushHintMachine(seed: UInt64(UInt32.random(in: 0...UInt32.max)))
    var queue: [PushHintMachine.Input] = [.start]
    var framer = LengthPrefixFramer()
    var nextLook = clock.monotonic().seconds
    var lastOffline: String?
    defer {
      closePush()
      let inner = lock.withLock { current?.source }
      inner?.stop()
      deliver(.connection(origin: origin, status: .offline, at: clock.now(), detail: "stopped"))
    }
    while !isStopped {
      // The store, found again every few seconds.
      if clock.monotonic().seconds >= nextLook {
        nextLook = clock.monotonic().seconds + checkInterval
        let (found, note) = readable(locator.locate(workspace: workspace))
        if found.store != lock.withLock({ current?.store }) { switchStore(to: found, note: note, deliver) }
        if case .missing = found.store {
          if lastOffline != found.detail {
            deliver(.connection(origin: origin, status: .offline, at: clock.now(), detail: found.detail))
          }
          lastOffline = found.detail
        } else {
          lastOffline = nil
        }
      }
      // The push: a hint to read now. Between inputs, wait for the push stream, the machine's
      // next moment or the next look at the store, whichever is first — asleep, not polling.
      let input: PushHintMachine.Input
      if !queue.isEmpty {
        input = queue.removeFirst()
      } else {
        var wait = nextLook - clock.monotonic().seconds
        if let wake = machine.nextWake { wait = min(wait, Double(wake.millis - clock.now().millis) / 1000) }
        queue += awaitPush(&framer, timeout: max(0.01, wait))
        input = queue.isEmpty ? .tick : queue.removeFirst()
      }
      for action in machine.on(input, at: clock.now()) {
        switch action {
        case .readInfo: queue.append(.info(readInfo()))
        case .connect(let host, let port):
          framer = LengthPrefixFramer()
          queue.append(connectPush(host: host, port: port))
        case .close: closePush()
        case .readStore: lookNow()
        }
      }
      // When the push is heard, lost or refused, the detail says so at once (once: the same
      // refusal again changes nothing).
      let (changed, live) = lock.withLock { () -> (Bool, String?) in
        defer { pushFrom = machine.note }
        return (pushFrom != machine.note, lastLiveDetail)
      }
      if changed, let live {
        deliver(
          .connection(origin: origin, status: .live, at: clock.now(), detail: Self.detail(live, push: machine.note)))
      }
    }
    _ = machine.on(.stop, at: clock.now())
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
  private func switchStore(
    to found: WorkspaceLocation, note: String?, _ deliver: @escaping @Sendable (BoardInput) -> Void
  ) {
    let (old, gen) = lock.withLock { () -> ((any EventSource)?, Int) in
      generation += 1
      let old = current?.source
      current = nil
      self.note = note
      return (old, generation)
    }
    old?.stop()
    guard let source = makeStore(found) else { return }
    lock.withLock { current = (found.store, source, gen) }
    // What a replaced store's source still says (its "stopped") is not this source's news.
    source.start { [weak self] input in
      guard let self else { return }
      let (current, push, note) = self.lock.withLock { () -> (Bool, String?, String?) in
        let current = self.generation == gen && !self.stopped
        if current, case .connection(_, let status, _, let detail) = input {
          self.lastLiveDetail = status == .live ? Self.noted(detail ?? "", self.note) : nil
        }
        return (current, self.pushFrom, self.note)
      }
      guard current else { return }
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

  /// The running server's `.info`, when it is this workspace's and its process lives.
  private func readInfo() -> RunInfo? {
    let file = "\(locator.home)/.orchestra/run/\(RunInfo.slug(of: workspace)).info"
    guard let bytes = locator.read(file), let info = RunInfo.parse(bytes),
      WorkspaceLocator.absolute(info.workspace, from: "/") == workspace, kill(info.pid, 0) == 0 || errno == EPERM
    else { return nil }
    return info
  }

  /// Connects to the loopback addresses `host` resolves to (`PushHost`), the first that answers;
  /// any other host is refused without a try.
  private func connectPush(host: String, port: Int) -> PushHintMachine.Input {
    let addresses: [String]
    switch PushHost.resolve(host).flatMap({ PushHost.check(host, resolved: $0) }) {
    case .failure(let refusal): return .refused(refusal)
    case .success(let a): addresses = a
    }
    do throws(TCPConnection.Failure) {
      var opened: TCPConnection?
      var failure = TCPConnection.Failure(description: "no address")
      for address in addresses where opened == nil {
        do throws(TCPConnection.Failure) {
          opened = try TCPConnection.connect(host: address, port: port, timeout: 2)
        } catch {
          failure = error
        }
      }
      guard let conn = opened else { throw failure }
      let sub = Subscribe(subscriptionId: "wallboard-hint-\(clock.now().millis)", topic: "features", filters: [:])
      try conn.write(LengthPrefixFramer.frame(PluginRequest(requestId: "hint-sub", request: .subscribe(sub)).encode()))
      let kept = lock.withLock { () -> Bool in
        guard !stopped else { return false }
        pushConnection = conn
        return true
      }
      if !kept { conn.close() }
      return kept ? .connected : .connectFailed("stopped")
    } catch {
      return .connectFailed(error.description)
    }
  }

  private func closePush() {
    let conn = lock.withLock { () -> TCPConnection? in
      defer { pushConnection = nil }
      return pushConnection
    }
    conn?.close()
  }

  /// What the push stream has within `timeout` seconds; without a stream, a sleep that `stop()`
  /// ends.
  private func awaitPush(_ framer: inout LengthPrefixFramer, timeout: Double) -> [PushHintMachine.Input] {
    guard let conn = lock.withLock({ pushConnection }) else {
      lock.lock()
      if !stopped { clock.wait(until: clock.monotonic().adding(seconds: timeout), on: lock) }
      lock.unlock()
      return []
    }
    do {
      switch try conn.read(timeout: timeout) {
      case .timedOut: return []
      case .closed: return [.ended("server closed the connection")]
      case .bytes(let b):
        var out: [PushHintMachine.Input] = []
        for f in try framer.push(b) { out.append(.received(try PluginResponse.decode(f))) }
        return out
      }
    } catch {
      return [.ended("\(error)")]
    }
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

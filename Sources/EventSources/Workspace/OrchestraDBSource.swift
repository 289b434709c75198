public import Clock
internal import SQLite
public import SourceKit
public import WallboardCore

/// `orchestra-db:PATH` (the database file, or a workspace folder) and `orchestra:WORKSPACE` when
/// the workspace has a database: follows the storage plugin's SQLite database, read-only.
///
/// First the whole store as a `board.snapshot` of this source (its features, and upstream's
/// workflow unless a source says otherwise), dated when its data last changed (`newestChange`)
/// and received at the read; then, every `pollInterval`, `PRAGMA data_version`
/// (no table I/O) and, when it moved, the `change_log` rows after the cursor: each changed
/// feature is read again and becomes one event (`feature.created` with the whole row, or
/// `feature.deleted`), timed by its log row. The first snapshot of a database also carries each
/// feature's past, from the audit trail in its body (`AuditTrail.backfill`). A full resync (a
/// new snapshot) when the database has no change log, was replaced (the log's last id went back,
/// or the file is another), or its rows changed without log rows (a cascade, a migration: the
/// fingerprint moved). A missing file is offline until it appears; a locked one is tried again
/// at the next poll. A WAL database whose writer has stopped is read as the file it is
/// (`Database.ReadAccess.snapshot`: nothing made beside it, readable on read-only media) and
/// read again in full when its file changes or its writer comes back.
public final class OrchestraDBSource: LiveEventSource, MachineShell, @unchecked Sendable {
  public typealias Machine = PollMachine
  public let origin: String
  /// Where the database is: a fixed file, or found again (through the locator) on every try.
  public let locate: @Sendable () -> (path: String?, detail: String)
  public var pollInterval = 1.0
  /// How often the fingerprint is compared, to catch changes without change-log rows.
  public var fingerprintInterval = 60.0
  /// How long one query may run (`OrchestraDatabase.statementTimeout`): past it the source is
  /// reconnecting, saying which statement ran out of time, and tries again after a back-off.
  public var statementTimeout = OrchestraDatabase.statementTimeout
  /// The waits between failed reads: a store that fails (a query that never ends, a damaged
  /// file) is tried less and less often, never in a loop.
  public var backoff = Backoff(initial: 1, max: 30, seed: UInt64(UInt32.random(in: 0...UInt32.max)))
  private let projects: Set<String>?
  private let clock: Clock
  /// Guards what another thread reads: the driver, the count of full reads, `deliver`.
  private let lock = Lock()
  private var driver: MachineDriver<PollMachine>?
  private var deliver: (@Sendable (BoardInput) -> Void)?
  /// When the source tries again after a failed read (nil while reads succeed).
  private var retryAt: Instant?
  public var nextAttemptAt: Instant? { lock.withLock { retryAt } }

  /// Where the workspace's own workflows are (its workflow file, the global database).
  private let workflows: WorkspaceWorkflows

  /// What the follower holds between looks; on the driver's thread only.
  private var following: Following?
  /// The agents' locks of the global database (`SessionLocksFollower`); on the driver's thread.
  private lazy var locks = SessionLocksFollower(path: workflows.globalDatabase, origin: origin, projects: projects)
  /// Why the source is down, while it is (said once, not at every look).
  private var lastDown: String?

  /// - Parameters:
  ///   - projects: only these projects' features (nil: every project).
  ///   - workflows: where the workspace's own workflows are (none given: upstream's states).
  public init(
    origin: String, projects: Set<String>? = nil, workflows: WorkspaceWorkflows = WorkspaceWorkflows(),
    clock: Clock,
    locate: @escaping @Sendable () -> (path: String?, detail: String)
  ) {
    self.origin = origin
    self.projects = projects
    self.workflows = workflows
    self.clock = clock
    self.locate = locate
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let driver = MachineDriver(PollMachine(backoff: backoff), clock: clock, name: "wallboard \(origin)")
    lock.withLock {
      self.deliver = deliver
      self.driver = driver
    }
    driver.start(self)
  }

  public func stop() { lock.withLock { driver }?.stop() }

  /// A server pushed a change: read now instead of at the end of the interval.
  public func lookNow() { lock.withLock { driver }?.post(.changed) }

  /// How many times the whole store was read (a bootstrap or a resync), finished or not: what
  /// a test counts to see that one bad row does not make the source read everything again.
  public var fullReads: Int { lock.withLock { fullReadCount } }
  private var fullReadCount = 0

  /// What the follower holds between polls.
  struct Following {
    var db: OrchestraDatabase
    /// The store's own detail (its path, whether it has a change log).
    var base: String
    /// The rows that cannot be read now, by feature: said first in the detail until they read
    /// again or are gone.
    var unreadable: [FeatureKey: OrchestraDatabase.RowProblem] = [:]
    /// Rows past `OrchestraDatabase.maxFeatures` at the last full read, not shown.
    var leftOut = 0
    /// The live detail: the rows that cannot be read now, those left out, then the store.
    var detail: String {
      OrchestraDBSource.noted(OrchestraDBSource.detail(base, unreadable: unreadable, leftOut: leftOut), locksNote)
    }
    /// What the agents' locks add to the detail (`SessionLocksFollower.note`).
    var locksNote: String?
    /// Features this source has delivered and not deleted: only those get a `feature.deleted`.
    var known: Set<FeatureKey>
    var inode: UInt64
    var dataVersion: Int64
    var cursor: Int64?
    var fingerprint: [Value]
    /// When the fingerprint was last taken, and the source last said it is live: monotonic
    /// seconds (a wall-clock step must not silence the source).
    var fingerprintAt: Double
    /// The fingerprint moved with no change-log row: a cascade or a migration — or a feature
    /// written a moment before its log row (two commits). Resynced only when the next poll
    /// still finds no row for it.
    var unexplained = false
    /// When the source last said it is live (every few seconds, so a quiet store is not stale).
    var aliveAt: Double
  }

  // MARK: The shell

  private func say(_ input: BoardInput) { lock.withLock { deliver }?(input) }

  /// One look: the database found, opened and read in full the first time (or when it was
  /// replaced), its changes read after that.
  public func perform(_ action: PollMachine.Action) -> [PollMachine.Input] {
    let deliver: @Sendable (BoardInput) -> Void = { [weak self] in self?.say($0) }
    let began = clock.monotonic().seconds
    /// The store is not read: said once while it stays so.
    func down(_ status: ConnectionStatus, _ why: String) {
      following = nil
      if lastDown != why {
        deliver(.connection(origin: origin, status: status, at: clock.now(), detail: why))
        lastDown = why
      }
    }
    func failed(_ status: ConnectionStatus, _ why: String) -> [PollMachine.Input] {
      down(status, why)
      return [.looked(.failed(next: pollInterval, spent: clock.monotonic().seconds - began))]
    }
    let (path, detail) = locate()
    guard let path else {
      down(.offline, detail)
      // A file not there yet costs nothing to look for.
      return [.looked(.read(next: pollInterval))]
    }
    do throws(SQLiteError) {
      // Replaced, or read as a snapshot (its writer had stopped) that changed since: start again.
      if let f = following, Self.inode(path) != f.inode || f.db.fileChanged() { following = nil }
      if following == nil {
        following = try bootstrap(path, detail: detail, deliver)
        lastDown = nil
      } else {
        try poll(&following!, deliver)
      }
      lookAtLocks(deliver)
      return [.looked(.read(next: pollInterval))]
    } catch {
      if error.isBusy {
        // Locked by the writer for longer than the busy timeout: the next poll tries again.
        return [.looked(.read(next: pollInterval))]
      } else if error.isCannotOpen {
        return failed(.offline, "\(path): cannot open (\(error.message))")
      } else {
        return failed(.reconnecting, error.description)
      }
    }
  }

  /// The agents' locks, read again when the global database changed: delivered when the set
  /// changed, and the detail said again at once when what it says of them changed.
  private func lookAtLocks(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    guard var f = following else { return }
    let now = clock.now()
    for input in locks.look(at: now, workspaceProjects: { Set(f.known.map(\.project)) }) { deliver(input) }
    guard locks.note != f.locksNote else { return }
    f.locksNote = locks.note
    following = f
    deliver(.connection(origin: origin, status: .live, at: now, detail: f.detail))
  }

  /// A detail and, after it, a note (nil: the detail alone).
  static func noted(_ detail: String, _ note: String?) -> String {
    guard let note else { return detail }
    return detail.isEmpty ? note : "\(detail) · \(note)"
  }

  /// Nothing to wait on but time and a hint: the driver waits.
  public func await(until deadline: Monotonic) -> [PollMachine.Input]? { nil }

  public func interrupt(stopping: Bool) {}

  public func turned(_ machine: PollMachine) { lock.withLock { retryAt = machine.retryAt } }

  public func finish() {
    following = nil
    say(.connection(origin: origin, status: .offline, at: clock.now(), detail: "stopped"))
  }

  static func inode(_ path: String) -> UInt64 { FileStamp.of(path)?.inode ?? 0 }

  /// Opens the database and delivers the whole store as this source's snapshot.
  private func bootstrap(
    _ path: String, detail: String, _ deliver: @escaping @Sendable (BoardInput) -> Void
  ) throws(SQLiteError) -> Following {
    let db = try OrchestraDatabase(path: path, statementTimeout: statementTimeout)
    // The version and cursor first: a change committed while the rows are read is read again.
    let version = try db.dataVersion()
    let cursor = try db.lastChange()
    let now = clock.now()
    let (known, unreadable, leftOut) = try snapshot(db, at: now, deliver, backfill: true)
    var shown = detail
    if !db.hasChangeLog { shown += " · no change log: read in full on every change" }
    let f = Following(
      db: db, base: shown, unreadable: unreadable, leftOut: leftOut, known: known, inode: Self.inode(path),
      dataVersion: version,
      cursor: cursor, fingerprint: try db.fingerprint(), fingerprintAt: clock.monotonic().seconds,
      aliveAt: clock.monotonic().seconds)
    deliver(.connection(origin: origin, status: .live, at: now, detail: f.detail))
    return f
  }

  /// "2 feature rows unreadable: web/FEAT-X: labels are not a JSON list … · SQLite /ws/…db": how
  /// many rows cannot be read and the first by project and id, then how many rows past the cap
  /// were left out ("1 feature left out (cap 100,000)"), before the store's detail.
  static func detail(
    _ base: String, unreadable: [FeatureKey: OrchestraDatabase.RowProblem], leftOut: Int = 0
  ) -> String {
    var parts: [String] = []
    if let first = unreadable.min(by: { $0.key < $1.key })?.value {
      let rows = unreadable.count == 1 ? "1 feature row" : "\(unreadable.count) feature rows"
      parts.append("\(rows) unreadable: \(first.name): \(first.problem)")
    }
    if leftOut > 0 { parts.append(leftOutText(leftOut, cap: OrchestraDatabase.maxFeatures)) }
    return (parts + [base]).joined(separator: " · ")
  }

  /// "3 features left out (cap 100,000)".
  public static func leftOutText(_ count: Int, cap: Int) -> String {
    "\(grouped(count)) \(count == 1 ? "feature" : "features") left out (cap \(grouped(cap)))"
  }

  /// `100000` → `100,000`.
  static func grouped(_ n: Int) -> String {
    var digits = Array(String(n))
    var out: [Character] = []
    while digits.count > 3 {
      out.insert(contentsOf: [","] + digits.suffix(3), at: 0)
      digits.removeLast(3)
    }
    return String(digits + out)
  }

  /// Delivers the whole store as this source's snapshot; returns the features it holds and the
  /// rows it could not read. With
  /// `backfill` (the first snapshot of a database), the snapshot carries each feature's past from
  /// its audit trail; a resync of the same database needs none (the board has it already).
  @discardableResult
  private func snapshot(
    _ db: OrchestraDatabase, at now: Instant, _ deliver: @escaping @Sendable (BoardInput) -> Void,
    backfill: Bool = false
  )
    throws(SQLiteError) -> (
      known: Set<FeatureKey>, unreadable: [FeatureKey: OrchestraDatabase.RowProblem], leftOut: Int
    )
  {
    let (definitions, initialState, workflowProblems) = workflows.load()
    for p in workflowProblems { deliver(.rejected(origin: origin, at: now, reason: p)) }
    lock.withLock { fullReadCount += 1 }
    let read = try db.features(projects: projects, history: backfill ? (now, initialState) : nil)
    let (features, problems, history) = (read.features, read.problems, read.history)
    var unreadable: [FeatureKey: OrchestraDatabase.RowProblem] = [:]
    for p in problems {
      // A row read with a value set aside is reported, not unreadable.
      if !p.kept { unreadable[FeatureKey(project: p.project, id: p.id)] = p }
      deliver(.rejected(origin: origin, at: now, reason: "\(db.path): feature \(p.name): \(p.problem)"))
    }
    // Dated when the store's data last changed, received now.
    let changed = try Self.newestChange(db, features: features, history: history, wholeLog: projects == nil)
    deliver(
      .event(
        Event(
          origin: origin, time: changed.map { min($0, now) } ?? now, receivedAt: now,
          body: .boardSnapshot(
            BoardSnapshot(
              features: features, workflows: definitions, history: history)))))
    return (Set(features.map(\.key)), unreadable, read.leftOut)
  }

  /// When the store's data last changed: the newest of its features' `updated_at` (else
  /// `created_at`), their trail moves and — when every project is read (`wholeLog`) — the change
  /// log's last row, which dates a delete too (the log names no project); nil when none says.
  static func newestChange(
    _ db: OrchestraDatabase, features: [Feature], history: [FeatureKey: [StatusMove]], wholeLog: Bool
  ) throws(SQLiteError) -> Instant? {
    var newest = wholeLog ? try db.lastChangeTime() : nil
    for f in features {
      for t in [f.updatedAt ?? f.createdAt, history[f.key]?.last?.at].compactMap({ $0 }) {
        newest = max(newest ?? t, t)
      }
    }
    return newest
  }

  /// One poll: nothing when `data_version` did not move; else the changes after the cursor.
  /// What it read is kept only as far as it got: a locked database (a busy error) leaves the
  /// version and the cursor where the last good read left them, so the next poll reads again —
  /// and says nothing of being live meanwhile, so a store that cannot be read turns stale.
  private func poll(_ f: inout Following, _ deliver: @escaping @Sendable (BoardInput) -> Void) throws(SQLiteError) {
    let now = clock.now()
    let version = try f.db.dataVersion()
    let fingerprintDue = clock.monotonic().seconds - f.fingerprintAt >= fingerprintInterval
    let said = f.detail
    if version != f.dataVersion || fingerprintDue || f.unexplained {
      try read(&f, at: now, deliver)
      f.dataVersion = version
    }
    // A row that became unreadable, or readable again: said at once.
    if clock.monotonic().seconds - f.aliveAt >= 5 || f.detail != said {
      deliver(.connection(origin: origin, status: .live, at: now, detail: f.detail))
      f.aliveAt = clock.monotonic().seconds
    }
  }

  /// The changes after the cursor, or the whole store again when the log cannot say.
  private func read(
    _ f: inout Following, at now: Instant, _ deliver: @escaping @Sendable (BoardInput) -> Void
  ) throws(SQLiteError) {
    guard let cursor = f.cursor, let last = try f.db.lastChange(), last >= cursor else {
      // No change log, or one that went back (another database): read it all again.
      try resync(&f, at: now, deliver)
      return
    }
    while let changes = try f.db.changes(after: f.cursor ?? cursor), !changes.isEmpty {
      // One event per feature of the batch, at its last row's time: the row read now is its
      // latest state, which the earlier rows of the batch no longer describe.
      var last: [String: Int] = [:]
      for (i, c) in changes.enumerated() where c.entityType == "features" { last[c.entityID] = i }
      for (i, c) in changes.enumerated() where last[c.entityID] == i {
        let time = c.at ?? now
        // The log names an id alone; a store whose ids are unique only within a project may
        // hold it in several.
        var present: Set<FeatureKey> = []
        for key in f.unreadable.keys where key.id == c.entityID { f.unreadable[key] = nil }
        for row in try f.db.features(id: c.entityID) {
          switch row {
          case .success(let feature):
            if let projects, let p = feature.projectId, !projects.contains(p) { break }
            present.insert(feature.key)
            f.known.insert(feature.key)
            deliver(.event(Event(origin: origin, time: time, receivedAt: now, body: .featureCreated(feature))))
          case .failure(let p):
            present.insert(FeatureKey(project: p.project, id: p.id))
            f.unreadable[FeatureKey(project: p.project, id: p.id)] = p
            deliver(.rejected(origin: origin, at: now, reason: "\(f.db.path): feature \(p.name): \(p.problem)"))
          }
        }
        // Gone (deleted, or deleted after this row was logged): said once, for what was shown.
        for key in f.known where key.id == c.entityID && !present.contains(key) {
          f.known.remove(key)
          deliver(
            .event(
              Event(
                origin: origin, time: time, receivedAt: now,
                body: .featureDeleted(id: key.id, project: key.projectId))))
        }
      }
      // Batch by batch: an error in the next one reads only what follows.
      f.cursor = changes.last!.id
    }
    // Rows may also change without log rows (a cascade, a migration, a failed log insert).
    let fp = try f.db.fingerprint()
    if f.cursor != cursor {
      f.unexplained = false
    } else if fp != f.fingerprint {
      if f.unexplained {
        try resync(&f, at: now, deliver)
        return
      }
      f.unexplained = true
      return
    }
    f.fingerprint = fp
    f.fingerprintAt = clock.monotonic().seconds
  }

  private func resync(
    _ f: inout Following, at now: Instant, _ deliver: @escaping @Sendable (BoardInput) -> Void
  ) throws(SQLiteError) {
    let cursor = try f.db.lastChange()
    let fp = try f.db.fingerprint()
    (f.known, f.unreadable, f.leftOut) = try snapshot(f.db, at: now, deliver)
    f.cursor = cursor
    f.fingerprint = fp
    f.fingerprintAt = clock.monotonic().seconds
    f.unexplained = false
  }
}

extension OrchestraDBSource {
  /// `orchestra-db:PATH`: the database file, or a workspace folder whose database the locator
  /// finds (again on every try: it may appear later).
  public struct Spec: SourceConfiguration {
    public var path: String
    public var name: String { "orchestra-db:" + path }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      let locator = context.locator
      let path = path
      let workflows = WorkspaceWorkflows(
        tree: OrchestraDBSource.tree(for: path, locator: locator), globalDatabase: locator.globalDatabase)
      return OrchestraDBSource(
        origin: name, projects: context.projects, workflows: workflows, clock: context.clock
      ) { OrchestraDBSource.find(path, locator: locator) }
    }

    /// No database file there, or none for the workspace folder named.
    public func missing(_ context: SourceContext) -> SourceError? {
      let (found, detail) = OrchestraDBSource.find(path, locator: context.locator)
      return found == nil ? SourceError(source: name, problem: detail) : nil
    }

    public func projects(_ context: SourceContext) -> [String]? {
      OrchestraDBSource.find(path, locator: context.locator).path.flatMap {
        WorkspaceLocation.Store.database($0).projects
      }
    }
  }

  /// The database `path` names (a file, or a workspace folder's, found through the locator) and
  /// how it was found; nil and why when there is none (yet).
  static func find(_ path: String, locator: WorkspaceLocator) -> (path: String?, detail: String) {
    if WorkspaceLocator.isDirectory(path) {
      let found = locator.locate(workspace: path)
      if case .database(let db) = found.store { return (db, found.detail) }
      return (nil, "\(found.workspace): no Orchestra database (\(locator.hashedDatabase(for: found.workspace)))")
    }
    let file = WorkspaceLocator.absolute(path, from: locator.currentDirectory)
    return WorkspaceLocator.isFile(file) ? (file, "SQLite \(file)") : (nil, "\(file): no such database yet")
  }

  /// The markdown tree of the workspace `path` names: the folder's own, or, for a database
  /// file, that of the workspace `index.json` maps it to.
  static func tree(for path: String, locator: WorkspaceLocator) -> String? {
    let abs = WorkspaceLocator.absolute(path, from: locator.currentDirectory)
    if WorkspaceLocator.isDirectory(abs) { return WorkspaceLocator.tree(of: abs) }
    return locator.workspace(ofDatabase: abs).map(WorkspaceLocator.tree(of:))
  }

  struct Kind: SourceKind {
    var usage: String { "orchestra-db:PATH" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      try value(of: text, after: "orchestra-db:", needs: "a path").map { Spec(path: $0) }
    }
  }
}

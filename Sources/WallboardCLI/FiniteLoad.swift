public import Clock
internal import EventSources
internal import Journal
internal import Posix
internal import Projections
internal import Runtime
internal import SourceKit
public import WallboardCore

/// Reads every source to the point `snapshot` and `inspect` show: finite sources to their end,
/// the simulated team up to `--at` (or its default present moment).
///
/// With `--journal`, the board starts from what the journal holds and what the sources deliver
/// is recorded in it; with `--at`, or with no source, the journal is only looked at (read only,
/// up to that moment).
public struct FiniteLoad: Sendable {
  public var state: BoardState
  /// The moment to show.
  public var at: Instant
  /// What the store did with the inputs (events set aside after `--at` among them).
  public var tally: BoardStore.Tally
  /// What the reading said on the way, for stderr (a journal's unreadable rows, skipped).
  public var warnings: [String] = []

  /// How far past the real clock the default moment may go (a day: events from a zone ahead).
  public static let futureTolerance = 86_400.0

  /// Builds the board from `options`' sources. `now` is the receive time for events without
  /// a `time` and the moment shown when nothing else decides it.
  ///
  /// - Parameters:
  ///   - environment: for the sources that need it (`HOME`, where Orchestra keeps its databases).
  ///   - clock: the one clock live sources read.
  public static func load(
    _ options: Options, now: Instant, environment: [String: String]? = nil, clock: Clock
  ) throws(CLIError) -> FiniteLoad {
    let env = environment ?? ProcessFacts.environment()
    // A path a source names that is not there is refused before anything is read or written.
    let context = SourceSet.context(
      projects: options.filter.projects, settings: options.boardSettings, certificates: options.certificates,
      nats: options.nats, environment: env, clock: clock)
    try SourceSet.checkPaths(options.effectiveSources, context: context)
    var store = BoardStore(settings: options.boardSettings, asOf: options.at)
    var warnings: [String] = []
    var (writer, present) = try openJournal(options, into: &store, clock: clock) { warnings.append($0) }
    // An error on the way closes the journal with what was read so far.
    defer { writer?.close(final: store.state, at: store.clock ?? now) }
    // `--wait` bounds the whole load: an endless input (a device, a FIFO, a far-off `--at` for
    // the simulation) is cut off and shown as still being read.
    let deadline = TimeLimit(clock: clock, seconds: options.wait)
    let sources = try SourceSet.make(
      options.effectiveSources, declared: options.sprints, projects: options.filter.projects,
      settings: options.boardSettings, restored: store.state.origins, certificates: options.certificates,
      nats: options.nats, environment: env, clock: clock)
    // The board a journal restored agrees with the sources (`JournalPlace.keep`).
    JournalPlace.keep(&store, to: sources, at: present)
    // Every source is listed, connecting until it says otherwise: one whose first read is not
    // done when `--wait` runs out is shown so, never left out.
    for i in SourceSet.announce(sources, at: now) { store.apply(i) }
    if let reached = try readFinite(sources, through: options.at, now: now, deadline: deadline, into: &store) {
      present = max(present ?? reached, reached)
    }
    // Live sources: followed until nothing new for --settle seconds, or --wait at most. When
    // their snapshots were read is the present they show (their data is dated by its changes).
    let read = follow(sources, options: options, deadline: deadline, clock: clock, into: &store)
    // The last event's time, but never more than a day past the real clock: one far-future
    // event does not stretch the present.
    let latest = store.state.lastEventTime.map { min($0, now.adding(seconds: FiniteLoad.futureTolerance)) }
    let at = options.at ?? present ?? read ?? latest ?? now
    // A `--project` that matches nothing the sources hold is a mistake, not an empty board. The
    // journal is closed with what was read (the `defer`), so nothing read is lost.
    try SourceSet.checkProjects(
      options.filter.projects, specs: options.effectiveSources, state: store.state, context: context)
    // The moment shown is kept with the last snapshot: the journal alone shows it again.
    writer?.close(final: store.state, at: max(store.clock ?? at, at))
    writer = nil
    return FiniteLoad(state: store.state, at: at, tally: store.tally, warnings: warnings)
  }

  /// Opens the journal `--journal` names (the default one is `run`'s): looked at only when the
  /// journal alone is shown or as of a moment, else opened for writing and replayed into
  /// `store`. Returns the writer (nil when only looked at) and the moment the journal reached.
  private static func openJournal(
    _ options: Options, into store: inout BoardStore, clock: Clock, warn: (String) -> Void
  ) throws(CLIError) -> (JournalWriter?, Instant?) {
    let journal = options.noJournal ? nil : options.journal
    // A journal only looked at may be the one replayed; one written to may not.
    let writes = !(options.effectiveSources.isEmpty && options.sprints.isEmpty) && options.at == nil
    try JournalPlace.checkReplay(options, journal: writes ? journal : nil)
    guard let path = journal else { return (nil, nil) }
    if !writes {
      // The journal alone, or as of a moment: looked at, never written.
      return (nil, try JournalPlace.look(path, options: options, into: &store, through: options.at, warn: warn).at)
    }
    guard
      let (w, played) = try JournalPlace.open(
        path, options: options, into: &store, named: true, clock: clock, warn: warn)
    else { return (nil, nil) }
    store.recorder = w
    w.start()
    return (w, played.at)
  }

  /// Reads the finite sources through `at`; the latest moment one of them reached, if any.
  private static func readFinite(
    _ sources: [any EventSource], through at: Instant?, now: Instant, deadline: TimeLimit,
    into store: inout BoardStore
  ) throws(CLIError) -> Instant? {
    var present: Instant?
    for source in sources where source.isFinite {
      do throws(SourceError) {
        let rule: BoardStore.AsOf = source.appliesMoment ? .none : .everyEvent
        let reached = try source.read(through: at, receivedAt: now, deadline: deadline) { input in
          store.apply(input, asOfRule: rule)
        }
        if let reached {
          present = max(present ?? reached, reached)
        }
      } catch {
        throw .source(error)
      }
    }
    return present
  }

  /// Follows the live sources until nothing new came for `--settle` seconds (but not while a
  /// source has not said how it stands), or `deadline` at most. Returns when their latest
  /// snapshot was read, if any.
  private static func follow(
    _ sources: [any EventSource], options: Options, deadline: TimeLimit, clock: Clock,
    into store: inout BoardStore
  ) -> Instant? {
    var read: Instant?
    func note(_ input: BoardInput) {
      if case .event(let e) = input, case .boardSnapshot = e.body { read = max(read ?? e.receivedAt, e.receivedAt) }
    }
    guard sources.contains(where: { !$0.isFinite }) else { return nil }
    let inbox = Inbox(clock: clock)
    let live = SourceSet.start(sources, inbox: inbox, liveOnly: true)
    let liveStarted = clock.monotonic()
    while !deadline.passed {
      inbox.wait(timeout: 0.05)
      for input in inbox.take() {
        note(input)
        store.apply(input, asOfRule: .changes)
      }
      // Settled once quiet — but not while a source has not said how it stands (its first
      // read still running): that one is waited for, up to `--wait`.
      let quiet = clock.monotonic().seconds(since: max(inbox.lastNewsAt, liveStarted))
      let unheard = live.sources.contains {
        store.state.origins[$0.origin]?.connectionDetail == SourceSet.notReadYet
          && store.state.origins[$0.origin]?.connection == .connecting
      }
      if quiet >= options.settle && !unheard { break }
    }
    live.stop()
    // Events still in flight count; the sources' own "stopped" does not: the output says
    // each source's status as it was.
    for input in inbox.take() {
      if case .connection = input { continue }
      note(input)
      store.apply(input, asOfRule: .changes)
    }
    return read
  }
}

internal import Clock
internal import DisplayCore
internal import EventSources
internal import Journal
internal import Runtime
internal import SourceKit
internal import Themes
internal import WallboardCore

/// `wallboard run`, wired: the journal, the sources, the display and the scene the options name,
/// put together into a `LiveLoop` that a `RunShell` turns until a stop or a quit.
///
/// With a journal (the default), the board first restores what it last knew — shown as such until
/// a source is live — and records every input; on its way out (a stop signal, `q`) it writes the
/// journal's tail and a last snapshot.
///
/// A stop (`StopRequest.requested`, read once a loop turn) makes it return normally, so every
/// `defer` runs: sources stopped, display closed, journal closed — in that order, so that nothing
/// accepted is lost.
struct LiveRun {
  let options: Options
  let console: Console
  let environment: [String: String]
  /// The one clock (`App`'s).
  let clock: Clock
  /// What stops the loops and asks for a reload (SIGTERM/SIGINT, SIGHUP).
  var stop = StopRequest.never
  /// Opens the display the options name (the tests' in-memory one in tests).
  var openDisplay: (Options, [String: String], Console) throws(CLIError) -> any Display

  func run() throws(CLIError) {
    stop.arm()
    var store = BoardStore(settings: options.boardSettings)
    let (writer, restoredAt) = try openJournal(into: &store)
    defer { if let writer { close(writer, store: store) } }
    // The restored board agrees with the sources that run now: the simulation goes on from the
    // journal's moment, and what other origins (a source no longer named, sprints no longer
    // declared) left goes before any source starts.
    // A wall following a published board reports itself: what its screen shows comes from the loop.
    let watch = ScreenWatch()
    let wall = try WallIdentity.presence(options, screen: watch)
    let made = try SourceSet.make(
      options.effectiveSources, declared: options.sprints, projects: options.filter.projects,
      settings: options.boardSettings, restored: store.state.origins, certificates: options.certificates,
      nats: options.nats, wall: wall, environment: environment, clock: clock)
    JournalPlace.keep(&store, to: made, at: restoredAt)
    // Every source is on the board from the first frame, connecting until it says otherwise.
    for i in SourceSet.announce(made, at: clock.now()) { store.apply(i) }
    let inbox = Inbox(clock: clock)
    let sources = SourceSet(made)
    let boardTime = sources.clock(real: { [clock] in clock.now() })
    var loop: LiveLoop?
    defer {
      sources.stop()
      // What the sources delivered before they stopped is taken (and kept) too, at the board's
      // time now: a simulation's last events are not dated after the moment the journal keeps.
      loop?.take(inbox.take(), at: boardTime())
      if let loop { store = loop.store }
    }
    let display = try openDisplay(options, environment, console)
    defer { display.close() }
    let (drawing, shown) = try renderer(for: display)
    loop = LiveLoop(
      store: store, renderer: drawing, display: display, rotation: options.rotate, settings: LiveSettings(options),
      clock: clock, start: clock.monotonic(), reconnectAt: { sources.reconnectAt },
      journalStatus: { writer?.status }, watch: watch)
    do throws(DisplayError) {
      // The first frame is what the journal kept (or an empty board, every source connecting),
      // drawn before any source reads a byte: a wall that restarts shows what it knew at once,
      // however long its sources' first reads take.
      // Drawn as of the board's own last moment (a simulation's clock is not read before it runs).
      let first = LiveLoop.Moment(wall: clock.now(), monotonic: clock.monotonic(), board: store.clock ?? clock.now())
      guard case .wake = try loop!.turn(inputs: [], events: [], reload: nil, at: first) else { return }
    } catch { throw .displayLost(error) }
    // What the first frame did not need is done now, before any source starts (none reads the
    // screen watch's layout before then): the other themes, the reload watch, the layout digest.
    var reload = try shown.map { s throws(CLIError) in try afterFirstFrame(s, inbox: inbox) }
    watch.drawing(layout: WallIdentity.layoutDigest(options, display: display, environment: environment))
    let shell = RunShell(
      inbox: inbox, clock: clock, stopped: { [stop] in stop.requested() != nil }, boardTime: boardTime,
      reload: { reload?.check() })
    sources.start(inbox: inbox)
    do throws(DisplayError) { try shell.run(&loop!) } catch { throw .displayLost(error) }
  }

  /// The journal the options name (by default, the sources' own), restored into `store` and
  /// recording from now on; nil without one. Also when the restored board was last heard of.
  private func openJournal(into store: inout BoardStore) throws(CLIError) -> (JournalWriter?, Instant?) {
    let journal = JournalPlace.path(options, environment: environment)
    try JournalPlace.checkReplay(options, journal: journal)
    guard let path = journal,
      let (writer, played) = try JournalPlace.open(
        path, options: options, into: &store, named: options.journal != nil, clock: clock, warn: console.error)
    else { return (nil, nil) }
    if played.snapshot != nil || played.inputs > 0 { store.markRestored() }
    store.recorder = writer
    writer.start()
    return (writer, played.at)
  }

  /// Writes the journal's tail and a last snapshot of `store`, and says what it kept.
  private func close(_ writer: JournalWriter, store: BoardStore) {
    writer.close(final: store.state, at: store.clock ?? clock.now())
    let t = store.tally
    let taken = t.applied + t.duplicate + t.ignored + t.rejected
    let s = writer.status
    console.error(
      "wallboard: journal \(writer.path): kept \(s.written) of \(taken) inputs"
        + (s.dropped > 0 ? " (\(s.dropped) dropped while the disk fell behind)" : "")
        + (s.refused > 0 ? " (\(s.refused) refused as too large to read back)" : "")
        + (s.lastError.map { " — last error: \($0)" } ?? ""))
  }

  /// The scene a pixel board started with: where it came from, and where its whole theme
  /// catalog is handed over.
  struct ShownScene {
    let resources: Resources
    let board: (width: Int, height: Int)
    let wholeCatalog: CatalogHandoff
  }

  /// The renderer for `display`: the pixel board with the scene the options name, its catalog
  /// holding the shown theme alone (`afterFirstFrame` brings the rest), or the text board, which
  /// needs no fonts, themes or layout.
  private func renderer(for display: any Display) throws(CLIError) -> (any Renderer, ShownScene?) {
    let traits = display.traits
    guard traits.drawsPixels else { return (TextBoardRenderer(), nil) }
    let resources = try Resources.locate(environment: environment)
    let screen = Screen(width: display.size.width, height: display.size.height, rotation: options.rotate)
    let handoff = CatalogHandoff()
    let scene = try Scene.load(options, resources: resources, board: screen.canvasSize, wholeCatalog: handoff)
    let shown = ShownScene(resources: resources, board: screen.canvasSize, wholeCatalog: handoff)
    return (PixelRenderer(scene: scene, writesText: traits.writesText, clock: clock), shown)
  }

  /// What the pixel board needs after its first frame: the whole theme catalog, read and checked
  /// as at start (a broken theme file ends the run with the same message, the first frame shown)
  /// and handed to the scene for the theme keys; and the reload watch on the scene's files, which
  /// wakes `inbox` when one changed.
  private func afterFirstFrame(_ shown: ShownScene, inbox: Inbox) throws(CLIError) -> ReloadWatch {
    // Watched first: a theme file changed while the catalog is read is reloaded, not missed.
    let watch = ReloadWatch(
      options: options, resources: shown.resources, board: shown.board, clock: clock, hangup: stop.takeHangup,
      wake: { [inbox] in inbox.wake() })
    do {
      shown.wholeCatalog.catalog = try ThemeCatalog.load(directory: shown.resources.themes)
    } catch { throw .badInput(error.description) }
    return watch
  }
}

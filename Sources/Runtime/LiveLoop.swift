public import Clock
public import DisplayCore
internal import EventSources
public import Journal
public import Kiosk
internal import Projections
internal import SourceKit
public import WallboardCore
internal import ZoneFiles

/// `wallboard run`'s loop as a value: what the board knows (`store`), what it shows and when
/// (`scheduler`, the page timer, the night, burn-in protection), stepped one `turn` at a time.
///
/// A turn takes the inputs the sources delivered, the display's events and a reload, all at one
/// `Moment`; it applies them, draws and presents a frame when one is due, and says when to be
/// woken next. It reads no clock and waits for nothing: the shell around it (`RunShell`) takes
/// the inputs from the inbox, reads the clock and sleeps; a test steps it with a `TestClock`.
///
/// Redraws are coalesced (at most the display's frame rate: 30 a second, a `png:` file once a
/// second), once a second for the clock and the ages, and otherwise not at all; only the widgets
/// whose model changed are redrawn, and only their rectangles presented.
public struct LiveLoop {
  /// When a turn happens: the wall's instant (stamps, the night, burn-in), the monotonic one
  /// (frames, pages, waits), and the board's (the simulation's when every source is simulated,
  /// else the wall's): what inputs are applied at and what the board is drawn as of.
  public struct Moment: Sendable {
    public var wall: Instant
    public var monotonic: Monotonic
    public var board: Instant
    public init(wall: Instant, monotonic: Monotonic, board: Instant? = nil) {
      self.wall = wall
      self.monotonic = monotonic
      self.board = board ?? wall
    }
  }

  /// What a turn says the shell should do next.
  public enum Next: Equatable, Sendable {
    /// Wait until this deadline, or until an input, a signal or a changed file comes first.
    case wake(at: Monotonic)
    /// The user asked to quit (the `q` key, the window closed).
    case quit
  }

  /// The config file read again (`ReloadWatch`): a scene and the settings it carries, or why not.
  public enum Reload {
    case reloaded(Scene, settings: LiveSettings, themeChanged: Bool, variantChanged: Bool)
    /// The old scene stays; the failure shows on the board until a reload succeeds.
    case failed(ReloadFailure)
  }

  /// Why a reload was refused: the file and line and what was wrong there, as the edge says it.
  public struct ReloadFailure: Error, Hashable, Sendable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    /// The board's line for it.
    public var line: String { "Reload failed: " + reason }
  }

  public private(set) var store: BoardStore
  public private(set) var renderer: any Renderer
  public private(set) var presenter: Presenter
  public private(set) var settings: LiveSettings
  public private(set) var diagnostics: Diagnostics
  public private(set) var scheduler: FrameScheduler
  public private(set) var timer: PageTimer
  private var night: NightSchedule
  private let shift = PixelShift()
  private var projections = ProjectionMemo()
  /// The sprints' zones, each file read once (the projections read none).
  private var zones = ZoneBook()
  private let clock: Clock
  /// When each waiting source tries again, by origin.
  private let reconnectAt: () -> [String: Instant]
  /// The journal's state, for the diagnostics panel (nil without a journal).
  private let journalStatus: () -> JournalStatus?
  /// Where what the screen shows is told to the wall's fleet report (nil: not a wall).
  private let watch: ScreenWatch?

  /// - Parameters:
  ///   - store: the board as restored, with its recorder (the journal) set.
  ///   - start: the monotonic instant the first page starts showing.
  public init(
    store: BoardStore, renderer: any Renderer, display: any Display, rotation: Int, settings: LiveSettings,
    clock: Clock, start: Monotonic, reconnectAt: @escaping () -> [String: Instant] = { [:] },
    journalStatus: @escaping () -> JournalStatus? = { nil }, watch: ScreenWatch? = nil
  ) {
    self.watch = watch
    self.store = store
    self.renderer = renderer
    self.settings = settings
    self.clock = clock
    self.reconnectAt = reconnectAt
    self.journalStatus = journalStatus
    presenter = Presenter(display: display, rotation: rotation, background: renderer.background)
    let traits = display.traits
    scheduler = FrameScheduler(
      minimumInterval: traits.minimumFrameInterval, pollInterval: traits.eventPollInterval,
      rotated: rotation != 0, movesFrames: traits.movesFrames)
    timer = PageTimer(durations: renderer.pageDurations, now: start.seconds)
    night = NightSchedule(rules: settings.night)
    diagnostics = Diagnostics(enabled: settings.diagnostics, clock: clock)
  }

  /// Takes `inputs` at the board's moment `at` (the last ones, on the way out).
  public mutating func take(_ inputs: [BoardInput], at: Instant) {
    for i in inputs { store.apply(i, at: at) }
  }

  /// One turn: applies `inputs`, `events` and `reload` at `now`, presents a frame when one is
  /// due, and says when to be woken. A display that fails ends the run with its error.
  public mutating func turn(
    inputs: [BoardInput], events: [DisplayEvent], reload: Reload?, at now: Moment
  ) throws(DisplayError) -> Next {
    if !inputs.isEmpty {
      take(inputs, at: now.board)
      scheduler.changed()
    }
    diagnostics.count(inputs)
    diagnostics.journal = journalStatus()
    for event in events {
      if handle(event, at: now) == .quit { return .quit }
      scheduler.changed()
    }
    if timer.tick(now: now.monotonic.seconds) { scheduler.changed() }
    renderer.show(page: timer.page)
    if let reload { take(reload, at: now) }
    try frame(at: now)
    // An input, a signal or a changed file wakes the wait at once (the shell's). Otherwise it
    // lasts until the next frame is due (a change held back by the frame rate, or the clock and
    // the ages once a second), the next page turn, or the next look at a window's events.
    let t = now.monotonic.seconds
    let wake = scheduler.wake(at: t, pageTurn: timer.nextTurn)
    return .wake(at: now.monotonic.adding(seconds: wake - t))
  }

  private mutating func handle(_ event: DisplayEvent, at now: Moment) -> Next? {
    switch event {
    case .quit: return .quit
    case .nextTheme: renderer.apply(.theme(1))
    case .previousTheme: renderer.apply(.theme(-1))
    case .nextVariant: renderer.apply(.nextVariant)
    case .nextPage: timer.turn(1, now: now.monotonic.seconds)
    case .previousPage: timer.turn(-1, now: now.monotonic.seconds)
    case .toggleFullscreen: presenter.display.toggleFullscreen()
    case .toggleDiagnostics:
      diagnostics.enabled.toggle()
      renderer.apply(.invalidate)
    case .resized:
      presenter.resized(background: renderer.background)
      renderer.apply(.invalidate)
      scheduler.invalidate()
    case .redraw:
      // The window lost its pixels: the next frame is drawn and presented whole.
      presenter.lostPicture()
      renderer.apply(.invalidate)
      scheduler.invalidate()
    }
    return nil
  }

  /// A reload: the scene's layout, themes and scale, and the zone, unit, night, burn-in
  /// protection and panel (the panel only when the file changed it: the d key's choice stands
  /// until then). Declared sprints that changed replace their source's sprints, and nothing else.
  private mutating func take(_ reload: Reload, at now: Moment) {
    switch reload {
    case .failed(let failure):
      diagnostics.reloadMessage = failure.line
      renderer.apply(.invalidate)
    case .reloaded(let scene, let fresh, let themeChanged, let variantChanged):
      renderer.apply(.reload(scene, themeChanged: themeChanged, variantChanged: variantChanged))
      timer.durations = renderer.pageDurations
      diagnostics.reloadMessage = nil
      if fresh.diagnostics != settings.diagnostics { diagnostics.enabled = fresh.diagnostics }
      night.rules = fresh.night
      if fresh.sprints != settings.sprints {
        let declared = DeclaredSprintsSource(sprints: fresh.sprints, clock: clock)
        take(declared.inputs(at: now.wall), at: now.board)
      }
      settings = fresh
    }
    scheduler.changed()
  }

  /// The frame `scheduler` plans for `now`, drawn from one view of the board and presented.
  private mutating func frame(at now: Moment) throws(DisplayError) {
    let display = presenter.display
    // What reaches the screen besides the board: moved against burn-in, dimmed or blanked.
    let offset =
      settings.shifts(fillsScreen: display.traits.fillsScreen)
      ? shift.offset(at: now.wall, width: display.size.width, height: display.size.height) : (0, 0)
    let look = FrameScheduler.Look(
      offset: .init(dx: offset.0, dy: offset.1), night: night.state(at: now.wall, zone: settings.zone),
      background: renderer.background)
    guard let plan = scheduler.plan(at: now.monotonic.seconds, look: look) else {
      watch?.saw(night: look.night, frameAt: nil, board: store.state)
      return
    }
    // The morning's output goes on before its first frame (a DRM flip on a CRTC that is off is
    // refused); the night's goes off after its black frame.
    if plan.power == true { _ = display.setPower(true) }
    try renderer.render(
      RenderRequest(view: view(at: now), plan: plan, look: look, reconnectAt: reconnectAt()),
      diagnostics: &diagnostics, on: &presenter)
    if plan.power == false { scheduler.powered(off: display.setPower(false)) }
    watch?.saw(night: look.night, frameAt: now.wall, board: store.state)
  }

  /// One view of the board, whichever renders it: its content made again only when the board
  /// or the day changed (`ProjectionMemo`).
  private mutating func view(at now: Moment) -> BoardView {
    let content = projections.content(
      state: store.state, version: store.version, at: now.board, zone: settings.zone,
      settings: ViewSettings(unit: settings.unit, activeSprint: settings.activeSprint, flowDays: settings.flowDays),
      sprintZones: zones.zones(for: store.state))
    return BoardView(content: content, at: now.board, now: now.wall, restoredFrom: store.restoredFrom)
  }
}

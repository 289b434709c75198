public import Clock
public import DisplayCore
internal import EventSources
public import Journal
public import Kiosk
internal import Projections
internal import SourceKit
public import WallboardCore
internal import Widgets
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
/// second); without a change, a frame is made only when the one on the screen goes stale —
/// when something it shows would read differently because time passed (its clock's minute, an
/// age, a countdown, a source turning stale: `FrameModel.nextChange`, on the board's clock and
/// the wall's, and the content's `ProjectionMemo.until`) or its look changes (the burn-in move,
/// the night). Only the widgets whose model changed are redrawn, and only their rectangles
/// presented.
///
/// On an idle wake — at the latest a second after the last (`FrameScheduler.checkInterval`) —
/// a turn reads its clocks, finds each within the span the frame on the screen holds for and
/// the look unchanged, and asks to sleep again: no view, no frame model, no drawing. A clock
/// stepped either way (a Pi without a real-time clock syncing at boot) or a board clock that
/// runs faster than the wall's (a simulation's) leaves that span and is drawn within that
/// second.
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
  /// The frame on the screen and how long it holds; nil before the first, and while the screen
  /// shows nothing that turns with time (blank for the night).
  private var shown: ShownFrame?
  /// How many views of the board were made: one a frame drawn, none on an idle wake.
  public private(set) var views = 0
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
    presenter = Presenter(display: display, rotation: rotation)
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
    try frame(at: now, reconnectAt: reconnectAt())
    // An input, a signal or a changed file wakes the wait at once (the shell's). Otherwise it
    // lasts until the next frame is due (a change held back by the frame rate, or the frame on
    // the screen going stale), the next page turn, the look's next change, the next look at a
    // window's events, or a second on, for a look at the clocks.
    let t = now.monotonic.seconds
    let wake = scheduler.wake(at: t, pageTurn: timer.nextTurn, lookChange: lookChange(at: now))
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
      presenter.resized()
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

  /// Whether burn-in protection moves the frame on this display.
  private var shifts: Bool { settings.shifts(fillsScreen: presenter.display.traits.fillsScreen) }

  /// The frame `scheduler` plans for `now`, drawn from one view of the board and presented.
  /// `waiting`: when each waiting source tries again.
  private mutating func frame(at now: Moment, reconnectAt waiting: [String: Instant]) throws(DisplayError) {
    let display = presenter.display
    // What reaches the screen besides the board: moved against burn-in, dimmed or blanked.
    let offset = shifts ? shift.offset(at: now.wall, width: display.size.width, height: display.size.height) : (0, 0)
    let look = FrameScheduler.Look(
      offset: .init(dx: offset.0, dy: offset.1), night: night.state(at: now.wall, zone: settings.zone),
      background: renderer.background)
    // The frame on the screen is stale once a clock has left the span it holds for (its next
    // change came, or the clock was stepped); else it goes stale at its next change, which the
    // monotonic clock is told again each turn (a wall stepped within the span moves it).
    if let shown {
      if shown.holds(at: now, reconnectAt: waiting, journalError: diagnostics.journal?.lastError) {
        scheduler.shown(until: shown.deadline(at: now)?.seconds)
      } else {
        scheduler.changed()
      }
    }
    guard let plan = scheduler.plan(at: now.monotonic.seconds, look: look) else {
      watch?.saw(night: look.night, frameAt: nil, board: store.state)
      return
    }
    // The morning's output goes on before its first frame (a DRM flip on a CRTC that is off is
    // refused); the night's goes off after its black frame.
    if plan.power == true { _ = display.setPower(true) }
    let view = view(at: now)
    try renderer.render(
      RenderRequest(view: view, plan: plan, look: look, reconnectAt: waiting), diagnostics: &diagnostics,
      on: &presenter)
    if plan.power == false { scheduler.powered(off: display.setPower(false)) }
    // What this frame shows holds until its texts' next change and the content's; a black
    // frame for the night (or none drawn) shows nothing that turns with time.
    if plan.draw && look.night != .blank {
      var next = FrameModel.nextChange(view: view, reconnectAt: waiting)
      next.board(projections.until)
      let made = ShownFrame(
        made: now, until: next, panelUntil: diagnostics.nextChange(after: now.monotonic), reconnectAt: waiting,
        journalError: diagnostics.journal?.lastError)
      shown = made
      scheduler.shown(until: made.deadline(at: now)?.seconds)
    } else {
      shown = nil
    }
    watch?.saw(night: look.night, frameAt: now.wall, board: store.state)
  }

  /// When the look may next change by itself, in seconds on the monotonic clock: the burn-in
  /// move, the night's next minute; nil when neither can.
  private func lookChange(at now: Moment) -> Double? {
    var next = night.nextChange(after: now.wall, zone: settings.zone)
    if shifts { next = NextChange.earlier(next, shift.nextMove(after: now.wall)) }
    return next.map { now.monotonic.seconds + Double($0.millis - now.wall.millis) / 1000 }
  }

  /// One view of the board, whichever renders it: its content made again only when the board
  /// or the day changed (`ProjectionMemo`).
  mutating func view(at now: Moment) -> BoardView {
    views += 1
    let content = projections.content(
      state: store.state, version: store.version, at: now.board, zone: settings.zone,
      settings: ViewSettings(unit: settings.unit, activeSprint: settings.activeSprint, flowDays: settings.flowDays),
      sprintZones: zones.zones(for: store.state))
    return BoardView(
      content: content, state: store.state, at: now.board, now: now.wall, restoredFrom: store.restoredFrom)
  }
}

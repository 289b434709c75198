internal import Clock
internal import DisplayCore
internal import EventSources
internal import Foundation
internal import Journal
internal import Kiosk
internal import Projections
internal import Raster
internal import WallboardCore
internal import Widgets
internal import ZoneFiles

/// `wallboard run`: follows the sources and redraws when the state changes (coalesced, at most
/// 30 frames a second; a `png:` file at most once a second), once a second for the clock and the ages, and otherwise sleeps. Only the
/// widgets whose model changed are redrawn, and only their rectangles are presented. Pages turn
/// by their durations; the night schedule dims or blanks; burn-in protection moves the frame.
///
/// With a journal (the default), the board first restores what it last knew — shown as such until
/// a source is live — and records every input; on its way out (a stop signal, `q`) it writes the
/// journal's tail and a last snapshot.
///
/// A stop (`StopRequest.requested`, read once a loop turn) makes it return normally, so every
/// `defer` runs: sources stopped, display closed.
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
    let now: @Sendable () -> Instant = { [clock] in clock.now() }
    let inbox = Inbox(clock: clock)
    var store = BoardStore(settings: options.boardSettings)
    var writer: JournalWriter?
    let journal = JournalPlace.path(options, environment: environment)
    try JournalPlace.checkReplay(options, journal: journal)
    var restoredAt: Instant?
    if let path = journal,
      let (w, played) = try JournalPlace.open(
        path, options: options, into: &store, named: options.journal != nil, clock: clock, warn: console.error)
    {
      if played.snapshot != nil || played.inputs > 0 { store.markRestored() }
      restoredAt = played.at
      store.recorder = w
      w.start()
      writer = w
    }
    // Runs last: after the sources stopped and the display closed, nothing accepted is lost.
    defer {
      if let writer {
        writer.close(final: store.state, at: store.clock ?? now())
        let t = store.tally
        let taken = t.applied + t.duplicate + t.ignored + t.rejected
        let s = writer.status
        console.error(
          "wallboard: journal \(writer.path): kept \(s.written) of \(taken) inputs"
            + (s.dropped > 0 ? " (\(s.dropped) dropped while the disk fell behind)" : "")
            + (s.refused > 0 ? " (\(s.refused) refused as too large to read back)" : "")
            + (s.lastError.map { " — last error: \($0)" } ?? ""))
      }
    }
    // The restored board agrees with the sources that run now: the simulation goes on from the
    // journal's moment, and what other origins (a source no longer named, sprints no longer
    // declared) left goes before any source starts.
    let made = try SourceSet.make(
      options.effectiveSources, declared: options.sprints, projects: options.filter.projects,
      settings: options.boardSettings, restored: store.state.origins,
      environment: environment, clock: clock)
    JournalPlace.keep(&store, to: made, at: restoredAt)
    // Every source is on the board from the first frame, connecting until it says otherwise.
    for i in SourceSet.announce(made, at: now()) { store.apply(i) }
    let sources = SourceSet.start(made, inbox: inbox)
    defer {
      sources.stop()
      // What the sources delivered before they stopped is taken (and kept) too, at the board's
      // time now: a simulation's last events are not dated after the moment the journal keeps.
      let last = inbox.take()
      if !last.isEmpty {
        let t = sources.clock(real: now)()
        for i in last { store.apply(i, at: t) }
      }
    }
    var settings = LiveSettings(options)
    // The board's clock: the simulation's when every source is simulated, else the real one.
    let boardTime = sources.clock(real: now)

    let display = try openDisplay(options, environment, console)
    defer { display.close() }
    let traits = display.traits
    // The text board needs no fonts, themes or layout.
    let resources = traits.drawsPixels ? try Resources.locate(environment: environment) : nil
    func screen() -> Screen { Screen(width: display.size.width, height: display.size.height, rotation: options.rotate) }
    var scene = try resources.map { r throws(CLIError) in
      try Scene.load(options, resources: r, board: screen().canvasSize)
    }
    // A terminal writes the text as characters: the renderer keeps what each widget wrote.
    if traits.writesText { scene?.renderer.keepsText = true }
    var board = Canvas(width: 16, height: 16)
    func makeCanvas() -> Canvas {
      let (w, h) = screen().canvasSize
      return Canvas(width: max(16, w), height: max(16, h), background: scene?.theme.bg ?? RGBA(r: 0, g: 0, b: 0))
    }
    if traits.drawsPixels { board = makeCanvas() }
    let pages = scene.map { $0.renderer.layout.pages.map(\.duration) } ?? [0]
    var timer = PageTimer(durations: pages, now: monotonic())
    var night = NightSchedule(rules: settings.night.compactMap { try? NightSchedule.parse(rule: $0) })
    let shift = PixelShift()
    var diagnostics = Diagnostics(enabled: settings.diagnostics, clock: clock)
    var reload = resources.map { r in
      ReloadWatch(
        options: options, resources: r, clock: clock, hangup: stop.takeHangup,
        wake: { [inbox] in inbox.wakeup.signal() })
    }
    var scheduler = FrameScheduler(
      minimumInterval: traits.minimumFrameInterval, pollInterval: traits.eventPollInterval,
      rotated: options.rotate != 0, movesFrames: traits.movesFrames)
    var lastPanel: IRect?
    /// What the screen shows when it is not the board itself (turned, dimmed, or moved on a
    /// display that cannot move frames): kept, so that a frame where little changed redoes only
    /// that.
    var screenFrame: Canvas?
    var projections = ProjectionMemo()
    // The sprints' zones, each file read once (the projections read none).
    var zones = ZoneBook()

    while stop.requested() == nil {
      let inputs = inbox.take()
      if !inputs.isEmpty {
        let t = boardTime()
        for i in inputs { store.apply(i, at: t) }
        scheduler.changed()
      }
      diagnostics.count(inputs)
      diagnostics.journal = writer?.status

      for event in display.events() {
        switch event {
        case .quit: return
        case .nextTheme: scene?.cycleTheme(1)
        case .previousTheme: scene?.cycleTheme(-1)
        case .nextVariant: scene?.cycleVariant()
        case .nextPage: timer.turn(1, now: monotonic())
        case .previousPage: timer.turn(-1, now: monotonic())
        case .toggleFullscreen: display.toggleFullscreen()
        case .toggleDiagnostics:
          diagnostics.enabled.toggle()
          scene?.renderer.invalidate()
        case .resized:
          board = makeCanvas()
          scene?.renderer.invalidate()
          screenFrame = nil
          scheduler.invalidate()
        case .redraw:
          // The window lost its pixels: the next frame is drawn and presented whole.
          scene?.renderer.invalidate()
          screenFrame = nil
          scheduler.invalidate()
        }
        scheduler.changed()
      }
      if timer.tick(now: monotonic()) { scheduler.changed() }
      scene?.renderer.show(page: timer.page)
      if scene != nil, let message = reload?.check(&scene!) {
        timer.durations = scene!.renderer.layout.pages.map(\.duration)
        diagnostics.reloadMessage = message.isEmpty ? nil : message
        scene?.renderer.invalidate()
        // The zone, unit, night, burn-in protection and panel follow the config too (the panel
        // only when the file changed it: the d key's choice stands until then).
        let fresh = LiveSettings(reload!.latest)
        if fresh.diagnostics != settings.diagnostics { diagnostics.enabled = fresh.diagnostics }
        night.rules = fresh.night.compactMap { try? NightSchedule.parse(rule: $0) }
        if fresh.sprints != settings.sprints {
          // The declared source's new snapshot replaces its sprints, and nothing else.
          let declared = DeclaredSprintsSource(sprints: fresh.sprints, clock: clock)
          for input in declared.inputs(at: now()) { store.apply(input, at: boardTime()) }
        }
        settings = fresh
        scheduler.changed()
      }

      let wall = now()
      // What reaches the screen besides the board: moved against burn-in, dimmed or blanked.
      let offset =
        settings.shifts(fillsScreen: traits.fillsScreen)
        ? shift.offset(at: wall, width: display.size.width, height: display.size.height) : (0, 0)
      let look = FrameScheduler.Look(
        offset: .init(dx: offset.0, dy: offset.1), night: night.state(at: wall, zone: settings.zone),
        background: scene?.theme.bg ?? RGBA(r: 0, g: 0, b: 0))
      if let plan = scheduler.plan(at: monotonic(), look: look) {
        // The morning's output goes on before its first frame (a DRM flip on a CRTC that is
        // off is refused); the night's goes off after its black frame.
        if plan.power == true { _ = display.setPower(true) }
        // One view of the board a frame, whichever renders it: its content made again only when
        // the board or the day changed (`ProjectionMemo`).
        let at = boardTime()
        let view = BoardView(
          content: projections.content(
            state: store.state, version: store.version, at: at, zone: settings.zone,
            settings: ViewSettings(
              unit: settings.unit, activeSprint: settings.activeSprint, flowDays: settings.flowDays),
            sprintZones: zones.zones(for: store.state)),
          at: at, now: wall, restoredFrom: store.restoredFrom)
        if !traits.drawsPixels {
          try present(DisplayFrame(canvas: board, dirty: nil) { TextBoard.render(view: view) }, on: display)
        } else if plan.draw, scene != nil {
          let started = clock.monotonic()
          let frame = FrameModel(view: view, reconnectAt: sources.reconnectAt)
          // Taken out while it draws, so that it is the one reference (never copied).
          var drawn = scene!
          scene = nil
          // The panel goes where it covers neither the clock nor the banner. One that moved,
          // changed size or went away leaves nothing behind: the frame is then drawn in full.
          if diagnostics.enabled { diagnostics.sources = view.sources }
          let panelText = diagnostics.visible ? diagnostics.lines : []
          let panel =
            diagnostics.visible
            ? diagnostics.panel(
              for: panelText, width: board.width, height: board.height, scene: drawn, bannerShown: frame.banner != nil)
            : nil
          if panel?.enclosing != lastPanel { drawn.renderer.invalidate() }
          lastPanel = panel?.enclosing
          var dirty = drawn.draw(frame, into: &board)
          let recorded = drawn.renderer.painter.records.count
          if let panel { dirty.append(diagnostics.draw(panelText, in: panel, on: &board, scene: &drawn)) }
          var texts: [DisplayText] = []
          if traits.writesText {
            let panelRecords = Array(drawn.renderer.painter.records[recorded...])
            drawn.renderer.painter.records.removeSubrange(recorded...)
            texts = BoardTexts.texts(
              board: drawn.renderer.texts, panel: panel.map { ($0.enclosing, panelRecords) })
          }
          diagnostics.frameTime = clock.monotonic().seconds(since: started)
          let bg = drawn.theme.bg
          let night = look.night
          switch plan.path {
          case .board(let whole):
            // The board itself, moved by the display where it must be (the framebuffer).
            screenFrame = nil
            if whole || !dirty.isEmpty {
              try present(
                DisplayFrame(canvas: board, dirty: whole ? nil : dirty, offset: offset, background: bg, texts: texts),
                on: display)
              diagnostics.framePresented()
            }
          case .screen(whole: false):
            if var out = screenFrame, out.width == display.size.width, out.height == display.size.height {
              // The same turn, offset and night as the last frame: only what changed is redone.
              screenFrame = nil  // `out` is the one reference: updated in place, not copied
              let rects = screen().update(&out, from: board, dirty: dirty, offset: offset, night: night)
              if !rects.isEmpty {
                try present(
                  DisplayFrame(
                    canvas: out, dirty: rects,
                    texts: BoardTexts.onScreen(texts, rotation: options.rotate, offset: offset, night: night)),
                  on: display)
                diagnostics.framePresented()
              }
              screenFrame = out
              break
            }
            fallthrough
          case .screen:
            let out = screen().frame(for: board, offset: offset, night: night, background: bg)
            try present(
              DisplayFrame(
                canvas: out, dirty: nil,
                texts: BoardTexts.onScreen(texts, rotation: options.rotate, offset: offset, night: night)),
              on: display)
            diagnostics.framePresented()
            screenFrame = out
          case .none:
            break
          }
          scene = drawn
        }
        if plan.power == false { scheduler.powered(off: display.setPower(false)) }
      }
      // An input, a signal or a changed file wakes the wait at once. Otherwise it lasts until
      // the next frame is due (a change held back by the frame rate, or the clock and the ages
      // once a second), the next page turn, or the next look at a window's or terminal's events.
      let t = monotonic()
      inbox.wait(timeout: scheduler.wake(at: t, pageTurn: timer.nextTurn) - t)
    }
  }

  /// Presents `frame`, a failure ending the run with its message.
  private func present(_ frame: DisplayFrame, on display: any Display) throws(CLIError) {
    do { try display.present(frame) } catch { throw .runtime(error.message) }
  }

  /// Seconds on the monotonic clock: what frames, page turns and waits are planned on.
  func monotonic() -> Double { clock.monotonic().seconds }
}

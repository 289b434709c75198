internal import EventSources
internal import Foundation
internal import Journal
internal import Kiosk
internal import Projections
internal import Raster
internal import WallboardCore
internal import Widgets

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
  let now: @Sendable () -> Instant
  /// What stops the loops and asks for a reload (SIGTERM/SIGINT, SIGHUP).
  var stop = StopRequest.never

  func run() throws(CLIError) {
    stop.arm()
    let inbox = Inbox()
    var store = BoardStore(settings: options.boardSettings)
    var writer: JournalWriter?
    let journal = JournalPlace.path(options, environment: environment)
    try JournalPlace.checkReplay(options, journal: journal)
    if let path = journal,
      let (w, played) = try JournalPlace.open(
        path, options: options, into: &store, named: options.journal != nil, warn: console.error)
    {
      if played.snapshot != nil || played.inputs > 0 { store.markRestored() }
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
            + (s.lastError.map { " — last error: \($0)" } ?? ""))
      }
    }
    let sources = SourceSet.start(
      try SourceSet.make(
        options.effectiveSources, declared: options.sprints, projects: options.filter.projects,
        settings: options.boardSettings,
        environment: environment, clock: now),
      inbox: inbox)
    defer {
      sources.stop()
      // What the sources delivered before they stopped is taken (and kept) too.
      let last = inbox.take()
      if !last.isEmpty {
        let t = store.clock ?? now()
        for i in last { store.apply(i, at: t) }
      }
    }
    var settings = LiveSettings(options)
    // The board's clock: the simulation's when every source is simulated, else the real one.
    let boardTime = sources.clock(real: now)

    let display = try Displays.open(options, environment: environment, console: console)
    defer { display.close() }
    if case .text = display.kind {
      try runText(inbox: inbox, store: &store, zone: settings.zone, boardTime: boardTime)
      return
    }
    let resources = try Resources.locate(environment: environment)
    var scene = try Scene.load(options, resources: resources)
    var board = Canvas(width: 16, height: 16)
    func screen() -> Screen { Screen(width: display.size.width, height: display.size.height, rotation: options.rotate) }
    func makeCanvas() -> Canvas {
      let (w, h) = screen().canvasSize
      return Canvas(width: max(16, w), height: max(16, h), background: scene.theme.bg)
    }
    board = makeCanvas()
    var timer = PageTimer(durations: scene.renderer.layout.pages.map(\.duration), now: monotonic())
    var night = NightSchedule(rules: settings.night.compactMap { try? NightSchedule.parse(rule: $0) })
    let shift = PixelShift()
    var diagnostics = Diagnostics(enabled: settings.diagnostics)
    var reload = ReloadWatch(options: options, resources: resources, hangup: stop.takeHangup)
    var stateChanged = true
    var lastFrame = Date.distantPast
    var lastPresented: (dx: Int, dy: Int, night: NightSchedule.State, background: RGBA)?
    var lastPanel: IRect?
    /// What the screen shows when it is not the board itself (turned, dimmed, or moved on a
    /// display that cannot move frames): kept, so that a frame where little changed redoes only
    /// that.
    var screenFrame: Canvas?

    while stop.requested() == nil {
      let inputs = inbox.take()
      if !inputs.isEmpty {
        let t = boardTime()
        for i in inputs { store.apply(i, at: t) }
        stateChanged = true
      }
      diagnostics.count(inputs)
      diagnostics.journal = writer?.status

      for event in display.events() {
        switch event {
        case .quit: return
        case .nextTheme: scene.cycleTheme(1)
        case .previousTheme: scene.cycleTheme(-1)
        case .nextVariant: scene.cycleVariant()
        case .nextPage: timer.turn(1, now: monotonic())
        case .previousPage: timer.turn(-1, now: monotonic())
        case .toggleFullscreen: display.toggleFullscreen()
        case .toggleDiagnostics:
          diagnostics.enabled.toggle()
          scene.renderer.invalidate()
        case .resized:
          board = makeCanvas()
          scene.renderer.invalidate()
          screenFrame = nil
        case .redraw:
          // The window lost its pixels: the next frame is drawn and presented whole.
          scene.renderer.invalidate()
          screenFrame = nil
        }
        stateChanged = true
      }
      if timer.tick(now: monotonic()) { stateChanged = true }
      scene.renderer.show(page: timer.page)
      if let message = reload.check(&scene) {
        timer.durations = scene.renderer.layout.pages.map(\.duration)
        diagnostics.reloadMessage = message.isEmpty ? nil : message
        scene.renderer.invalidate()
        // The zone, unit, night, burn-in protection and panel follow the config too (the panel
        // only when the file changed it: the d key's choice stands until then).
        let fresh = LiveSettings(reload.latest)
        if fresh.diagnostics != settings.diagnostics { diagnostics.enabled = fresh.diagnostics }
        night.rules = fresh.night.compactMap { try? NightSchedule.parse(rule: $0) }
        if fresh.sprints != settings.sprints {
          // The declared source's new snapshot replaces its sprints, and nothing else.
          let declared = DeclaredSprintsSource(sprints: fresh.sprints, clock: now)
          for input in declared.inputs(at: now()) { store.apply(input, at: boardTime()) }
        }
        settings = fresh
        stateChanged = true
      }

      let sinceFrame = Date().timeIntervalSince(lastFrame)
      if (stateChanged && sinceFrame >= display.minimumFrameInterval) || sinceFrame >= 1 {
        let wall = now()
        let started = Date()
        let frame = FrameModel(
          state: store.state, at: boardTime(), now: wall, zone: settings.zone, unit: settings.unit,
          reconnectAt: sources.reconnectAt, activeSprint: settings.activeSprint, flowDays: settings.flowDays,
          restoredFrom: store.restoredFrom)
        // The panel goes where it covers neither the clock nor the banner. One that moved, changed
        // size or went away leaves nothing behind: the frame is then drawn in full.
        let panelText = diagnostics.visible ? diagnostics.lines : []
        let panel =
          diagnostics.visible
          ? diagnostics.panel(
            for: panelText, width: board.width, height: board.height, scene: scene, bannerShown: frame.banner != nil)
          : nil
        if panel?.enclosing != lastPanel { scene.renderer.invalidate() }
        lastPanel = panel?.enclosing
        var dirty = scene.draw(frame, into: &board)
        if let panel { dirty.append(diagnostics.draw(panelText, in: panel, on: &board, scene: &scene)) }
        diagnostics.frameTime = Date().timeIntervalSince(started)

        // What reaches the screen: rotated, moved against burn-in, dimmed or blanked at night.
        let nightState = night.state(at: wall, zone: settings.zone)
        let offset =
          settings.shifts(fillsScreen: display.fillsScreen)
          ? shift.offset(at: wall, width: display.size.width, height: display.size.height) : (0, 0)
        let changedLook =
          lastPresented.map {
            $0.dx != offset.0 || $0.dy != offset.1 || $0.night != nightState || $0.background != scene.theme.bg
          } ?? true
        if !dirty.isEmpty || changedLook {
          if options.rotate == 0 && nightState == .day && (offset == (0, 0) || display.movesFrames) {
            // The board itself, moved by the display where it must be (the framebuffer).
            screenFrame = nil
            try display.show(board, dirty: changedLook ? nil : dirty, offset: offset, background: scene.theme.bg)
          } else if !changedLook, var out = screenFrame, out.width == display.size.width,
            out.height == display.size.height
          {
            // The same turn, offset and night as the last frame: only what changed is redone.
            screenFrame = nil  // `out` is the one reference: updated in place, not copied
            let rects = screen().update(&out, from: board, dirty: dirty, offset: offset, night: nightState)
            if !rects.isEmpty { try display.show(out, dirty: rects) }
            screenFrame = out
          } else {
            let out = screen().frame(for: board, offset: offset, night: nightState, background: scene.theme.bg)
            try display.show(out, dirty: nil)
            screenFrame = out
          }
          if lastPresented?.night != nightState {
            // The framebuffer can switch the screen off at night (FBIOBLANK).
            _ = display.blank(nightState == .blank)
          }
          diagnostics.framePresented()
          lastPresented = (offset.0, offset.1, nightState, scene.theme.bg)
        }
        lastFrame = Date()
        stateChanged = false
      }
      // An input wakes the wait at once. Otherwise it lasts until the next frame is due (a change
      // held back by the frame rate, or the clock and the ages once a second), or the next look
      // at a window's or terminal's events; a stop or a reload is seen within a quarter second.
      let since = Date().timeIntervalSince(lastFrame)
      let nextFrame = (stateChanged ? display.minimumFrameInterval : 1) - since
      inbox.wait(timeout: max(0.005, min(nextFrame, display.eventInterval)))
    }
  }

  func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// The text board, redrawn on change and once a second, until a stop. (SIGHUP does nothing
  /// here: the text board has no layout or theme to reload.)
  func runText(
    inbox: Inbox, store: inout BoardStore, zone: Zone, boardTime: @Sendable () -> Instant
  ) throws(CLIError) {
    var lastDraw = Date.distantPast
    var dirty = true
    while stop.requested() == nil {
      let inputs = inbox.take()
      if !inputs.isEmpty {
        let t = boardTime()
        for i in inputs { store.apply(i, at: t) }
        dirty = true
      }
      if dirty || Date().timeIntervalSince(lastDraw) >= 1 {
        let text = TextBoard.render(
          state: store.state, at: boardTime(), now: now(), zone: zone, unit: options.unit,
          activeSprint: options.activeSprint, flowDays: options.flowDays, restoredFrom: store.restoredFrom)
        console.out("\u{1B}[H\u{1B}[2J" + text)
        lastDraw = Date()
        dirty = false
      }
      inbox.wait(timeout: 1.0 / 30)
    }
  }
}

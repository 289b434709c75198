internal import EventSources
internal import Foundation
internal import Projections
internal import Raster
internal import WallboardCore
internal import Widgets

/// `wallboard run`: follows the sources and redraws when the state changes (coalesced, at most
/// 30 frames a second), once a second for the clock and the ages, and otherwise sleeps. Only the
/// widgets whose model changed are redrawn, and only their rectangles are presented.
struct LiveRun {
  let options: Options
  let console: Console
  let environment: [String: String]
  let now: @Sendable () -> Instant

  func run() throws(CLIError) {
    let inbox = Inbox()
    let sources = try SourceSet.start(options.effectiveSources, inbox: inbox)
    defer { sources.stop() }
    let zone = options.timeZone ?? .current
    let clock = BoardClock(
      sims: sources.sims, allSimulated: sources.sims.count == options.effectiveSources.count, now: now)

    let display = try Displays.open(options, environment: environment, console: console)
    if case .text = display.kind {
      try runText(inbox: inbox, zone: zone, clock: clock)
      return
    }
    let resources = try Resources.locate(environment: environment)
    var scene = try Scene.load(options, resources: resources)
    var state = BoardState(settings: options.boardSettings)
    var size = display.size
    var canvas = Canvas(width: size.width, height: size.height, background: scene.theme.bg)
    var stateChanged = true
    var lastFrame = Date.distantPast
    var pageStarted = Date()

    while true {
      let inputs = inbox.take()
      for i in inputs { Reducer.reduce(into: &state, i) }
      if !inputs.isEmpty { stateChanged = true }

      // Keys and window events.
      for event in display.events() {
        switch event {
        case .quit: return
        case .nextTheme: scene.cycleTheme(1)
        case .previousTheme: scene.cycleTheme(-1)
        case .nextVariant: scene.cycleVariant()
        case .nextPage:
          scene.renderer.show(page: scene.renderer.page + 1)
          pageStarted = Date()
        case .previousPage:
          scene.renderer.show(page: scene.renderer.page - 1)
          pageStarted = Date()
        case .toggleFullscreen: display.toggleFullscreen()
        case .resized(let w, let h):
          size = (w, h)
          canvas = Canvas(width: w, height: h, background: scene.theme.bg)
          scene.renderer.invalidate()
        case .redraw: scene.renderer.invalidate()
        }
        stateChanged = true
      }

      // Pages take turns by their durations.
      let layout = scene.renderer.layout
      if layout.pages.count > 1,
        Date().timeIntervalSince(pageStarted) >= layout.pages[scene.renderer.page].duration
      {
        scene.renderer.show(page: scene.renderer.page + 1)
        pageStarted = Date()
        stateChanged = true
      }

      let sinceFrame = Date().timeIntervalSince(lastFrame)
      if (stateChanged && sinceFrame >= 1.0 / 30) || sinceFrame >= 1 {
        let wall = now()
        let frame = FrameModel(
          state: state, at: clock.boardTime(), now: wall, zone: zone, unit: options.unit,
          reconnectAt: sources.reconnectAt)
        let dirty = scene.draw(frame, into: &canvas)
        if !dirty.isEmpty { try display.show(canvas, dirty: dirty) }
        lastFrame = Date()
        stateChanged = false
      }
      inbox.wait(timeout: stateChanged ? 1.0 / 30 : 0.05)
    }
  }

  /// The text board, redrawn on change and once a second.
  func runText(inbox: Inbox, zone: Zone, clock: BoardClock) throws(CLIError) {
    var state = BoardState(settings: options.boardSettings)
    var lastDraw = Date.distantPast
    var dirty = true
    while true {
      let inputs = inbox.take()
      for i in inputs { Reducer.reduce(into: &state, i) }
      if !inputs.isEmpty { dirty = true }
      if dirty || Date().timeIntervalSince(lastDraw) >= 1 {
        let text = TextBoard.render(state: state, at: clock.boardTime(), now: now(), zone: zone, unit: options.unit)
        console.out("\u{1B}[H\u{1B}[2J" + text)
        lastDraw = Date()
        dirty = false
      }
      inbox.wait(timeout: 1.0 / 30)
    }
  }
}

/// The board's clock: the simulation's when every source is simulated, else the real one.
struct BoardClock {
  let sims: [SimDriver]
  let allSimulated: Bool
  let now: @Sendable () -> Instant

  func boardTime() -> Instant { allSimulated && !sims.isEmpty ? sims[0].simulatedNow() : now() }
}

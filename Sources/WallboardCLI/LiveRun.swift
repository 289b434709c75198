internal import EventSources
internal import Foundation
internal import Projections
internal import WallboardCore

/// `wallboard run`: follows the sources and redraws when the state changes, and once a second
/// for the clock and the ages. Until the pixel displays arrive, it draws the text board.
struct LiveRun {
  let options: Options
  let console: Console
  let now: @Sendable () -> Instant

  func run() throws(CLIError) {
    switch options.display {
    case "auto", "text", "term": break
    default:
      throw .runtime("--display \(options.display) is not available in this build yet (available: text)")
    }
    let inbox = Inbox()
    var sims: [SimDriver] = []
    for spec in options.effectiveSources {
      switch spec {
      case .sim(let seed, let speed, let start):
        let d = SimDriver(team: SimulatedTeam(seed: seed, start: start), origin: spec.name, speed: speed)
        d.start { inbox.put($0) }
        sims.append(d)
      case .jsonl(let path):
        do {
          for i in try JSONLinesReader.readAll(path: path, origin: spec.name, receivedAt: now()) { inbox.put(i) }
        } catch {
          throw .badInput("cannot read events: \(error)")
        }
      case .orchestra, .orchestraDB, .replay:
        throw .runtime("the source \(spec.name) is not available in this build yet (supported: sim, jsonl)")
      }
    }
    var state = BoardState(settings: options.boardSettings)
    let zone = options.timeZone ?? .current
    var lastDraw = Date.distantPast
    var dirty = true
    while true {
      let inputs = inbox.take()
      for i in inputs { Reducer.reduce(into: &state, i) }
      if !inputs.isEmpty { dirty = true }
      if dirty || Date().timeIntervalSince(lastDraw) >= 1 {
        let wall = now()
        let at = sims.count == options.effectiveSources.count ? sims[0].simulatedNow() : wall
        let text = TextBoard.render(state: state, at: at, now: wall, zone: zone, unit: options.unit)
        console.out("\u{1B}[H\u{1B}[2J" + text)
        lastDraw = Date()
        dirty = false
      }
      inbox.wait(timeout: 1.0 / 30)
    }
  }
}

/// A thread-safe queue of inputs from the sources' threads to the run loop.
final class Inbox: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [BoardInput] = []

  func put(_ i: BoardInput) {
    condition.lock()
    items.append(i)
    condition.signal()
    condition.unlock()
  }

  func take() -> [BoardInput] {
    condition.lock()
    defer { condition.unlock() }
    let out = items
    items.removeAll(keepingCapacity: true)
    return out
  }

  /// Waits until an input arrives or `timeout` seconds pass.
  func wait(timeout: Double) {
    condition.lock()
    if items.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
    condition.unlock()
  }
}

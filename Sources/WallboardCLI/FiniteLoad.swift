internal import EventSources
internal import Foundation
internal import Projections
public import WallboardCore

/// Reads every source to the point `snapshot` and `inspect` show: finite sources to their end,
/// the simulated team up to `--at` (or its default present moment).
public struct FiniteLoad: Sendable {
  public var state: BoardState
  /// The moment to show.
  public var at: Instant

  /// How far past the real clock the default moment may go (a day: events from a zone ahead).
  public static let futureTolerance = 86_400.0

  /// Builds the board from `options`' sources. `now` is the receive time for events without
  /// a `time` and the moment shown when nothing else decides it.
  public static func load(_ options: Options, now: Instant) throws(CLIError) -> FiniteLoad {
    var state = BoardState(settings: options.boardSettings)
    var present: Instant?
    for spec in options.effectiveSources {
      let inputs: [BoardInput]
      switch spec {
      case .sim(let seed, _, let start):
        let team = SimulatedTeam(seed: seed, start: start)
        let until = options.at ?? team.defaultNow
        present = max(present ?? until, until)
        inputs = SimSource.inputs(team: team, origin: spec.name, through: until, receivedAt: now)
      case .jsonl(let path) where path == "-":
        continue
      case .jsonl(let path):
        do {
          inputs = try JSONLinesReader.readAll(path: path, origin: spec.name, receivedAt: now)
        } catch {
          throw .badInput("cannot read events: \(error)")
        }
      case .orchestra:
        continue
      case .orchestraDB, .replay:
        throw .runtime("the source \(spec.name) is not available in this build yet (supported: sim, jsonl, orchestra)")
      }
      for input in inputs { Reducer.reduce(into: &state, input) }
    }
    // Live sources: followed until nothing new for --settle seconds, or --wait at most.
    if SourceSet.hasLive(options.effectiveSources) {
      let inbox = Inbox()
      let live = try SourceSet.start(options.effectiveSources, inbox: inbox, liveOnly: true)
      let started = Date()
      while true {
        inbox.wait(timeout: 0.05)
        for input in inbox.take() { Reducer.reduce(into: &state, input) }
        let quiet = Date().timeIntervalSince(max(inbox.lastNewsAt, started))
        if quiet >= options.settle || Date().timeIntervalSince(started) >= options.wait { break }
      }
      live.stop()
      // Events still in flight count; the sources' own "stopped" does not: the output says
      // each source's status as it was.
      for input in inbox.take() {
        if case .connection = input { continue }
        Reducer.reduce(into: &state, input)
      }
    }
    // The last event's time, but never more than a day past the real clock: one far-future
    // event does not stretch the present.
    let latest = state.lastEventTime.map { min($0, now.adding(seconds: FiniteLoad.futureTolerance)) }
    let at = options.at ?? present ?? latest ?? now
    return FiniteLoad(state: state, at: at)
  }
}

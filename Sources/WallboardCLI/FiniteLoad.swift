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
    // `--wait` bounds the whole load: an endless input (a device, a FIFO, a far-off `--at` for
    // the simulation) is cut off and shown as still being read.
    let started = Date()
    let deadline = started.addingTimeInterval(options.wait)
    func apply(_ input: BoardInput) { Reducer.reduce(into: &state, input) }
    for spec in options.effectiveSources {
      switch spec {
      case .sim(let seed, _, let start):
        let team = SimulatedTeam(seed: seed, start: start)
        let until = options.at ?? team.defaultNow
        present = max(present ?? until, until)
        SimSource.stream(team: team, origin: spec.name, through: until, receivedAt: now, deadline: deadline) {
          apply($0)
        }
      case .jsonl(let path) where path == "-":
        continue
      case .jsonl(let path):
        do {
          try JSONLinesReader.read(path: path, origin: spec.name, receivedAt: now, deadline: deadline) { apply($0) }
        } catch {
          throw .badInput("cannot read events: \(error)")
        }
      case .orchestra:
        continue
      case .orchestraDB, .replay:
        throw .runtime("the source \(spec.name) is not available in this build yet (supported: sim, jsonl, orchestra)")
      }
    }
    // Live sources: followed until nothing new for --settle seconds, or --wait at most.
    if SourceSet.hasLive(options.effectiveSources) {
      let inbox = Inbox()
      let live = try SourceSet.start(options.effectiveSources, inbox: inbox, liveOnly: true)
      let liveStarted = Date()
      while Date() < deadline {
        inbox.wait(timeout: 0.05)
        for input in inbox.take() { apply(input) }
        let quiet = Date().timeIntervalSince(max(inbox.lastNewsAt, liveStarted))
        if quiet >= options.settle { break }
      }
      live.stop()
      // Events still in flight count; the sources' own "stopped" does not: the output says
      // each source's status as it was.
      for input in inbox.take() {
        if case .connection = input { continue }
        apply(input)
      }
    }
    // The last event's time, but never more than a day past the real clock: one far-future
    // event does not stretch the present.
    let latest = state.lastEventTime.map { min($0, now.adding(seconds: FiniteLoad.futureTolerance)) }
    let at = options.at ?? present ?? latest ?? now
    return FiniteLoad(state: state, at: at)
  }
}

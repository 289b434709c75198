internal import EventSources
internal import Projections
public import WallboardCore

/// Reads every source to the point `snapshot` and `inspect` show: finite sources to their end,
/// the simulated team up to `--at` (or its default present moment).
public struct FiniteLoad: Sendable {
  public var state: BoardState
  /// The moment to show.
  public var at: Instant

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
        inputs = SimSource.inputs(team: team, origin: spec.name, through: until)
      case .jsonl(let path):
        do {
          inputs = try JSONLinesReader.readAll(path: path, origin: spec.name, receivedAt: now)
        } catch {
          throw .badInput("cannot read events: \(error)")
        }
      case .orchestra, .orchestraDB, .replay:
        throw .runtime("the source \(spec.name) is not available in this build yet (supported: sim, jsonl)")
      }
      for input in inputs { Reducer.reduce(into: &state, input) }
    }
    let at = options.at ?? present ?? state.lastEventTime ?? now
    return FiniteLoad(state: state, at: at)
  }
}

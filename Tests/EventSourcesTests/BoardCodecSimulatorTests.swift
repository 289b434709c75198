import Codec
import EventSources
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// `BoardCodec` over the simulated team's whole stream: every input and the board after every
/// input come back exactly.
@Suite("The board codec over the simulator's stream")
struct BoardCodecSimulatorTests {
  /// Three sprints of the default team (six weeks: planning, work, closes and archiving).
  static let team = SimulatedTeam()
  static var end: Instant { Instant(seconds: Int64(team.start.adding(days: 42).daysSinceEpoch) * 86_400) }

  static func roundTrip(_ input: BoardInput) throws -> BoardInput {
    try BoardCodec.decodeInput(BoardCodec.encode(input))
  }

  @Test(arguments: [nil, Instant(seconds: 1_800_000_000)])
  func everyInputAndEveryBoardRoundTrip(receivedAt: Instant?) throws {
    let inputs = SimSource.inputs(team: Self.team, origin: "sim", through: Self.end, receivedAt: receivedAt)
    #expect(inputs.count > 500)
    var state = BoardState()
    var batch: [UInt8] = []
    var bodies = Set<String>()
    for (n, input) in inputs.enumerated() {
      let bytes = BoardCodec.encode(input)
      #expect(try BoardCodec.decodeInput(bytes) == input, "input \(n)")
      BoardCodec.encode(input, into: &batch)
      if case .event(let e) = input { bodies.insert(String(describing: e.body).prefix { $0 != "(" }.description) }

      Reducer.reduce(into: &state, input)
      let blob = BoardCodec.encode(state)
      let back = try BoardCodec.decodeState(blob)
      #expect(back == state, "board after input \(n)")
      #expect(BoardCodec.encode(back) == blob, "bytes of the board after input \(n)")
    }
    // The batch is the blobs one after another.
    #expect(batch == inputs.flatMap { BoardCodec.encode($0) })
    // The stream exercised the bodies the simulator makes, and a board worth the name.
    #expect(bodies.isSuperset(of: ["featureCreated", "featureUpdated", "sprintCreated", "sprintStarted", "heartbeat"]))
    #expect(state.features.count > 20 && state.sprints.count >= 2 && !state.history.isEmpty)
  }

  @Test func aRestoredBoardRoundTripsAndReplacesTheState() throws {
    let inputs = SimSource.inputs(team: Self.team, origin: "sim", through: Self.end)
    var state = BoardState()
    for input in inputs { Reducer.reduce(into: &state, input) }
    let restored = try Self.roundTrip(.restored(state))
    #expect(restored == .restored(state))

    // Restoring it into a board with other settings gives the saved board, settings included,
    // and it goes on as the original does.
    var fresh = BoardState(settings: BoardSettings(filter: FeatureFilter(labels: ["nothing"])))
    #expect(Reducer.reduce(into: &fresh, restored) == .applied)
    #expect(fresh == state)
    let more = SimSource.inputs(
      team: Self.team, origin: "sim", through: Instant(seconds: Self.end.millis / 1000 + 7 * 86_400)
    )
    .dropFirst(inputs.count)
    #expect(!more.isEmpty)
    for input in more {
      #expect(Reducer.reduce(into: &fresh, input) == Reducer.reduce(into: &state, input))
    }
    #expect(fresh == state)
  }
}

import Journal
import TestSupport
import Testing
import WallboardCore

/// A wall's journal: the inputs it took from a published board, each with its stream position,
/// come back with the position, so that a restart goes on after the last one applied.
@Suite struct RelayedJournalTests {
  let via = "nats://hub:4222/TEAM"
  let stream: Int64 = 1_799_000_000_000_000_000

  func relayed(_ inputs: [BoardInput], from first: UInt64) -> [BoardInput] {
    inputs.enumerated().map { i, input in
      .relayed(via: via, position: RelayPosition(stream: stream, sequence: first + UInt64(i)), input: input)
    }
  }

  @Test func theRowsAndTheSnapshotsKeepThePositionOfTheLastInputApplied() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("wall.db").path
    let team = JournalFixture.inputs(days: 30)
    var published = BoardState(settings: BoardSettings())
    for i in team.prefix(100) { Reducer.reduce(into: &published, i) }
    // A bootstrap (the published board, covering position 100) and what followed it.
    let inputs =
      [
        BoardInput.relayed(
          via: via, position: RelayPosition(stream: stream, sequence: 100), input: .restored(published))
      ]
      + relayed(Array(team.dropFirst(100)), from: 101)
    let live = try JournalFixture.write(inputs, to: path, snapshotEvery: 50)
    let last = UInt64(team.count)
    #expect(live.origins[via]?.relayed == RelayPosition(stream: stream, sequence: last))
    let (restored, _) = try JournalFixture.played(path)
    #expect(restored == live)
    // The rows alone, after the bootstrap's snapshot, lead to the same position: each row holds it.
    let (_, rows) = try JournalFixture.folded(path)
    #expect(rows.count == team.count - 100, "a row per relayed input, the restored board kept as a snapshot")
    #expect(Set(rows.map(\.origin)).isSubset(of: ["sim"]), "a row is filed as what it carries")
  }
}

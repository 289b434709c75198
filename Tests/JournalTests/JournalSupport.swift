import Clock
import EventSources
import Foundation
import Journal
import SourceKit
import TestSupport
import WallboardCore

/// The simulated team's inputs, and boards built from journals, for the journal's tests.
enum JournalFixture {
  static let team = SimulatedTeam(seed: 7)

  /// The team's inputs up to `days` after its start, stamped with their simulated times.
  static func inputs(days: Double) -> [BoardInput] {
    let end = Instant(seconds: Int64(team.start.daysSinceEpoch) * 86_400).adding(seconds: days * 86_400)
    return SimSource.inputs(team: team, origin: "sim", through: end)
  }

  /// Writes `inputs` through a store recording to a journal at `path`; returns the store's board.
  @discardableResult
  static func write(
    _ inputs: [BoardInput], to path: String, retention: Retention = Retention(), snapshotEvery: Int = 500,
    settings: BoardSettings = BoardSettings()
  ) throws -> BoardState {
    let writer = try JournalWriter(path: path, retention: retention, snapshotEvery: snapshotEvery, clock: .system)
    var store = BoardStore(settings: settings, recorder: writer)
    writer.start()
    store.apply(inputs)
    writer.close(final: store.state, at: store.clock ?? Instant(millis: 0))
    return store.state
  }

  /// Thirty days of the team in a journal bounded to 150 kB (the team writes about 500 inputs a
  /// month, so it compacts), keeping three days of flow and no sprint before the active one.
  static func compactedMonth(
    in dir: TempDir
  ) throws -> (path: String, inputs: [BoardInput], live: BoardState, retention: Retention) {
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = inputs(days: 30)
    let retention = Retention(previousSprints: 0, flowDays: 3, maxBytes: 150_000)
    let live = try write(inputs, to: path, retention: retention, snapshotEvery: 400)
    return (path, inputs, live, retention)
  }

  /// The board a journal gives back (`play`), up to `moment`.
  static func played(
    _ path: String, through moment: Instant? = nil, settings: BoardSettings? = BoardSettings()
  ) throws -> (BoardState, JournalFile.Playback) {
    let file = try JournalFile(path: path, mode: .read)
    var store = BoardStore(settings: settings ?? BoardSettings())
    let p = try file.play(through: moment, settings: settings) { input, at in
      store.apply(input, at: at, asOfRule: .none)
    }
    return (store.state, p)
  }

  /// The board every input row gives, from the first, ignoring the snapshots.
  static func folded(_ path: String, settings: BoardSettings = BoardSettings()) throws -> (BoardState, [JournalRow]) {
    let file = try JournalFile(path: path, mode: .read)
    var state = BoardState(settings: settings)
    var rows: [JournalRow] = []
    try file.inputs(after: 0) { row, input in
      Reducer.reduce(into: &state, input)
      rows.append(row)
      return true
    }
    return (state, rows)
  }
}

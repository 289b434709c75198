import Codec
import EventSources
import Foundation
import Journal
import NATS
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// Kill -9, ten times each, of the broker (restarted on its store), of a wall (restarted on its
/// journal) and of the publisher (restarted): nothing lost, nothing doubled. Checked by position
/// (the wall applies every position once, in order; the stream replayed from its start is the
/// publisher's last board) and by content (the boards are equal whole: a doubled input would
/// count twice, a lost one not at all).
@Suite(.serialized) struct RelayCrashTests {
  static let team = "sim:speed=4000"

  func publish(_ hub: NATSHub) throws -> BoardProcess {
    try BoardProcess(["publish", "--source", Self.team, "--to", Relay.url(hub), "--stream-size", "32"])
  }

  /// The stream replayed from its first message: the board every input it holds makes.
  func replayed(_ hub: NATSHub) throws -> BoardState {
    let c = try Relay.connect(hub)
    defer { c.close() }
    let a = Relay.address(hub)
    let last = try #require(try c.streamInfo(a.stream)).lastSequence
    let got = Positions()
    let sub = try c.follow(stream: a.stream, subject: a.subject, from: .all) { got.add($0.sequence, $0.bytes) }
    defer { sub.cancel() }
    #expect(got.wait(through: last), "the stream read back to \(last)")
    let messages = got.all
    #expect(messages.map(\.0) == Array(1...last), "every position once, in order")
    var state = BoardState()
    for (_, bytes) in messages { Reducer.reduce(into: &state, try BoardCodec.decodeInput(bytes)) }
    return state
  }

  /// A wall in process that records every position it applied.
  func checkPositions(_ wall: Relay.Wall) {
    let origin = wall.source.origin
    _ = wall.live.board()
    let seen = wall.live.positions(of: origin)
    var previous: UInt64?
    var broken: [String] = []
    for (p, whole) in seen {
      if let previous, !whole, p != previous + 1 { broken.append("\(previous) → \(p)") }
      previous = p
    }
    #expect(broken.isEmpty, "positions applied out of turn: \(broken.prefix(5))")
  }

  @Test func theBrokerKilledTenTimesLosesAndDoublesNothing() throws {
    let hub = try NATSHub()
    let publisher = try publish(hub)
    let wall = try Relay.Wall(hub)
    for _ in 0..<10 {
      Thread.sleep(forTimeInterval: 0.8)
      hub.kill9()
      Thread.sleep(forTimeInterval: 0.3)
      try hub.restart()
    }
    Thread.sleep(forTimeInterval: 1)
    publisher.stop()
    #expect(publisher.status == 0, "\(publisher.stderr)")
    let (published, last) = try Relay.published(hub)
    #expect(published.sequence == last)
    #expect(try replayed(hub) == published.state)
    #expect(wall.published(at: last, timeout: 30) == published.state)
    checkPositions(wall)
  }

  @Test func thePublisherKilledTenTimesLosesAndDoublesNothing() throws {
    let hub = try NATSHub()
    let wall = try Relay.Wall(hub)
    for _ in 0..<10 {
      let p = try publish(hub)
      Thread.sleep(forTimeInterval: 1.2)
      p.kill9()
    }
    let publisher = try publish(hub)
    Thread.sleep(forTimeInterval: 1.5)
    publisher.stop()
    #expect(publisher.status == 0, "\(publisher.stderr)")
    let (published, last) = try Relay.published(hub)
    #expect(try replayed(hub) == published.state)
    #expect(wall.published(at: last, timeout: 30) == published.state)
    checkPositions(wall)
    // Nothing the team did was lost: the board holds the simulated team as of its last event.
    let through = try #require(published.state.lastEventTime)
    var expected = BoardState()
    for i in SimSource.inputs(team: SimulatedTeam(seed: 1), origin: "sim", through: through) {
      Reducer.reduce(into: &expected, i)
    }
    #expect(published.state.features.mapValues(\.status) == expected.features.mapValues(\.status))
    #expect(published.state.sprints.keys.sorted() == expected.sprints.keys.sorted())
  }

  @Test func aWallKilledTenTimesGoesOnFromItsJournalLosingAndDoublingNothing() throws {
    let hub = try NATSHub()
    let publisher = try publish(hub)
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("wall.db").path
    let wallArguments = [
      "run", "--source", Relay.url(hub), "--display", "text", "--journal", journal, "--wall-name", "hall",
    ]
    for _ in 0..<10 {
      let w = try BoardProcess(wallArguments)
      Thread.sleep(forTimeInterval: 1)
      w.kill9()
    }
    publisher.stop()
    #expect(publisher.status == 0, "\(publisher.stderr)")
    let (published, last) = try Relay.published(hub)
    // The last life of the wall reads on to the end, and stops cleanly.
    let w = try BoardProcess(wallArguments)
    Thread.sleep(forTimeInterval: 6)
    w.stop()
    #expect(w.status == 0, "\(w.stderr)")
    let file = try JournalFile(path: journal, mode: .read)
    var store = BoardStore(settings: BoardSettings())
    _ = try file.play(through: nil, settings: nil) { input, at in store.apply(input, at: at, asOfRule: .none) }
    let state: BoardState? = store.state.origins[Relay.url(hub)]?.relayed?.sequence == last ? store.state : nil
    var board = try #require(state, "the wall's journal reached \(last)")
    board.origins[Relay.url(hub)] = nil
    #expect(board == published.state)
  }
}

/// Stream messages in the order a consumer delivered them.
final class Positions: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [(UInt64, [UInt8])] = []
  func add(_ p: UInt64, _ b: [UInt8]) {
    condition.withLock {
      items.append((p, b))
      condition.broadcast()
    }
  }
  var all: [(UInt64, [UInt8])] { condition.withLock { items } }
  func wait(through last: UInt64, timeout: Double = 30) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while (items.last?.0 ?? 0) < last {
      if !condition.wait(until: end) { return false }
    }
    return true
  }
}

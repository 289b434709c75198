import Codec
import EventSources
import Foundation
import NATS
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// A board published by `wallboard publish` (the real binary) to a real `nats-server`, and
/// walls following it: the wall's board is the publisher's, whole.
@Suite(.serialized) struct RelayTests {
  @Test func aWallShowsThePublishersBoardOfTheSimulatedTeam() throws {
    let hub = try NATSHub()
    let publisher = try BoardProcess(["publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32"])
    let wall = try Relay.Wall(hub)
    Thread.sleep(forTimeInterval: 3)
    publisher.stop()
    #expect(publisher.status == 0, "\(publisher.stderr)")
    let (published, last) = try Relay.published(hub)
    #expect(published.sequence == last, "the last board covers every input")
    #expect(last > 100, "the team's history was published")
    let board = try #require(wall.published(at: last), "the wall reached \(last)")
    #expect(board == published.state)
    let now = Instant(millis: 1_800_000_000_000)
    #expect(Relay.inspect(board, now: now) == Relay.inspect(published.state, now: now))
  }

  @Test func aWallStartedAfterThePublisherEndedGetsTheWholeBoardOfAJSONLinesScenario() throws {
    let hub = try NATSHub()
    let scenario = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl")
    // Standard input: the publisher ends when it closes and the broker acknowledged everything.
    let publisher = try BoardProcess(
      ["publish", "--source", "jsonl:-", "--to", Relay.url(hub), "--stream-size", "32", "--tz", "UTC"], stdin: scenario)
    #expect(publisher.wait(timeout: 30), "publish ended by itself: \(publisher.stderr)")
    #expect(publisher.status == 0, "\(publisher.stderr)")
    let (published, last) = try Relay.published(hub)
    #expect(published.sequence == last)
    let wall = try Relay.Wall(hub)
    let board = try #require(wall.published(at: last))
    #expect(board == published.state)
    #expect(board.features.count == 4, "the worked example's features")
    // `inspect` of the published board says the position it shows.
    let viaWall = try Command.run(Paths.binary, ["inspect", "--source", Relay.url(hub), "--tz", "UTC", "--wait", "5"])
    #expect(viaWall.status == 0 && viaWall.out.contains("\"position\": \(last)"), "\(viaWall.out.suffix(600))")
    let direct = try Command.run(Paths.binary, ["inspect", "--source", "jsonl:" + scenario.path, "--tz", "UTC"])
    #expect(direct.status == 0)
    // The published board holds what the scenario says (its features and sprint), as read directly.
    let now = Instant(millis: 1_800_000_000_000)
    let json = Relay.inspect(board, now: now)
    for id in board.features.values.map(\.id) { #expect(json.contains(id) && direct.out.contains(id)) }
  }

  @Test func aPublisherStartedWhileTheBrokerIsAwaySaysSoAndPublishesOnceItIsBack() throws {
    let hub = try NATSHub()
    hub.stop()
    let publisher = try BoardProcess(["publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32"])
    defer { publisher.stop() }
    var said = ""
    for _ in 0..<100 where !said.contains("trying again") {
      Thread.sleep(forTimeInterval: 0.1)
      said = publisher.stderr
    }
    #expect(said.contains("No server available") && said.contains("trying again in"), "\(said)")
    #expect(said.contains("nothing is taken meanwhile"))
    try hub.restart()
    let wall = try Relay.Wall(hub)
    let origin = wall.source.origin
    #expect(wall.live.wait(30) { $0.origins[origin]?.connection == .live && $0.features.count > 3 })
    #expect(publisher.stderr.contains("reached the broker"), "\(publisher.stderr)")
  }

  @Test func aWallAwayLongerThanTheStreamKeepsStartsAgainFromTheWholeBoardAndSaysSo() throws {
    let hub = try NATSHub()
    let publisher = try BoardProcess(["publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32"])
    defer { publisher.stop() }
    let c = try Relay.connect(hub)
    defer { c.close() }
    let a = Relay.address(hub)
    var state: NATSConnection.StreamState?
    for _ in 0..<200 {
      state = try c.streamInfo(a.stream)
      if let s = state, s.lastSequence > 100 { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    let before = try #require(state)
    // The stream keeps less now: its first messages go (as the days of retention would take them).
    _ = try c.ensureStream(
      NATSConnection.StreamConfig(
        name: a.stream, subjects: [a.subject], maxAge: 30 * 86_400, maxBytes: 2048, duplicates: 120, denyDelete: true))
    let after = try #require(try c.streamInfo(a.stream))
    #expect(after.firstSequence > 2, "retention dropped the start")
    // A wall whose journal says it had read position 1 of this stream.
    let wall = try Relay.Wall(hub, position: RelayPosition(stream: before.created, sequence: 1))
    let origin = wall.source.origin
    #expect(
      wall.live.wait(20) {
        $0.origins[origin]?.connectionDetail?.contains("started again from the whole board") == true
          && $0.origins[origin]?.connection == .live
      }, "\(wall.live.board().origins[origin]?.connectionDetail ?? "-")")
    #expect(wall.source.machine.bootstraps == 1)
  }

  @Test func aWallsCredentialReadsItsBoardAndCannotPublish() throws {
    let hub = try NATSHub(users: [
      "publisher": .publisher(board: Relay.board), "hall": .wall("hall", board: Relay.board),
    ])
    let publisher = try BoardProcess([
      "publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32", "--nats-creds",
      hub.seedPath("publisher"),
    ])
    defer { publisher.stop() }
    let wall = try Relay.Wall(hub, user: "hall")
    let origin = wall.source.origin
    #expect(wall.live.wait(20) { $0.origins[origin]?.connection == .live && $0.features.count > 3 })
    // The same credential, publishing to the board: refused by the broker.
    var o = NATSOptions(host: hub.host, port: hub.port)
    o.seed = try NKeySeed.read(path: hub.seedPath("hall"))
    o.inboxPrefix = RelayAddress.inboxPrefix(wall: "hall")
    let refused = Recorder()
    let c = try NATSConnection.connect(o) { if case .error(let e) = $0 { refused.add(e.description) } }
    defer { c.close() }
    #expect(throws: NATSError.self) {
      _ = try c.publish(subject: Relay.address(hub).subject, bytes: [1], messageId: "x")
    }
    #expect(throws: NATSError.self) {
      _ = try c.put(bucket: Relay.address(hub).bucket, key: RelayAddress.boardKey, bytes: [1])
    }
    #expect(refused.wait { $0.contains { $0.contains("Permissions Violation") } })
    // A publisher refused the way a wall is: `publish` with the wall's credential says so.
    let impostor = try BoardProcess([
      "publish", "--source", "sim", "--to", Relay.url(hub), "--stream-size", "32", "--nats-creds", hub.seedPath("hall"),
    ])
    Thread.sleep(forTimeInterval: 3)
    impostor.stop()
    // Its requests to make the stream are refused (they time out), and it never gets to publish.
    #expect(impostor.stderr.contains("create stream WB_TEAM failed"), "\(impostor.stderr)")
    #expect(!impostor.stderr.contains("reached the broker"))
  }
}

/// Strings from another thread, waited for.
final class Recorder: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ s: String) { lock.withLock { items.append(s) } }
  func wait(timeout: Double = 10, _ condition: ([String]) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
      if lock.withLock({ condition(items) }) { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }
}

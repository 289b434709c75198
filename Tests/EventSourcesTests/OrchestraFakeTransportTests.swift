import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import Transport
import WallboardCore
import Wire

/// A scripted Orchestra server behind `FakeDialer`: answers every subscribe with an
/// acknowledgement, `board_snapshot` with its features, and health with healthy.
final class FakeOrchestra: @unchecked Sendable {
  private let lock = NSLock()
  private var features: [String: String] = ["A": "todo", "B": "in_progress"]
  private var seq = 10
  private(set) var snapshotCalls = 0
  private(set) var healthCalls = 0

  static func frame(_ r: PluginResponse) -> [UInt8] { LengthPrefixFramer.frame(r.encode()) }

  /// What `transport` writes, answered as a server would.
  func respond(_ transport: FakeTransport, _ bytes: [UInt8]) {
    guard let request = try? PluginRequest.decode(Array(bytes.dropFirst(4))) else { return }
    switch request.request {
    case .subscribe(let s)?:
      transport.feed(
        Self.frame(
          PluginResponse(
            requestId: request.requestId,
            response: .eventDelivery(EventDelivery(subscriptionId: s.subscriptionId, topic: s.topic)))))
    case .toolCall(let t)? where t.toolName == "board_snapshot":
      let result = lock.withLock { () -> JSONObject in
        snapshotCalls += 1
        let list: [JSONValue] = features.sorted { $0.key < $1.key }.map {
          .object(["id": .string($0.key), "status": .string($0.value)])
        }
        return ["features": .array(list), "sprints": [], "seq": .number(Double(seq))]
      }
      transport.feed(
        Self.frame(
          PluginResponse(
            requestId: request.requestId, response: .toolCall(ToolResponse(success: true, result: result)))))
    case .health?:
      lock.withLock { healthCalls += 1 }
      transport.feed(
        Self.frame(PluginResponse(requestId: request.requestId, response: .health(HealthResult(status: .healthy)))))
    default:
      break
    }
  }

  /// A feature moves: the server's truth, and the event its stream would carry.
  func move(_ id: String, to status: String) -> [UInt8] {
    let n = lock.withLock { () -> Int in
      features[id] = status
      seq += 1
      return seq
    }
    return Self.frame(
      PluginResponse(
        response: .eventDelivery(
          EventDelivery(
            topic: "feature.updated",
            payload: ["id": .string(id), "status": .string(status), "seq": .number(Double(n))],
            sourcePlugin: "tools.features"))))
  }
}

/// Issue 22, item 3: the Orchestra source's shell over the transport seam, with no peer and no
/// real waiting — a `FakeDialer` plays the server and a `TestClock` is the only clock, so the
/// health interval and the backoff pass when the test says.
@Suite("The Orchestra source over a fake transport, on a test clock")
struct OrchestraFakeTransportTests {
  static let origin = "orchestra://fake:1"

  static var settings: OrchestraSource.Settings {
    var s = OrchestraSource.Settings()
    s.connectTimeout = 1
    s.requestTimeout = 2
    s.healthTimeout = 1
    s.session.healthInterval = 5
    s.session.backoffInitial = 1
    s.session.backoffMax = 4
    s.session.silenceLimit = 30
    return s
  }

  static func statuses(_ b: BoardState) -> [String: String] {
    Dictionary(uniqueKeysWithValues: b.features.map { ($0.key.id, $0.value.status) })
  }

  /// Advances the clock a second at a time (waiting a little real time for the source's thread
  /// between steps) until `done` holds, at most `seconds` of test time.
  static func advance(_ clock: TestClock, upTo seconds: Int, until done: () -> Bool) -> Bool {
    for _ in 0..<seconds {
      if done() { return true }
      clock.advance(by: 1)
      Thread.sleep(forTimeInterval: 0.05)
    }
    return done()
  }

  @Test func subscribesBootstrapsFollowsAndChecksHealthOnTheClock() throws {
    let clock = TestClock()
    let server = FakeOrchestra()
    let dialer = FakeDialer(clock: clock.clock) { server.respond($0, $1) }
    let source = OrchestraSource(
      host: "fake", port: 1, origin: Self.origin, settings: Self.settings, clock: clock.clock, dialer: dialer, seed: 1)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }

    #expect(board.wait { $0.origins[Self.origin]?.connection == .live && $0.features.count == 2 })
    #expect(Self.statuses(board.board()) == ["A": "todo", "B": "in-progress"])
    // The stream first (one Subscribe per topic of the contract), then a short call for the snapshot.
    let stream = try #require(dialer.opened.first)
    let subscribes = stream.written.compactMap { try? PluginRequest.decode(Array($0.dropFirst(4))) }
    #expect(subscribes.count == Event.topics.count)
    #expect(server.snapshotCalls == 1)
    #expect(dialer.opened[1].isClosed, "the snapshot's stream is closed once answered")

    stream.feed(server.move("A", to: "done"))
    #expect(board.wait { $0.features.values.contains { $0.status == "done" } })

    // Health every 5 s of the test clock, not of the wall.
    #expect(server.healthCalls == 0)
    clock.advance(by: 5)
    #expect(board.wait(5) { _ in server.healthCalls == 1 })
    #expect(board.board().origins[Self.origin]?.connection == .live)
  }

  @Test func aCutIsShownAndTheSourceReconnectsAfterItsBackoffOnTheClock() throws {
    let clock = TestClock()
    let server = FakeOrchestra()
    let dialer = FakeDialer(clock: clock.clock) { server.respond($0, $1) }
    let source = OrchestraSource(
      host: "fake", port: 1, origin: Self.origin, settings: Self.settings, clock: clock.clock, dialer: dialer, seed: 1)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait { $0.origins[Self.origin]?.connection == .live && $0.features.count == 2 })

    // The server goes: its stream ends mid-frame, and it refuses connections.
    dialer.refuse("Connection refused")
    let stream = try #require(dialer.opened.first)
    stream.feed([0, 0, 0, 9, 1])
    stream.hangUp()
    #expect(board.wait { $0.origins[Self.origin]?.connection == .reconnecting })
    #expect(board.board().origins[Self.origin]?.connectionDetail == "connection closed mid-frame")
    #expect(stream.isClosed)
    #expect(source.nextAttemptAt != nil, "a retry is planned")
    // Nothing is tried again until the backoff has passed on the test clock.
    Thread.sleep(forTimeInterval: 0.2)
    #expect(dialer.refused == 0)
    #expect(Self.advance(clock, upTo: 3) { dialer.refused >= 1 })
    #expect(board.wait { $0.origins[Self.origin]?.connectionDetail == "cannot connect to fake:1: Connection refused" })
    #expect(board.board().origins[Self.origin]?.connection != .live)

    // The server is back, and its truth moved meanwhile: the next attempt bootstraps again.
    _ = server.move("B", to: "done")
    dialer.refuse(nil)
    #expect(Self.advance(clock, upTo: 10) { board.board().origins[Self.origin]?.connection == .live })
    #expect(board.wait { Self.statuses($0) == ["A": "todo", "B": "done"] })
    #expect(server.snapshotCalls == 2)
  }

  @Test func stopEndsTheThreadAtOnceAndSaysStopped() throws {
    let clock = TestClock()
    let server = FakeOrchestra()
    let dialer = FakeDialer(clock: clock.clock) { server.respond($0, $1) }
    let source = OrchestraSource(
      host: "fake", port: 1, origin: Self.origin, settings: Self.settings, clock: clock.clock, dialer: dialer, seed: 1)
    let board = LiveBoard()
    source.start { board.put($0) }
    #expect(board.wait { $0.origins[Self.origin]?.connection == .live })
    // The thread waits on the stream with a deadline 5 s away on a clock that does not move:
    // only the stop's interrupt can end that wait.
    source.stop()
    #expect(board.wait { $0.origins[Self.origin]?.connection == .offline })
    #expect(board.board().origins[Self.origin]?.connectionDetail == "stopped")
    let left = dialer.opened.filter { !$0.isClosed }
    #expect(left.isEmpty, "every stream opened is closed")
  }
}

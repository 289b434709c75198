import Clock
import EventSources
import Foundation
import Projections
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// Collects a live source's inputs and reduces them on demand.
final class LiveBoard: @unchecked Sendable {
  private let lock = NSLock()
  private var inputs: [BoardInput] = []
  private var state = BoardState()
  private(set) var statuses: [ConnectionStatus] = []
  /// How many `board.snapshot` events arrived: one per `board_snapshot` call the source made.
  private(set) var snapshots = 0

  func put(_ i: BoardInput) { lock.withLock { inputs.append(i) } }

  /// The board now.
  func board() -> BoardState {
    lock.withLock {
      for i in inputs {
        if case .connection(_, let s, _, _) = i, statuses.last != s { statuses.append(s) }
        if case .event(let e) = i, case .boardSnapshot = e.body { snapshots += 1 }
        Reducer.reduce(into: &state, i)
      }
      inputs.removeAll()
      return state
    }
  }

  /// Waits until `condition` holds for the board, at most `timeout` seconds.
  @discardableResult
  func wait(_ timeout: Double = 10, _ condition: (BoardState) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
      if condition(board()) { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return condition(board())
  }
}

/// The Orchestra source against the Python peer (Google's protobuf runtime), healthy and
/// misbehaving.
@Suite("Orchestra source against the test peer", .serialized)
struct OrchestraSourceTests {
  static var settings: OrchestraSource.Settings {
    var s = OrchestraSource.Settings()
    s.connectTimeout = 1
    s.requestTimeout = 2
    s.session.healthInterval = 0.5
    s.healthTimeout = 0.5
    s.session.backoffInitial = 0.1
    s.session.backoffMax = 0.4
    s.session.silenceLimit = 2
    s.session.resyncInterval = 0.5
    return s
  }

  static func publish(
    _ peer: OrchestraPeer, _ topic: String, _ payload: String, time: String = "2026-11-03T09:00:00Z"
  ) throws {
    _ = try peer.send(
      #"{"cmd":"publish","event":{"topic":"\#(topic)","time":"\#(time)","source":"tools.features","payload":\#(payload)}}"#
    )
  }

  /// The peer's truth as feature id → status.
  static func truth(_ peer: OrchestraPeer) throws -> [String: String] {
    let lines = try peer.send(#"{"cmd":"snapshot"}"#)
    let json = try #require(lines.first { $0.hasPrefix("{") })
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let features = try #require(obj["features"] as? [[String: Any]])
    var out: [String: String] = [:]
    for f in features { out[f["id"] as! String] = Status.normalise(f["status"] as? String ?? "backlog") }
    return out
  }

  static func board(_ s: BoardState) -> [String: String] {
    Dictionary(uniqueKeysWithValues: s.features.map { ($0.key.id, $0.value.status) })
  }

  static func status(_ s: BoardState, _ origin: String) -> ConnectionStatus? { s.origins[origin]?.connection }

  func start(_ peer: OrchestraPeer) -> (OrchestraSource, LiveBoard, String) {
    let origin = "orchestra://127.0.0.1:\(peer.port)"
    let source = OrchestraSource(
      host: "127.0.0.1", port: peer.port, origin: origin, settings: Self.settings, clock: .system)
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board, origin)
  }

  /// Runs `body` against a peer serving the worked example, once the source is live on it.
  func withLiveSource(
    _ body: (OrchestraPeer, OrchestraSource, LiveBoard, String) throws -> Void
  ) throws {
    let peer = try OrchestraPeer(
      events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let (source, board, origin) = start(peer)
    defer { source.stop() }
    #expect(board.wait { Self.status($0, origin) == .live && $0.features.count == 4 })
    try body(peer, source, board, origin)
  }

  @Test func bootstrapsThenFollowsLiveEvents() throws {
    try withLiveSource { peer, source, board, origin in
      #expect(board.board().activeSprint()?.id == "s1")
      try Self.publish(peer, "feature.updated", #"{"id":"A","status":"in_progress"}"#)
      try Self.publish(peer, "feature.created", #"{"id":"E","title":"New","status":"todo","points":2}"#)
      #expect(board.wait { $0.features["A"]?.status == "in-progress" && $0.features["E"] != nil })
      #expect(Self.board(board.board()) == (try Self.truth(peer)))
      #expect(board.board().counters.rejected == 0)
    }
  }

  @Test(arguments: ["die_mid_frame", "garbage", "oversize", "drop"])
  func recoversFromAMisbehavingServer(command: String) throws {
    try withLiveSource { peer, source, board, origin in
      _ = try peer.send(#"{"cmd":"\#(command)"}"#)
      try Self.publish(peer, "feature.updated", #"{"id":"C","status":"in-review"}"#)
      #expect(board.wait { _ in board.statuses.contains(.reconnecting) }, "the break shows")
      // Meanwhile the server's truth moves on; after the reconnect the board catches up.
      try Self.publish(peer, "feature.updated", #"{"id":"D","status":"done"}"#)
      let truth = try Self.truth(peer)
      #expect(
        board.wait { Self.status($0, origin) == .live && Self.board($0) == truth },
        "\(Self.board(board.board())) vs \(truth)")
    }
  }

  @Test func stalledServerIsDroppedThenReconnects() throws {
    try withLiveSource { peer, source, board, origin in
      // The stream socket stays open but nothing answers, health included (a half-open server).
      _ = try peer.send(#"{"cmd":"stall","seconds":3.5}"#)
      #expect(
        board.wait(20) { _ in board.statuses.contains(.reconnecting) }, "a server that stops answering is dropped")
      try Self.publish(peer, "feature.updated", #"{"id":"A","status":"done"}"#)
      #expect(board.wait(30) { Self.status($0, origin) == .live && $0.features["A"]?.status == "done" })
    }
  }

  @Test func tenRestartsInARowLoseNothingAndDoubleNothing() throws {
    try withLiveSource { peer, source, board, origin in
      for i in 0..<10 {
        _ = try peer.send(#"{"cmd":"restart","down_seconds":0.2}"#, timeout: 5)
        try Self.publish(
          peer, "feature.created", #"{"id":"R\#(i)","title":"restart \#(i)","status":"todo","points":1}"#)
      }
      let truth = try Self.truth(peer)
      #expect(truth.count == 14)
      #expect(
        board.wait(15) { Self.status($0, origin) == .live && Self.board($0) == truth },
        "\(Self.board(board.board()).count) vs \(truth.count)")
      #expect(board.statuses.filter { $0 == .reconnecting }.count >= 1)
    }
  }

  /// Whether the server ends the refused stream with an orderly close or a reset (RST).
  @Test(arguments: ["health-only", "health-only-reset"])
  func healthOnlyServerShowsHealthyWithoutAStream(mode: String) throws {
    let peer = try OrchestraPeer(mode: mode)
    defer { peer.stop() }
    let (source, board, origin) = start(peer)
    defer { source.stop() }
    #expect(board.wait { $0.origins[origin]?.connectionDetail == "server healthy; no event stream available" })
    #expect(Self.status(board.board(), origin) == .live)
    // It stays that way: health answers keep it fresh.
    Thread.sleep(forTimeInterval: 1.5)
    #expect(Self.status(board.board(), origin) == .live)
  }

  @Test func deadServerIsOfflineWithACountdown() throws {
    let peer = try OrchestraPeer()
    let port = peer.port
    peer.stop()
    let origin = "orchestra://127.0.0.1:\(port)"
    let source = OrchestraSource(host: "127.0.0.1", port: port, origin: origin, settings: Self.settings, clock: .system)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(3) { $0.origins[origin]?.connection == .reconnecting })
    #expect(board.board().origins[origin]?.connectionDetail?.contains("cannot connect") == true)
    #expect(board.wait(3) { _ in source.nextAttemptAt != nil }, "a countdown to the next try")
    #expect(board.wait(6) { $0.origins[origin]?.connection == .offline }, "a server that stays away is offline")
  }

  /// The seq of the peer's truth.
  static func truthSeq(_ peer: OrchestraPeer) throws -> Int {
    let lines = try peer.send(#"{"cmd":"snapshot"}"#)
    let json = try #require(lines.first { $0.hasPrefix("{") })
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    return try #require(obj["seq"] as? Int)
  }

  @Test func aRejectedPayloadOrATopicNotSubscribedToIsNoGap() throws {
    try withLiveSource { peer, source, board, origin in
      let snapshots = board.snapshots
      let seq = try Self.truthSeq(peer)
      // A valid envelope whose payload the board rejects (a number for a status)…
      _ = try peer.send(
        #"{"cmd":"publish","event":{"topic":"feature.updated","seq":\#(seq + 1),"source":"tools.features","payload":{"id":"ZZ","status":5}}}"#
      )
      // …a delivery of a topic the board never subscribed to, numbered next…
      _ = try peer.send(
        #"{"cmd":"inject","response":{"eventDelivery":{"subscriptionId":"other","topic":"note.created","sourcePlugin":"tools.features","payload":{"seq":\#(seq + 2),"text":"hi"}}}}"#
      )
      // …and the next event: nothing was lost, so there is no gap and no resync.
      _ = try peer.send(
        #"{"cmd":"publish","event":{"topic":"feature.updated","seq":\#(seq + 3),"source":"tools.features","payload":{"id":"A","status":"done"}}}"#
      )
      #expect(board.wait { $0.features["A"]?.status == "done" })
      let s = board.board()
      #expect(s.origins[origin]?.rejected == 1)
      #expect(s.origins[origin]?.gaps == 0)
      #expect(s.origins[origin]?.needsResync == false)
      #expect(s.counters.ignored == 1, "the unknown topic is counted as ignored")
      #expect(board.snapshots == snapshots, "no board_snapshot call was made")
    }
  }

  @Test func aBurstOfGapsSharesAFewResyncs() throws {
    try withLiveSource { peer, source, board, origin in
      let before = board.snapshots
      let seq = try Self.truthSeq(peer)
      // 300 gaps in a row: every other number never arrives.
      var lines: [String] = []
      for i in 0..<300 {
        lines.append(
          #"{"cmd":"publish","silent":true,"event":{"topic":"heartbeat","seq":\#(seq + 2 * i + 1),"payload":{}}}"#)
        lines.append(
          #"{"cmd":"publish","event":{"topic":"heartbeat","seq":\#(seq + 2 * i + 2),"source":"tools.features","payload":{}}}"#
        )
      }
      for line in lines { _ = try peer.send(line) }
      let truth = try Self.truth(peer)
      #expect(board.wait { Self.board($0) == truth && $0.origins[origin]?.needsResync == false })
      let calls = board.snapshots - before
      // The settings allow one resync per 0.5 s: a burst of a few seconds makes a handful.
      #expect(calls >= 1)
      #expect(calls <= 12, "\(calls) board_snapshot calls for 300 gaps")
      // Each gap counts once, except those a resync's snapshot already covered when they came.
      let gaps = board.board().origins[origin]?.gaps ?? 0
      #expect(gaps >= 1 && gaps <= 300)
    }
  }

  @Test func aSequenceGapTriggersAResync() throws {
    try withLiveSource { peer, source, board, origin in
      // A lost event: the server's truth changes but nothing is delivered…
      _ = try peer.send(
        #"{"cmd":"publish","silent":true,"event":{"topic":"feature.updated","payload":{"id":"B","status":"blocked"}}}"#)
      // …so the next event's seq jumps, and the board resyncs from a snapshot.
      try Self.publish(peer, "feature.updated", #"{"id":"A","status":"done"}"#)
      let truth = try Self.truth(peer)
      #expect(truth["B"] == "blocked")
      #expect(board.wait { Self.board($0) == truth && $0.origins[origin]?.needsResync == false })
      #expect(board.board().origins[origin]?.gaps == 1, "\(String(describing: board.board().origins[origin]))")
    }
  }
}

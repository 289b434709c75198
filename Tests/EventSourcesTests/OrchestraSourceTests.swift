import Clock
import EventSources
import Foundation
import Projections
import QUIC
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// The Orchestra source against the Python peer (Google's protobuf runtime), healthy and
/// misbehaving, on TCP and on QUIC (`orchestra+quic://`: the same source with the QUIC dialer,
/// mutual TLS with the test certificates, against aioquic): the same comparisons on both.
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

  /// The source for `peer`'s wire: TCP, or QUIC with the test certificates.
  static func source(port: Int, wire: OrchestraPeer.Wire) throws -> (OrchestraSource, String) {
    switch wire {
    case .tcp:
      let origin = "orchestra://127.0.0.1:\(port)"
      return (
        OrchestraSource(host: "127.0.0.1", port: port, origin: origin, settings: settings, clock: .system), origin
      )
    case .quic, .upstream:
      let origin = "orchestra+quic://127.0.0.1:\(port)"
      let dialer = QUICDialer(certificates: try TestCertificates.folder(), clock: .system)
      return (
        OrchestraSource(
          host: "127.0.0.1", port: port, origin: origin, settings: settings, clock: .system, dialer: dialer),
        origin
      )
    }
  }

  func start(_ peer: OrchestraPeer) throws -> (OrchestraSource, LiveBoard, String) {
    let (source, origin) = try Self.source(port: peer.port, wire: peer.wire)
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board, origin)
  }

  /// Runs `body` against a peer serving the worked example, once the source is live on it.
  func withLiveSource(
    _ wire: OrchestraPeer.Wire, _ body: (OrchestraPeer, OrchestraSource, LiveBoard, String) throws -> Void
  ) throws {
    let peer = try OrchestraPeer(
      wire, events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let (source, board, origin) = try start(peer)
    defer { source.stop() }
    #expect(board.wait { Self.status($0, origin) == .live && $0.features.count == 4 })
    try body(peer, source, board, origin)
  }

  @Test(arguments: OrchestraPeer.Wire.both)
  func bootstrapsThenFollowsLiveEvents(wire: OrchestraPeer.Wire) throws {
    try withLiveSource(wire) { peer, source, board, origin in
      #expect(board.board().activeSprint()?.id == "s1")
      #expect(
        board.board().origins[origin]?.connectionDetail == OrchestraSessionMachine.streamDetail,
        "the source says it follows the event stream")
      try Self.publish(peer, "feature.updated", #"{"id":"A","status":"in_progress"}"#)
      try Self.publish(peer, "feature.created", #"{"id":"E","title":"New","status":"todo","points":2}"#)
      #expect(board.wait { $0.features["A"]?.status == "in-progress" && $0.features["E"] != nil })
      #expect(Self.board(board.board()) == (try Self.truth(peer)))
      #expect(board.board().counters.rejected == 0)
    }
  }

  @Test(arguments: OrchestraPeer.Wire.both, ["die_mid_frame", "garbage", "oversize", "drop"])
  func recoversFromAMisbehavingServer(wire: OrchestraPeer.Wire, command: String) throws {
    try withLiveSource(wire) { peer, source, board, origin in
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

  @Test(arguments: OrchestraPeer.Wire.both)
  func stalledServerIsDroppedThenReconnects(wire: OrchestraPeer.Wire) throws {
    try withLiveSource(wire) { peer, source, board, origin in
      // The stream socket stays open but nothing answers, health included (a half-open server).
      _ = try peer.send(#"{"cmd":"stall","seconds":3.5}"#)
      #expect(
        board.wait(20) { _ in board.statuses.contains(.reconnecting) }, "a server that stops answering is dropped")
      try Self.publish(peer, "feature.updated", #"{"id":"A","status":"done"}"#)
      #expect(board.wait(30) { Self.status($0, origin) == .live && $0.features["A"]?.status == "done" })
    }
  }

  @Test(arguments: OrchestraPeer.Wire.both)
  func tenRestartsInARowLoseNothingAndDoubleNothing(wire: OrchestraPeer.Wire) throws {
    try withLiveSource(wire) { peer, source, board, origin in
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
  @Test(arguments: [
    (OrchestraPeer.Wire.tcp, "health-only"), (.tcp, "health-only-reset"), (.quic(), "health-only"),
  ])
  func healthOnlyServerShowsHealthyWithoutAStream(wire: OrchestraPeer.Wire, mode: String) throws {
    let peer = try OrchestraPeer(wire, mode: mode)
    defer { peer.stop() }
    let (source, board, origin) = try start(peer)
    defer { source.stop() }
    #expect(board.wait { $0.origins[origin]?.connectionDetail == "server healthy; no event stream available" })
    #expect(Self.status(board.board(), origin) == .live)
    // It stays that way: health answers keep it fresh.
    Thread.sleep(forTimeInterval: 1.5)
    #expect(Self.status(board.board(), origin) == .live)
  }

  @Test(arguments: OrchestraPeer.Wire.both)
  func deadServerIsOfflineWithACountdown(wire: OrchestraPeer.Wire) throws {
    let peer = try OrchestraPeer(wire)
    let port = peer.port
    peer.stop()
    let (source, origin) = try Self.source(port: port, wire: wire)
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

  @Test(arguments: OrchestraPeer.Wire.both)
  func aRejectedPayloadOrATopicNotSubscribedToIsNoGap(wire: OrchestraPeer.Wire) throws {
    try withLiveSource(wire) { peer, source, board, origin in
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

  @Test(arguments: OrchestraPeer.Wire.both)
  func aBurstOfGapsSharesAFewResyncs(wire: OrchestraPeer.Wire) throws {
    try withLiveSource(wire) { peer, source, board, origin in
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

  @Test(arguments: OrchestraPeer.Wire.both)
  func aSequenceGapTriggersAResync(wire: OrchestraPeer.Wire) throws {
    try withLiveSource(wire) { peer, source, board, origin in
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

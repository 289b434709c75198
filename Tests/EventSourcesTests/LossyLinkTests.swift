import Clock
import EventSources
import Foundation
import QUIC
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// `orchestra+quic://` over a bad link: 10 % of the datagrams lost and 50 ms added each way
/// (`LossyLink`, a relay on loopback: this kernel has no netem), against both QUIC peers; the
/// board still equals the server's truth through a server's misbehaviour and restarts.
@Suite("QUIC over a lossy, slow link", .serialized)
struct LossyLinkTests {
  static var settings: OrchestraSource.Settings {
    var s = OrchestraSource.Settings()
    s.connectTimeout = 5
    s.requestTimeout = 5
    s.healthTimeout = 3
    s.session.healthInterval = 1
    s.session.backoffInitial = 0.2
    s.session.backoffMax = 1
    s.session.silenceLimit = 10
    s.session.resyncInterval = 0.5
    s.session.toolsInterval = 0.5
    return s
  }

  static func start(through link: LossyLink) throws -> (OrchestraSource, LiveBoard, String) {
    let origin = "orchestra+quic://127.0.0.1:\(link.port)"
    let source = OrchestraSource(
      host: "127.0.0.1", port: link.port, origin: origin, settings: settings, clock: .system,
      dialer: QUICDialer(certificates: try TestCertificates.folder(), clock: .system))
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board, origin)
  }

  @Test func theAioquicPeersScenariosGiveItsTruth() throws {
    let peer = try OrchestraPeer(
      .quic(), events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let link = try LossyLink(target: peer.port)
    defer { link.stop() }
    let (source, board, origin) = try Self.start(through: link)
    defer { source.stop() }
    func converged(_ what: String, _ seconds: Double = 30) throws {
      let truth = try OrchestraSourceTests.truth(peer)
      #expect(
        board.wait(seconds) {
          $0.origins[origin]?.connection == .live && OrchestraSourceTests.board($0) == truth
        }, "\(what): \(OrchestraSourceTests.board(board.board())) vs \(truth)")
    }
    try converged("bootstrap")
    try OrchestraSourceTests.publish(peer, "feature.updated", #"{"id":"A","status":"in_progress"}"#)
    try OrchestraSourceTests.publish(peer, "feature.created", #"{"id":"L1","title":"Lossy","status":"todo"}"#)
    try converged("live events")
    for (i, command) in ["garbage", "die_mid_frame", "restart"].enumerated() {
      _ = try peer.send(
        command == "restart" ? #"{"cmd":"restart","down_seconds":0.3}"# : #"{"cmd":"\#(command)"}"#, timeout: 5)
      try OrchestraSourceTests.publish(
        peer, "feature.created", #"{"id":"M\#(i)","title":"after \#(command)","status":"todo"}"#)
      try converged("after \(command)")
    }
    #expect(board.board().counters.rejected <= 1, "the garbage frame at most")
    source.stop()
    link.stop()
    Self.expectLossy(link)
  }

  /// The link did lose about a tenth of what crossed it.
  static func expectLossy(_ link: LossyLink, sourceLocation: SourceLocation = #_sourceLocation) {
    let total = link.delivered + link.dropped
    #expect(total > 100, "\(total) datagrams crossed", sourceLocation: sourceLocation)
    let share = Double(link.dropped) / Double(max(total, 1))
    #expect(share > 0.04 && share < 0.2, "\(link.dropped) of \(total) dropped", sourceLocation: sourceLocation)
  }

  @Test func theUpstreamPeersFeaturesComeThroughTheTools() throws {
    let peer = try OrchestraPeer(.upstream(arguments: ["--data", UpstreamOrchestratorTests.data]))
    defer { peer.stop() }
    let link = try LossyLink(target: peer.port, seed: 7)
    defer { link.stop() }
    let (source, board, _) = try Self.start(through: link)
    defer { source.stop() }
    func converged(_ what: String) throws {
      let truth = try UpstreamOrchestratorTests.truth(peer)
      #expect(
        board.wait(30) { UpstreamOrchestratorTests.board($0) == truth },
        "\(what): \(UpstreamOrchestratorTests.board(board.board())) vs \(truth)")
    }
    try converged("first pass")
    _ = try peer.send(
      #"{"cmd":"set","merge":true,"feature":{"id":"FEAT-AAB","project_id":"shop","status":"in-progress"}}"#)
    try converged("a change")
    _ = try peer.send(#"{"cmd":"restart","down_seconds":0.3}"#, timeout: 5)
    _ = try peer.send(
      #"{"cmd":"set","merge":true,"feature":{"id":"FEAT-AAB","project_id":"shop","status":"in-review"}}"#)
    try converged("after a restart")
    source.stop()
    link.stop()
    Self.expectLossy(link)
  }
}

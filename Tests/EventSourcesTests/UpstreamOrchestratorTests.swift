import Clock
import EventSources
import Foundation
import QUIC
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// `orchestra+quic://` against a peer configured like upstream's orchestrator (Go, Debian's
/// quic-go: TLS 1.3, a client certificate checked if given, no events) that answers the features
/// tools as upstream's plugin shapes them, in each of the plugin's versions: the board reads
/// the features through the tools and equals the server's truth.
@Suite("Orchestra source against an orchestrator like upstream's", .serialized)
struct UpstreamOrchestratorTests {
  static let data = Paths.fixtures.appendingPathComponent("upstream/orchestrator-data.json").path

  static var settings: OrchestraSource.Settings {
    var s = OrchestraSourceTests.settings
    s.session.toolsInterval = 0.5
    return s
  }

  /// The peer's truth: "project/id" → status, title and labels.
  static func truth(_ peer: OrchestraPeer) throws -> [String: String] {
    let lines = try peer.send(#"{"cmd":"snapshot"}"#)
    let json = try #require(lines.first { $0.hasPrefix("{") })
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let features = try #require(obj["features"] as? [[String: Any]])
    var out: [String: String] = [:]
    for f in features {
      let key = "\(f["project_id"] as! String)/\(f["id"] as! String)"
      let labels = (f["labels"] as? [String] ?? []).joined(separator: ",")
      out[key] = "\(Status.normalise(f["status"] as? String ?? "todo")) | \(f["title"] as? String ?? "") | \(labels)"
    }
    return out
  }

  static func board(_ s: BoardState) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: s.features.map { key, f in
        ("\(key.project)/\(key.id)", "\(f.status) | \(f.title) | \(f.labels.joined(separator: ","))")
      })
  }

  func start(_ peer: OrchestraPeer) throws -> (OrchestraSource, LiveBoard, String) {
    let origin = "orchestra+quic://127.0.0.1:\(peer.port)"
    let source = OrchestraSource(
      host: "127.0.0.1", port: peer.port, origin: origin, settings: Self.settings, clock: .system,
      dialer: QUICDialer(certificates: try TestCertificates.folder(), clock: .system))
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board, origin)
  }

  /// Tool calls the peer took, by tool.
  static func calls(_ peer: OrchestraPeer, reset: Bool = true) throws -> [String: Int] {
    let lines = try peer.send(#"{"cmd":"calls","reset":\#(reset)}"#)
    let json = try #require(lines.first { $0.hasPrefix("{") })
    let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    return (obj["by_tool"] as? [String: Int]) ?? [:]
  }

  @Test(arguments: ["ui", "text", "legacy"])
  func theBoardIsTheServersFeaturesReadThroughItsTools(flavor: String) throws {
    let peer = try OrchestraPeer(.upstream(arguments: ["--data", Self.data, "--flavor", flavor]))
    defer { peer.stop() }
    let (source, board, origin) = try start(peer)
    defer { source.stop() }
    let truth = try Self.truth(peer)
    #expect(truth.count == 5)
    #expect(
      board.wait(10) { Self.board($0) == truth },
      "\(Self.board(board.board())) vs \(truth)")
    let s = board.board()
    #expect(s.origins[origin]?.connection == .live)
    #expect(s.origins[origin]?.connectionDetail == OrchestraSessionMachine.readingDetail(every: 0.5))
    #expect(s.features[FeatureKey(project: "shop", id: "FEAT-AAB")]?.dependsOn == (flavor == "ui" ? ["FEAT-AAA"] : []))
    // The audit trail came with the card: the past of api/FEAT-AAA, at the data's own times.
    let versions = s.history[FeatureKey(project: "api", id: "FEAT-AAA")]?.versions ?? []
    let moves = versions.map { "\($0.status)@\($0.at)" }
    #expect(
      moves.contains("in-review@2026-08-06T09:00:00Z") && moves.contains("done@2026-08-09T16:00:00Z"), "\(moves)")

    // Passes with nothing changed list, and ask no card.
    _ = try Self.calls(peer)
    Thread.sleep(forTimeInterval: 1.5)
    let quiet = try Self.calls(peer)
    #expect((quiet["list_features"] ?? 0) >= 2)
    #expect(quiet["get_feature"] == nil, "\(quiet)")

    // A change on the server: the board follows, and only that card is asked.
    _ = try peer.send(
      #"{"cmd":"set","merge":true,"feature":{"id":"FEAT-AAD","project_id":"api","status":"done"}}"#)
    let changed = try Self.truth(peer)
    #expect(board.wait(10) { Self.board($0) == changed })
    Thread.sleep(forTimeInterval: 0.3)
    #expect(try Self.calls(peer)["get_feature"] == 1)
  }

  /// Stopped in order (CONNECTION_CLOSE) or killed (the socket gone, nothing said).
  @Test(arguments: [false, true])
  func aRestartedOrchestratorIsFollowedAgain(crash: Bool) throws {
    let peer = try OrchestraPeer(.upstream(arguments: ["--data", Self.data]))
    defer { peer.stop() }
    let (source, board, _) = try start(peer)
    defer { source.stop() }
    #expect(board.wait(10) { Self.board($0) == (try? Self.truth(peer)) })
    _ = try peer.send(#"{"cmd":"restart","down_seconds":0.5,"crash":\#(crash)}"#, timeout: 5)
    _ = try peer.send(
      #"{"cmd":"set","merge":true,"feature":{"id":"FEAT-AAC","project_id":"shop","status":"in-progress"}}"#)
    let truth = try Self.truth(peer)
    #expect(board.wait(15) { Self.board($0) == truth }, "\(Self.board(board.board())) vs \(truth)")
  }

  @Test(arguments: [
    (["--cert-name", "other-server"], "issuer is unknown"),
    (["--cert-name", "wrongname-server"], "does not match"),
  ])
  func aServerCertificateItShouldNotTrustIsRefused(peer arguments: [String], says: String) throws {
    let peer = try OrchestraPeer(.upstream(arguments: ["--data", Self.data] + arguments))
    defer { peer.stop() }
    let (source, board, origin) = try start(peer)
    defer { source.stop() }
    #expect(
      board.wait(5) { $0.origins[origin]?.connectionDetail?.contains(says) == true },
      "\(String(describing: board.board().origins[origin]?.connectionDetail))")
    #expect(board.board().features.isEmpty)
  }

  @Test func aClientCertificateFromAnotherCAIsRefusedByTheServer() throws {
    let peer = try OrchestraPeer(.upstream(arguments: ["--data", Self.data]))
    defer { peer.stop() }
    let certs = try TestCertificates.subset([
      "ca.crt": "ca.crt", "other-client.crt": "wallboard-client.crt", "other-client.key": "wallboard-client.key",
    ])
    do throws(QUICError) {
      let c = try QUICConnection.connect(
        host: "127.0.0.1", port: peer.port, credentials: try TLSCredentials(directory: certs),
        until: Clock.system.monotonic().adding(seconds: 3), clock: .system)
      c.close()
      Issue.record("connected with a certificate the server must refuse")
    } catch {
      guard case .tlsAlert(let code, _, let sent) = error else {
        Issue.record("expected the server's alert, got \(error)")
        return
      }
      #expect(!sent && code == 42, "bad_certificate from quic-go: \(error)")
    }
  }
}

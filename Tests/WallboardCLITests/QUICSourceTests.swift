import Foundation
import TestSupport
import Testing
import Wire

/// `orchestra+quic://` from the command line, the built binary run as a user runs it: a board
/// from a QUIC server with the board's certificate from `--certs`, and each refusal a clear
/// `last_error` with no board data and an ordinary exit (never a signal's 128 or above).
@Suite("orchestra+quic:// from the command line", .serialized)
struct QUICSourceTests {
  /// `inspect` of the source on the peer with `certs`, and the source's object in its JSON.
  static func inspect(port: Int, certs: String, wait: Double = 4) throws -> (Command.Result, JSONObject?, Int) {
    let r = try Command.run(
      Paths.binary,
      [
        "inspect", "--source", "orchestra+quic://127.0.0.1:\(port)", "--certs", certs, "--settle", "1", "--wait",
        String(wait), "--tz", "UTC", "--no-journal",
      ], timeout: 30)
    guard case .object(let root)? = try? JSONParser.parse(r.out), case .array(let sources)? = root["sources"],
      case .object(let source)? = sources.first, case .object(let progress)? = root["progress"],
      case .number(let total)? = progress["total"]
    else { return (r, nil, 0) }
    return (r, source, Int(total))
  }

  @Test func aQUICServerGivesTheBoard() throws {
    let peer = try OrchestraPeer(
      .quic(arguments: ["--client-cert", "required"]),
      events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let (r, source, total) = try Self.inspect(port: peer.port, certs: try TestCertificates.folder())
    #expect(r.status == 0, "\(r.err)")
    #expect(source?["status"] == .string("live"))
    #expect(source?["kind"] == .string("orchestra+quic"))
    #expect(total == 4)
  }

  /// What the wall's `--certs` holds and what the server is, and what the source must say.
  static let refusals: [(name: String, certs: [String: String]?, peer: [String], says: String)] = [
    ("another CA's server", nil, ["--cert", "other-server.crt", "--key", "other-server.key"], "issuer is unknown"),
    ("a wrong name", nil, ["--cert", "wrongname-server.crt", "--key", "wrongname-server.key"], "does not match"),
    ("a wrong ALPN", nil, ["--alpn", "h3"], "orchestra-plugin"),
    (
      "a client certificate the server rejects",
      ["ca.crt": "ca.crt", "other-client.crt": "wallboard-client.crt", "other-client.key": "wallboard-client.key"],
      [], "alert"
    ),
    (
      "no CA", ["wallboard-client.crt": "wallboard-client.crt", "wallboard-client.key": "wallboard-client.key"], [],
      "ca.crt"
    ),
  ]

  @Test(arguments: 0..<5)
  func aRefusalIsTheSourcesErrorAndNoData(_ index: Int) throws {
    let c = Self.refusals[index]
    let peer = try OrchestraPeer(
      .quic(arguments: c.peer),
      events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let certs = try c.certs.map { try TestCertificates.subset($0) } ?? TestCertificates.folder()
    let (r, source, total) = try Self.inspect(port: peer.port, certs: certs, wait: 2)
    #expect(r.status < 128 && !r.timedOut, "\(c.name): exit \(r.status)")
    #expect(r.status == 0, "\(c.name): \(r.err)")
    guard case .string(let error)? = source?["last_error"] else {
      Issue.record("\(c.name): no last_error in \(r.out)")
      return
    }
    #expect(error.contains(c.says), "\(c.name): \(error)")
    #expect(source?["status"] != .string("live"))
    #expect(total == 0, "\(c.name): no board data")
  }

  @Test func aTCPPortDialledAsQUICIsRefused() throws {
    let tcp = try OrchestraPeer(.tcp)
    defer { tcp.stop() }
    let (r, source, _) = try Self.inspect(port: tcp.port, certs: try TestCertificates.folder(), wait: 2)
    #expect(r.status == 0 && !r.timedOut, "\(r.err)")
    guard case .string(let error)? = source?["last_error"] else {
      Issue.record("no last_error in \(r.out)")
      return
    }
    #expect(error.contains("refused"), "\(error)")
  }
}

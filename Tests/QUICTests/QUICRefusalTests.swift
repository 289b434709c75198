import Clock
import EventSources
import Foundation
import QUIC
import SourceKit
import TestSupport
import Testing
import Transport
import WallboardCore
import Wire

#if canImport(Glibc)
  import Glibc
#endif

/// A QUIC connection refused the right way: each case against a real peer (aioquic, started
/// here) or a real socket, with the typed reason, and through the source with a clear last
/// error and no board data.
@Suite("QUIC refusals", .serialized)
struct QUICRefusalTests {
  static func connect(
    port: Int, certs: String, host: String = "127.0.0.1", timeout: Double = 3
  ) throws(QUICError) -> QUICConnection {
    let credentials = try TLSCredentials(directory: certs)
    return try QUICConnection.connect(
      host: host, port: port, credentials: credentials, until: Clock.system.monotonic().adding(seconds: timeout),
      clock: .system)
  }

  /// The error connecting to a peer started with `arguments` with `certs`, or nil when it connected.
  static func refusal(peer arguments: [String], certs: String) throws -> QUICError? {
    let peer = try OrchestraPeer(.quic(arguments: arguments))
    defer { peer.stop() }
    do throws(QUICError) {
      let c = try connect(port: peer.port, certs: certs)
      c.close()
      return nil
    } catch {
      return error
    }
  }

  @Test func theBoardsOwnCertificateIsAcceptedAndAHealthCallIsAnswered() throws {
    let peer = try OrchestraPeer(.quic(arguments: ["--client-cert", "required"]))
    defer { peer.stop() }
    let c = try Self.connect(port: peer.port, certs: TestCertificates.folder())
    defer { c.close() }
    let stream = try c.openStream(until: Clock.system.monotonic().adding(seconds: 2))
    defer { stream.close() }
    try stream.write(LengthPrefixFramer.frame(PluginRequest(requestId: "h", request: .health).encode()))
    try stream.finishWriting()
    var framer = LengthPrefixFramer()
    let deadline = Clock.system.monotonic().adding(seconds: 3)
    var frames: [[UInt8]] = []
    while frames.isEmpty, Clock.system.monotonic() < deadline {
      if case .bytes(let b) = try stream.read(until: deadline) { frames += try framer.push(b) }
    }
    let answer = try PluginResponse.decode(try #require(frames.first))
    guard case .health(let h)? = answer.response else {
      Issue.record("not a health answer: \(answer)")
      return
    }
    #expect(h.status == .healthy)
  }

  @Test func withoutAClientCertificateTheBoardStillConnects() throws {
    let certs = try TestCertificates.subset(["ca.crt": "ca.crt"])
    let e = try Self.refusal(peer: [], certs: certs)
    #expect(e == nil, "upstream verifies a client certificate only if given: \(String(describing: e))")
  }

  @Test func aServerCertificateFromAnotherCAIsRefused() throws {
    let e = try Self.refusal(
      peer: ["--cert", "other-server.crt", "--key", "other-server.key"], certs: TestCertificates.folder())
    guard case .certificate(let status)? = e else {
      Issue.record("expected a refused certificate, got \(String(describing: e))")
      return
    }
    #expect(status.contains("issuer is unknown"), "\(status)")
  }

  @Test func aServerCertificateForAnotherNameOrAddressIsRefused() throws {
    let e = try Self.refusal(
      peer: ["--cert", "wrongname-server.crt", "--key", "wrongname-server.key"], certs: TestCertificates.folder())
    guard case .certificate(let status)? = e else {
      Issue.record("expected a refused certificate, got \(String(describing: e))")
      return
    }
    #expect(status.contains("name in the certificate does not match"), "\(status)")
  }

  @Test func aServerSpeakingAnotherProtocolIsRefused() throws {
    let e = try Self.refusal(peer: ["--alpn", "h3"], certs: TestCertificates.folder())
    switch e {
    case .alpn(let expected, let got)?:
      #expect(expected == "orchestra-plugin")
      #expect(got != "orchestra-plugin")
    case .alpnRefused(let expected)?:
      #expect(expected == "orchestra-plugin")
    default: Issue.record("expected an ALPN refusal, got \(String(describing: e))")
    }
  }

  @Test func aServerThatChoosesNoProtocolIsRefused() throws {
    let e = try Self.refusal(peer: ["--alpn", "none"], certs: TestCertificates.folder())
    #expect(e == .alpn(expected: "orchestra-plugin", got: nil), "\(String(describing: e))")
  }

  @Test func aClientCertificateTheServerRejectsEndsTheHandshake() throws {
    let certs = try TestCertificates.subset([
      "ca.crt": "ca.crt", "other-client.crt": "wallboard-client.crt", "other-client.key": "wallboard-client.key",
    ])
    let e = try Self.refusal(peer: [], certs: certs)
    guard case .tlsAlert(_, _, let sent)? = e else {
      Issue.record("expected the server's alert, got \(String(describing: e))")
      return
    }
    #expect(!sent, "the server sent it")
  }

  @Test func aPlainTCPPortDialledAsQUICIsRefusedAtOnce() throws {
    // A TCP listener; nothing on the same UDP port.
    let peer = try OrchestraPeer(.tcp)
    defer { peer.stop() }
    let certs = try TestCertificates.folder()
    let started = Date()
    do throws(QUICError) {
      _ = try Self.connect(port: peer.port, certs: certs)
      Issue.record("connected to a TCP port")
    } catch {
      guard case .socket(_, let reason) = error else {
        Issue.record("expected a refused socket, got \(error)")
        return
      }
      #expect(reason.contains("refused"))
    }
    #expect(Date().timeIntervalSince(started) < 2, "an ICMP port-unreachable is not waited out")
  }

  @Test func aServerThatNeverAnswersTimesOut() throws {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, 16) } }
    var length = socklen_t(16)
    _ = withUnsafeMutablePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let port = Int(UInt16(bigEndian: addr.sin_port))
    let certs = try TestCertificates.folder()
    do throws(QUICError) {
      _ = try Self.connect(port: port, certs: certs, timeout: 1)
      Issue.record("connected to a silent socket")
    } catch {
      guard case .handshakeTimeout = error else {
        Issue.record("expected a handshake timeout, got \(error)")
        return
      }
    }
  }

  @Test func aMissingCAIsNamed() throws {
    let certs = try TestCertificates.subset([:])
    #expect(throws: QUICError.credentials(path: certs + "/ca.crt", reason: "No such file or directory")) {
      _ = try TLSCredentials(directory: certs)
    }
  }

  @Test func aClientCertificateWithoutItsKeyIsNamed() throws {
    let certs = try TestCertificates.subset(["ca.crt": "ca.crt", "wallboard-client.crt": "wallboard-client.crt"])
    #expect(throws: QUICError.self) { _ = try TLSCredentials(directory: certs) }
  }

  /// Through the source: each refusal is the source's last error, the board holds no feature,
  /// and the source keeps trying (reconnecting).
  @Test(arguments: [
    (["--cert", "other-server.crt", "--key", "other-server.key"], "certificate was refused"),
    (["--cert", "wrongname-server.crt", "--key", "wrongname-server.key"], "certificate was refused"),
    (["--alpn", "none"], "does not speak orchestra-plugin"),
  ])
  func theSourceSaysWhyAndShowsNothing(peer arguments: [String], says: String) throws {
    let peer = try OrchestraPeer(
      .quic(arguments: arguments),
      events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let origin = "orchestra+quic://127.0.0.1:\(peer.port)"
    var settings = OrchestraSource.Settings()
    settings.connectTimeout = 1
    settings.session.backoffInitial = 0.1
    settings.session.backoffMax = 0.4
    let source = OrchestraSource(
      host: "127.0.0.1", port: peer.port, origin: origin, settings: settings, clock: .system,
      dialer: QUICDialer(certificates: try TestCertificates.folder(), clock: .system))
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(
      board.wait(5) { $0.origins[origin]?.connectionDetail?.contains(says) == true },
      "\(String(describing: board.board().origins[origin]?.connectionDetail))")
    #expect(board.board().features.isEmpty)
    #expect(board.board().origins[origin]?.connection != .live)
  }
}

/// What the connection itself does with what comes and what does not.
@Suite("QUIC connection", .serialized)
struct QUICConnectionTests {
  /// A server that goes silent after the handshake (a restarted one has forgotten the
  /// connection; a cable pulled): a request sent and not one datagram back ends the connection
  /// after `lossTimeout`, and the stream's read says why.
  @Test func aServerGoneSilentIsSaidWithinTheLossTimeout() throws {
    let peer = try OrchestraPeer(.upstream(arguments: []))
    defer { peer.stop() }
    let link = try LossyLink(target: peer.port, loss: 0, delay: 0.001)
    defer { link.stop() }
    var settings = QUICConnection.Settings()
    settings.lossTimeout = 1
    let c = try QUICConnection.connect(
      host: "127.0.0.1", port: link.port, credentials: try TLSCredentials(directory: try TestCertificates.folder()),
      settings: settings, until: Clock.system.monotonic().adding(seconds: 3), clock: .system)
    defer { c.close() }
    try link.setLoss(1)
    let stream = try c.openStream(until: Clock.system.monotonic().adding(seconds: 2))
    defer { stream.close() }
    try stream.write(LengthPrefixFramer.frame(PluginRequest(requestId: "h", request: .health).encode()))
    try stream.finishWriting()
    let started = Date()
    let deadline = Clock.system.monotonic().adding(seconds: 5)
    var failure: TransportError?
    while failure == nil, Clock.system.monotonic() < deadline {
      do throws(TransportError) { _ = try stream.read(until: deadline) } catch { failure = error }
    }
    let waited = Date().timeIntervalSince(started)
    #expect(failure?.reason.contains("no answer for 1 s") == true, "\(String(describing: failure))")
    #expect(waited >= 0.9 && waited < 3, "said after \(waited) s")
    #expect(c.failure == .noAnswer(seconds: 1))
  }

  @Test(arguments: [1, 7, 1500, 70_000])
  func anInboxGivesBackWhatCameInOrderInReadsOfAnySize(_ read: Int) {
    var inbox = StreamInbox()
    var given: [UInt8] = []
    for n in [3, 0, 1452, 1, 65_536, 9] {
      let chunk = (0..<n).map { UInt8(truncatingIfNeeded: given.count + $0) }
      inbox.append(chunk)
      given += chunk
    }
    #expect(inbox.count == given.count)
    var taken: [UInt8] = []
    while !inbox.isEmpty {
      let part = inbox.take(max: read)
      #expect(!part.isEmpty && part.count <= read)
      taken += part
    }
    #expect(taken == given)
    inbox.append([1, 2, 3])
    #expect(inbox.removeAll() == 3 && inbox.isEmpty)
  }
}

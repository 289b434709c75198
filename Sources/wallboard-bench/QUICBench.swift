import Clock
import EventSources
import Foundation
import QUIC
import SourceKit
import Transport
import WallboardCore
import Wire

/// A test peer as a child process: started with its arguments, its `PORT n` line read; it ends
/// when its standard input does (`stop()`).
final class PeerProcess {
  let port: Int
  private let process: Process
  private let input: FileHandle

  init?(_ arguments: [String]) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    p.standardInput = stdin
    p.standardOutput = stdout
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return nil }
    process = p
    input = stdin.fileHandleForWriting
    // The first line, within 30 s (the Python peer compiles its .proto on first use).
    var line: [UInt8] = []
    let fd = stdout.fileHandleForReading.fileDescriptor
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, 100) >= 0 else { break }
      if pfd.revents == 0 { continue }
      var b: UInt8 = 0
      guard read(fd, &b, 1) == 1 else { break }
      if b == UInt8(ascii: "\n") { break }
      line.append(b)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
      p.terminate()
      return nil
    }
    self.port = port
  }

  func stop() {
    try? input.close()
    let deadline = ContinuousClock.now + .seconds(3)
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }
}

/// The QUIC transport's figures (issue 23): against the peer configured like upstream's
/// orchestrator (Go, Debian's quic-go, `scripts/upstream-peer.sh`), the handshake, a request's
/// round trip and a 1 MiB answer; against the aioquic peer, a 1 MiB `board_snapshot`.
enum QUICBench {
  struct Figures {
    var handshake: [Double] = []
    var roundTrip: [Double] = []
    var megabyte: [Double] = []
    var snapshotMegabyte: [Double] = []
  }

  static func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }

  /// One request on a new stream of `c`, its whole answer decoded.
  static func call(_ c: QUICConnection, _ request: PluginRequest) throws -> PluginResponse {
    let clock = Clock.system
    let deadline = clock.monotonic().adding(seconds: 10)
    let s = try c.openStream(until: deadline)
    defer { s.close() }
    try s.write(LengthPrefixFramer.frame(request.encode()))
    try s.finishWriting()
    var framer = LengthPrefixFramer()
    while clock.monotonic() < deadline {
      if case .bytes(let b) = try s.read(until: deadline), let f = try framer.push(b).first {
        return try PluginResponse.decode(f)
      }
    }
    throw QUICError.noAnswer(seconds: 10)
  }

  static func connect(port: Int, certs: String) throws -> QUICConnection {
    try QUICConnection.connect(
      host: "127.0.0.1", port: port, credentials: try TLSCredentials(directory: certs),
      until: Clock.system.monotonic().adding(seconds: 5), clock: .system)
  }

  /// The Go peer's data: one feature whose body is 1 MiB, and a few small ones.
  static func upstreamData(_ dir: String) -> String {
    let path = dir + "/upstream-data.json"
    let body = String(repeating: "All work and no play makes a wall board.\n", count: 1 << 20 / 42)
    var features: [[String: Any]] = [
      ["id": "BIG", "project_id": "bench", "title": "A megabyte", "status": "todo", "body": "# A megabyte\n\n" + body]
    ]
    for n in 0..<20 {
      features.append(["id": "F-\(n)", "project_id": "bench", "title": "Feature \(n)", "status": "in-progress"])
    }
    let data = try! JSONSerialization.data(withJSONObject: ["projects": [["slug": "bench"]], "features": features])
    try! data.write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A `board.snapshot` of `count` features for the Python peers (`--snapshot`), about
  /// `count` × 300 bytes on the wire.
  static func snapshotFile(_ dir: String, count: Int, name: String) -> String {
    let path = dir + "/\(name).json"
    var features: [[String: Any]] = []
    let states = ["todo", "in-progress", "in-review", "done"]
    for n in 0..<count {
      features.append([
        "id": "F-\(n)", "title": "Feature number \(n) of the bench, with a title long enough to be real",
        "status": states[n % 4], "assignee": "agent-\(n % 7)", "labels": ["area:\(n % 5)", "bench"],
        "estimate": "M", "created_at": "2026-11-02T09:00:00Z", "updated_at": "2026-11-03T09:00:00Z",
      ])
    }
    let data = try! JSONSerialization.data(withJSONObject: ["features": features, "sprints": []])
    try! data.write(to: URL(fileURLWithPath: path))
    return path
  }

  static func run(root: String, dir: String, certs: String, quicPython: String) -> Figures {
    var f = Figures()
    let goPeer = root + "/.build/upstream-peer/upstream-peer"
    if let peer = PeerProcess([goPeer, "--certs", certs, "--port", "0", "--data", upstreamData(dir), "--quiet"]) {
      defer { peer.stop() }
      for _ in 0..<60 {
        let t0 = ContinuousClock.now
        guard let c = try? connect(port: peer.port, certs: certs) else { continue }
        f.handshake.append(seconds(ContinuousClock.now - t0) * 1000)
        c.close()
      }
      f.handshake.removeFirst(min(10, f.handshake.count))  // warm-up
      if let c = try? connect(port: peer.port, certs: certs) {
        let health = PluginRequest(requestId: "h", request: .health)
        for i in 0..<1100 {
          let t0 = ContinuousClock.now
          guard (try? call(c, health)) != nil else { continue }
          if i >= 100 { f.roundTrip.append(seconds(ContinuousClock.now - t0) * 1000) }
        }
        let big = PluginRequest(
          requestId: "big",
          request: .toolCall(
            ToolRequest(toolName: "get_feature", arguments: ["project_id": "bench", "feature_id": "BIG"])))
        for i in 0..<25 {
          let t0 = ContinuousClock.now
          guard let r = try? call(c, big), case .toolCall(let t)? = r.response, t.success else { continue }
          if i >= 5 { f.megabyte.append(seconds(ContinuousClock.now - t0) * 1000) }
        }
        c.close()
      }
    }
    // aioquic serving a 1 MiB board_snapshot: Python's side of it, for scale.
    let snapshot = snapshotFile(dir, count: 3500, name: "snapshot-1mib")
    if let peer = PeerProcess([
      quicPython, "-B", root + "/Tests/OrchestraPeer/quic_peer.py", "--port", "0", "--certs", certs, "--snapshot",
      snapshot, "--quiet",
    ]), let c = try? connect(port: peer.port, certs: certs) {
      defer {
        c.close()
        peer.stop()
      }
      let request = PluginRequest(
        requestId: "s", request: .toolCall(ToolRequest(toolName: "board_snapshot", arguments: nil)))
      for i in 0..<8 {
        let t0 = ContinuousClock.now
        guard (try? call(c, request)) != nil else { continue }
        if i >= 2 { f.snapshotMegabyte.append(seconds(ContinuousClock.now - t0) * 1000) }
      }
    }
    return f
  }

  /// The same board, from the same Python peer logic, over TCP and over QUIC: a running
  /// `wallboard` on a png: file, its resident memory and CPU; and the CPU of following the QUIC
  /// source alone, in this process, idle.
  static func boards(
    p: WallboardProcess, root: String, dir: String, certs: String, quicPython: String
  ) -> (tcp: WallboardProcess.Running?, quic: WallboardProcess.Running?, following: Double?) {
    let snapshot = snapshotFile(dir, count: 300, name: "snapshot-board")
    let base = ["run", "--size", "1920x1080", "--tz", "UTC", "--no-journal", "--certs", certs]
    var tcp: WallboardProcess.Running?
    var quic: WallboardProcess.Running?
    if let peer = PeerProcess([
      "/usr/bin/python3", "-B", root + "/Tests/OrchestraPeer/peer.py", "--port", "0", "--snapshot", snapshot, "--quiet",
    ]) {
      tcp = p.running(
        base + ["--source", "orchestra://127.0.0.1:\(peer.port)", "--display", "png:" + dir + "/tcp.png"],
        settle: 4, seconds: 20)
      peer.stop()
    }
    let quicPeerArguments = [
      quicPython, "-B", root + "/Tests/OrchestraPeer/quic_peer.py", "--port", "0", "--certs", certs, "--snapshot",
      snapshot, "--quiet",
    ]
    if let peer = PeerProcess(quicPeerArguments) {
      quic = p.running(
        base + ["--source", "orchestra+quic://127.0.0.1:\(peer.port)", "--display", "png:" + dir + "/quic.png"],
        settle: 4, seconds: 20)
      peer.stop()
    }
    var following: Double?
    if let peer = PeerProcess(quicPeerArguments) {
      let source = OrchestraSource(
        host: "127.0.0.1", port: peer.port, origin: "orchestra+quic://bench", clock: .system,
        dialer: QUICDialer(certificates: certs, clock: .system))
      following = idleFollowing("orchestra+quic:// (a QUIC connection, health every 5 s)", source, seconds: 30).percent
      peer.stop()
    }
    return (tcp, quic, following)
  }

  /// Issue 23: the QUIC transport against the test peers (`make bench` builds the Go peer and the
  /// aioquic venv first; without them the section says so).
  @MainActor static func figures(into report: Report, p: WallboardProcess, dir: String, root: String) {
    let group = "orchestra+quic:// on loopback (QUIC, TLS 1.3, a client certificate)"
    let quicPython = root + "/.build/quic-venv/bin/python"
    let goPeer = root + "/.build/upstream-peer/upstream-peer"
    guard FileManager.default.isExecutableFile(atPath: quicPython), FileManager.default.isExecutableFile(atPath: goPeer)
    else {
      report.add(
        group, "not measured", .nan, "", note: "no test peers: run scripts/quic-venv.sh and scripts/upstream-peer.sh")
      return
    }
    let certs = dir + "/certs"
    let make = Process()
    make.executableURL = URL(fileURLWithPath: "/bin/bash")
    make.arguments = [root + "/Tests/OrchestraPeer/make-certs.sh", certs]
    make.standardOutput = FileHandle.nullDevice
    try! make.run()
    make.waitUntilExit()
    let f = run(root: root, dir: dir, certs: certs, quicPython: quicPython)
    let pc = percentile
    report.add(
      group, "handshake to confirmed, p50", pc(f.handshake, 0.5), "ms", goal: 5,
      note: "p90 \(Report.number(pc(f.handshake, 0.9))) ms; \(f.handshake.count) connections to the Go peer (quic-go)")
    report.add(
      group, "request round trip (health on a new stream), p50", pc(f.roundTrip, 0.5), "ms", goal: 0.5,
      note: "p99 \(Report.number(pc(f.roundTrip, 0.99))) ms; \(f.roundTrip.count) requests on one connection")
    report.add(
      group, "a 1 MiB answer (get_feature of a 1 MiB body), p50", pc(f.megabyte, 0.5), "ms", goal: 30,
      note: "request to the whole frame decoded; the Go peer")
    report.add(
      group, "a 1 MiB board_snapshot from the aioquic peer, p50", pc(f.snapshotMegabyte, 0.5), "ms",
      note: "Python's aioquic sending: for scale, not the client's figure")
    let b = boards(p: p, root: root, dir: dir, certs: certs, quicPython: quicPython)
    let boards = "A running 1920x1080 board following a server's 300 features, idle (20 s each)"
    if let tcp = b.tcp {
      report.add(
        boards, "orchestra:// (TCP): resident memory", Double(tcp.rssKiB) / 1024, "MiB",
        note: "CPU \(Report.number(tcp.cpu)) % core")
    }
    if let quic = b.quic {
      report.add(
        boards, "orchestra+quic://: resident memory", Double(quic.rssKiB) / 1024, "MiB",
        note: "CPU \(Report.number(quic.cpu)) % core")
      if let tcp = b.tcp {
        report.add(
          boards, "orchestra+quic:// beside orchestra://: resident memory", Double(quic.rssKiB - tcp.rssKiB) / 1024,
          "MiB",
          goal: 8, note: "the same board from the same peer logic")
      }
    }
    if let following = b.following {
      report.add(
        "Following idle sources, in process", "orchestra+quic:// (a QUIC connection, health every 5 s)", following,
        "% core", goal: 0.1)
    }
  }

  /// `--quic-only`: these figures alone, printed as the whole report prints them.
  @MainActor static func only() {
    runAlone("--quic-only", scratch: "quic") { report, p, dir, root in figures(into: report, p: p, dir: dir, root: root)
    }
  }
}

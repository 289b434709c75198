import Clock
import Codec
import EventSources
import Foundation
import NATS
import Relay
import SourceKit
import WallboardCore

/// The fleet's figures (issue 24), against a `nats-server` this bench starts on 127.0.0.1:
/// publish → wall latency with 20 walls at 100 events a second, 200 walls bootstrapping at once,
/// and a wall's added memory and idle CPU with a `nats://` source.
enum NATSBench {
  /// A `nats-server` with JetStream in `dir`, on a port it picks.
  final class Hub {
    let port: Int
    private let process: Process

    init?(dir: String) {
      let conf = dir + "/hub.conf"
      let text = """
        listen: 127.0.0.1:-1
        ports_file_dir: "\(dir)"
        max_payload: 8MB
        max_connections: 1000
        jetstream { store_dir: "\(dir)/store", max_file_store: 4GB, max_memory_store: 64MB }
        """
      guard FileManager.default.createFile(atPath: conf, contents: Data(text.utf8)) else { return nil }
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/sbin/nats-server")
      p.arguments = ["-c", conf]
      p.standardOutput = FileHandle.nullDevice
      p.standardError = FileHandle.nullDevice
      guard (try? p.run()) != nil else { return nil }
      process = p
      let portsFile = dir + "/nats-server_\(p.processIdentifier).ports"
      var found: Int?
      for _ in 0..<200 {
        if let data = FileManager.default.contents(atPath: portsFile),
          let text = String(data: data, encoding: .utf8), let colon = text.lastIndex(of: ":"),
          let port = Int(text[text.index(after: colon)...].prefix { $0.isNumber })
        {
          found = port
          break
        }
        Thread.sleep(forTimeInterval: 0.05)
      }
      guard let found else {
        p.terminate()
        return nil
      }
      port = found
    }

    func stop() {
      process.terminate()
      process.waitUntilExit()
    }
  }

  static func percentile(_ xs: [Double], _ p: Double) -> Double { QUICBench.percentile(xs, p) }

  static func options(_ port: Int, _ board: String) -> (RelayAddress, NATSOptions) {
    let a = try! RelayAddress(host: "127.0.0.1", port: port, board: board)
    return (a, try! RelayLink.options(a, role: "bench", credentials: nil, ca: nil, clock: .system))
  }

  /// Latencies in ms, by the sequence an event carries, as the walls took them.
  final class Latencies: @unchecked Sendable {
    let lock = NSLock()
    var sent: [Int64: ContinuousClock.Instant] = [:]
    var samples: [Double] = []
    var bootstrapped = 0
    func took(_ input: BoardInput) {
      let now = ContinuousClock.now
      guard case .relayed(_, _, let inner) = input else { return }
      lock.withLock {
        if case .restored = inner { bootstrapped += 1 }
        guard case .event(let e) = inner, let seq = e.seq, let t = sent[seq] else { return }
        samples.append(QUICBench.seconds(now - t) * 1000)
      }
    }
  }

  static func event(_ n: Int64) -> BoardInput {
    let title = "Bench feature \(n) " + String(repeating: "x", count: 200)
    return .event(
      Event(
        origin: "bench", seq: n, time: Instant(millis: 1_800_000_000_000 + n),
        body: .featureCreated(Feature(id: "B-\(n % 500)", projectId: "bench", title: title, status: "todo"))))
  }

  static func walls(_ count: Int, port: Int, board: String, into latencies: Latencies) -> [RelayBoardSource] {
    (0..<count).map { _ in
      let (a, o) = options(port, board)
      let s = RelayBoardSource(address: a, options: o, wall: nil, position: nil, clock: .system)
      s.start { latencies.took($0) }
      return s
    }
  }

  /// Publishes `rate` events a second for `seconds` to 20 walls; the latencies.
  static func latency(port: Int, walls count: Int, rate: Int, seconds: Double) -> [Double] {
    let (a, o) = options(port, "LAT")
    guard
      let hub = RelayHub.open(
        a, options: o, retention: .init(days: 1, megabytes: 64), clock: .system, say: { _ in }, stopped: { false })
    else { return [] }
    defer { hub.connection.close() }
    let publisher = BoardPublisher(link: hub, clock: .system, say: { _ in })
    var store = BoardStore(settings: BoardSettings(), recorder: publisher)
    publisher.take(.gap(store.state))
    publisher.start()
    defer { publisher.stop() }
    let latencies = Latencies()
    let walls = walls(count, port: port, board: "LAT", into: latencies)
    defer { walls.forEach { $0.stop() } }
    // Every wall following before the clock starts.
    let ready = ContinuousClock.now + .seconds(20)
    while latencies.lock.withLock({ latencies.bootstrapped }) < count && ContinuousClock.now < ready {
      Thread.sleep(forTimeInterval: 0.05)
    }
    let total = Int64(Double(rate) * seconds)
    var next = ContinuousClock.now
    for n in 1...total {
      latencies.lock.withLock { latencies.sent[n] = ContinuousClock.now }
      store.apply(event(n))
      next = next.advanced(by: .microseconds(1_000_000 / rate))
      let wait = next - ContinuousClock.now
      if wait > .zero { Thread.sleep(forTimeInterval: QUICBench.seconds(wait)) }
    }
    let end = ContinuousClock.now + .seconds(10)
    while latencies.lock.withLock({ latencies.samples.count }) < Int(total) * count && ContinuousClock.now < end {
      Thread.sleep(forTimeInterval: 0.05)
    }
    return latencies.lock.withLock { latencies.samples }
  }

  /// 200 walls started at once on a published board of the simulated team; seconds until every
  /// one shows it (has taken the whole board), and how many did.
  static func bootstrap(port: Int, walls count: Int) -> (seconds: Double, showing: Int) {
    let (a, o) = options(port, "BOOT")
    guard
      let hub = RelayHub.open(
        a, options: o, retention: .init(days: 1, megabytes: 64), clock: .system, say: { _ in }, stopped: { false })
    else { return (.nan, 0) }
    defer { hub.connection.close() }
    let publisher = BoardPublisher(link: hub, clock: .system, say: { _ in })
    var store = BoardStore(settings: BoardSettings(), recorder: publisher)
    publisher.take(.gap(store.state))
    publisher.start()
    defer { publisher.stop() }
    let team = SimulatedTeam(seed: 1)
    let end = Instant(seconds: Int64(team.start.daysSinceEpoch + 10) * 86_400)
    for i in SimSource.inputs(team: team, origin: "sim", through: end) { store.apply(i) }
    publisher.save(store.state, at: end)
    _ = publisher.drain(until: Clock.system.monotonic().adding(seconds: 30), clock: .system, stopped: { false })
    let latencies = Latencies()
    let t0 = ContinuousClock.now
    let walls = walls(count, port: port, board: "BOOT", into: latencies)
    defer { walls.forEach { $0.stop() } }
    let deadline = t0 + .seconds(60)
    while latencies.lock.withLock({ latencies.bootstrapped }) < count && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    return (QUICBench.seconds(ContinuousClock.now - t0), latencies.lock.withLock { latencies.bootstrapped })
  }

  @MainActor static func figures(into report: Report, p: WallboardProcess, dir: String, root: String) {
    let group = "A fleet on NATS JetStream (nats-server on loopback; publisher and walls in this process)"
    let hubDir = dir + "/nats"
    try? FileManager.default.createDirectory(atPath: hubDir, withIntermediateDirectories: true)
    guard let hub = Hub(dir: hubDir) else {
      report.add(group, "not measured", .nan, "", note: "nats-server did not start (apt-get install nats-server)")
      return
    }
    defer { hub.stop() }
    let l = latency(port: hub.port, walls: 20, rate: 100, seconds: 10)
    report.add(
      group, "publish → wall, 20 walls at 100 events/s, p50", percentile(l, 0.5), "ms",
      note: "\(l.count) deliveries of 20000; p99.9 \(Report.number(percentile(l, 0.999))) ms")
    report.add(group, "publish → wall, 20 walls at 100 events/s, p99", percentile(l, 0.99), "ms", goal: 50)
    let b = bootstrap(port: hub.port, walls: 200)
    report.add(
      group, "200 walls bootstrapping at once: all showing the board", b.seconds, "s", goal: 10,
      note: "\(b.showing) of 200 showing; the simulated team's board, 10 days")
    // A running wall beside the same board from a file: what following a broker adds.
    let scenario = root + "/Tests/Fixtures/reference/examples/worked-example.jsonl"
    let publish = Process()
    publish.executableURL = URL(fileURLWithPath: p.binary)
    publish.arguments = ["publish", "--source", "jsonl:-", "--to", "nats://127.0.0.1:\(hub.port)/WALL"]
    publish.standardInput = FileHandle(forReadingAtPath: scenario)
    publish.standardError = FileHandle.nullDevice
    try? publish.run()
    publish.waitUntilExit()
    let base = ["run", "--size", "1920x1080", "--tz", "UTC", "--no-journal"]
    let file = p.running(
      base + ["--source", "jsonl:" + scenario, "--display", "png:" + dir + "/file.png"], seconds: 20)
    let wall = p.running(
      base + ["--source", "nats://127.0.0.1:\(hub.port)/WALL", "--display", "png:" + dir + "/wall.png"], seconds: 20)
    let boards = "A running 1920x1080 wall, idle (20 s each)"
    report.add(
      boards, "jsonl: file: resident memory", Double(file.rssKiB) / 1024, "MiB",
      note: "CPU \(Report.number(file.cpu)) % core")
    report.add(
      boards, "nats:// wall: resident memory", Double(wall.rssKiB) / 1024, "MiB",
      note: "CPU \(Report.number(wall.cpu)) % core")
    report.add(
      boards, "nats:// wall beside the same board from a file: resident memory",
      Double(wall.rssKiB - file.rssKiB) / 1024, "MiB", goal: 8, note: "libnats, OpenSSL and the connection's threads")
    let (a, o) = options(hub.port, "WALL")
    let source = RelayBoardSource(address: a, options: o, wall: nil, position: nil, clock: .system)
    report.add(
      "Following idle sources, in process", "nats:// (a wall following a quiet board, pings every 5 s)",
      idleFollowing("nats://", source, seconds: 30).percent, "% core", goal: 0.1)
  }

  /// `--nats-only`: these figures alone.
  @MainActor static func only() {
    runAlone("--nats-only", scratch: "nats") { report, p, dir, root in figures(into: report, p: p, dir: dir, root: root)
    }
  }
}

import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore
import Wire

/// Issue 21, item 8: the push hint connects only to a loopback address, and backs off like every
/// other connection, whatever the `.info` file names and however the server behaves.
@Suite("The push hint: loopback only, backed off")
struct PushHintHostTests {
  typealias M = Make
  static let t0 = Monotonic(seconds: 1000)
  static let info = RunInfo(pid: 42, host: "127.0.0.1", port: 50234, workspace: "/home/ana/ws")
  static let foreign = RunInfo(pid: 42, host: "203.0.113.5", port: 50234, workspace: "/home/ana/ws")

  @Test(arguments: ["127.0.0.1", "127.255.0.3", "127.0.0.0", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::1%lo"])
  func loopbackAddresses(address: String) {
    #expect(PushHost.isLoopback(address))
  }

  @Test(arguments: [
    "10.0.0.1", "192.168.1.2", "128.0.0.1", "0.0.0.0", "::", "::2", "fe80::1", "::ffff:10.0.0.1", "1::1", "127.0.0",
    "127.0.0.1.5", "127.0.0.256", "localhost", "evil.example", "", "127.0.0.01x",
  ])
  func notLoopbackAddresses(address: String) {
    #expect(!PushHost.isLoopback(address))
  }

  @Test func aNameIsResolvedAndOnlyItsLoopbackAddressesAreKept() throws {
    #expect(PushHost.check("127.0.0.1", resolved: ["127.0.0.1"]) == .success(["127.0.0.1"]))
    #expect(PushHost.check("both.example", resolved: ["203.0.113.5", "::1"]) == .success(["::1"]))
    #expect(
      PushHost.check("evil.example", resolved: ["203.0.113.5", "10.0.0.1"])
        == .failure(PushHost.Refusal(host: "evil.example", why: "not a loopback address (203.0.113.5)")))
    #expect(
      PushHost.check("nowhere.example", resolved: [])
        == .failure(PushHost.Refusal(host: "nowhere.example", why: "resolves to no address")))
    // The real resolver: an address is itself, `localhost` is loopback, a foreign address is not.
    #expect(PushHost.resolve("127.0.0.1") == .success(["127.0.0.1"]))
    #expect(PushHost.resolve("::1") == .success(["::1"]))
    let local = try PushHost.resolve("localhost").get()
    #expect(!local.isEmpty && local.allSatisfy(PushHost.isLoopback), "\(local)")
    #expect(PushHost.resolve("203.0.113.5").flatMap { PushHost.check("203.0.113.5", resolved: $0) }.isFailure)
  }

  @Test func aForeignHostIsRefusedSaidOnceAndAskedAgainOnlyAfterABackoff() {
    var m = PushHintMachine(seed: 3)
    _ = m.on(.start, at: Self.t0)
    #expect(m.on(.info(Self.foreign), at: Self.t0) == [.connect(host: "203.0.113.5", port: 50234)])
    let refusal = PushHost.Refusal(host: "203.0.113.5", why: "not a loopback address (203.0.113.5)")
    var now = Self.t0
    var waits: [Double] = []
    for _ in 0..<8 {
      #expect(m.on(.refused(refusal), at: now).isEmpty)
      #expect(m.listeningTo == nil)
      #expect(m.note == "push from 203.0.113.5:50234 refused: not a loopback address (203.0.113.5)")
      let wake = m.nextWake!
      waits.append(wake.seconds(since: now))
      #expect(m.on(.tick, at: wake) == [.readInfo])
      #expect(m.on(.info(Self.foreign), at: wake) == [.connect(host: "203.0.113.5", port: 50234)])
      now = wake
    }
    #expect(waits[0] >= 0.8 && waits[0] <= 1.2, "\(waits)")
    #expect(waits[5] > waits[1] * 4, "\(waits)")
    #expect(waits.allSatisfy { $0 <= 36 } && waits[7] >= 24, "\(waits)")
    // The server gone: nothing to refuse any more.
    _ = m.on(.refused(refusal), at: now)
    _ = m.on(.tick, at: m.nextWake!)
    _ = m.on(.info(nil), at: m.nextWake ?? now)
    #expect(m.note == nil)
  }

  @Test func aServerThatAcceptsAndHangsUpIsNotReconnectedEverySecond() {
    var m = PushHintMachine(seed: 5)
    _ = m.on(.start, at: Self.t0)
    var now = Self.t0
    var waits: [Double] = []
    #expect(m.on(.info(Self.info), at: now) == [.connect(host: "127.0.0.1", port: 50234)])
    for _ in 0..<8 {
      _ = m.on(.connected, at: now)
      #expect(m.on(.ended("server closed the connection"), at: now.adding(seconds: 0.1)) == [.close])
      let wake = m.nextWake!
      waits.append(wake.seconds(since: now) - 0.1)
      #expect(m.on(.tick, at: wake) == [.readInfo])
      #expect(m.on(.info(Self.info), at: wake) == [.connect(host: "127.0.0.1", port: 50234)])
      now = wake
    }
    #expect(waits[0] <= 1.3, "\(waits)")
    #expect(waits[5] > waits[1] * 4, "\(waits)")
    #expect(waits.allSatisfy { $0 <= 36 } && waits[7] >= 24, "\(waits)")
    // A connection that held a while starts the backoff again from its first step.
    _ = m.on(.connected, at: now)
    _ = m.on(.ended("gone"), at: now.adding(seconds: 120))
    #expect(m.nextWake!.seconds(since: now.adding(seconds: 120)) <= 1.2)
  }

  @Test func aFloodOfPushesReadsTheStoreAtMostTwiceASecond() {
    var m = PushHintMachine(seed: 1)
    _ = m.on(.start, at: Self.t0)
    _ = m.on(.info(Self.info), at: Self.t0)
    #expect(m.on(.connected, at: Self.t0) == [.readStore(reason: "push connected")])
    let push = PluginResponse(
      response: .eventDelivery(EventDelivery(subscriptionId: "s", topic: "features", eventType: "update_feature")))
    var reads = 0
    // 1,000 pushes over 10 s, a tick after each (the shell ticks when the wake is due).
    for k in 1...1000 {
      let at = Self.t0.adding(seconds: Double(k) * 0.01)
      reads += m.on(.received(push), at: at).count
      if let wake = m.nextWake, at >= wake { reads += m.on(.tick, at: at).count }
    }
    if let wake = m.nextWake { reads += m.on(.tick, at: wake).count }
    #expect(reads >= 19 && reads <= 21, "\(reads) reads of the store")
    #expect(m.nextWake == nil, "nothing left pending")
  }
}

extension Result {
  fileprivate var isFailure: Bool {
    if case .failure = self { true } else { false }
  }
}

/// The hint end to end on a markdown workspace: an `.info` file naming a foreign address is
/// refused, and the source's detail says so.
@Suite("orchestra: a push hint from a foreign host", .serialized)
struct PushHintRefusalTests {
  @Test func theDetailSaysTheForeignHostWasRefused() throws {
    let home = try TempDir("wallboard-home")
    let wsDir = try TempDir("wallboard-ws")
    let workspace = WorkspaceLocator.absolute(wsDir.url.path, from: "/")
    try FileManager.default.createDirectory(
      at: wsDir.url.appendingPathComponent(".projects/web/features"), withIntermediateDirectories: true)
    let run = home.url.appendingPathComponent(".orchestra/run")
    try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
    let info = #"{"pid":\#(getpid()),"tcp_addr":"203.0.113.5:50234","workspace":"\#(workspace)"}"#
    try Data(info.utf8).write(to: run.appendingPathComponent(RunInfo.slug(of: workspace) + ".info"))
    let locator = WorkspaceLocator(home: home.url.path, currentDirectory: "/")
    let origin = "orchestra:" + workspace
    let source = OrchestraWorkspaceSource(origin: origin, workspace: workspace, locator: locator, clock: .system) {
      found in
      guard case .markdown = found.store else { return nil }
      return OrchestraMarkdownSource(origin: origin, workspace: found.workspace, clock: .system)
    }
    let board = LiveBoard()
    let started = Date()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(
      board.wait(5) {
        $0.origins[origin]?.connectionDetail?.hasSuffix(
          " · push from 203.0.113.5:50234 refused: not a loopback address (203.0.113.5)") == true
      }, "\(board.board().origins[origin]?.connectionDetail ?? "no detail")")
    // Refused without trying: no two-second connect timeout spent on it.
    #expect(Date().timeIntervalSince(started) < 2)
  }
}

import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore
import Wire

/// Issue 10, item 4: the newer `orchestra serve`'s push is a hint to read the store now.
@Suite("The push of orchestra serve, as a hint")
struct PushHintMachineTests {
  typealias M = Make
  static let t0 = Monotonic(seconds: 1000)
  static let info = RunInfo(pid: 42, host: "127.0.0.1", port: 50234, workspace: "/home/ana/ws")

  static func delivery(topic: String, type: String = "update_feature", subscription: String = "s") -> PluginResponse {
    PluginResponse(
      response: .eventDelivery(EventDelivery(subscriptionId: subscription, topic: topic, eventType: type)))
  }

  @Test func connectsToTheServerTheInfoFileNamesAndReadsOnEveryFeaturesPush() {
    var m = PushHintMachine(seed: 1)
    #expect(m.on(.start, at: Self.t0) == [.readInfo])
    #expect(m.on(.info(Self.info), at: Self.t0) == [.connect(host: "127.0.0.1", port: 50234)])
    #expect(m.on(.connected, at: Self.t0) == [.readStore(reason: "push connected")])
    #expect(m.listeningTo == "127.0.0.1:50234")
    // Past the read the connection asked for (pushes read at most twice a second).
    let t1 = Self.t0.adding(seconds: 1)
    #expect(m.on(.received(Self.delivery(topic: "features")), at: t1) == [.readStore(reason: "pushed update_feature")])
    // The subscription's acknowledgement, and other topics, are no news of features.
    let ack = PluginResponse(response: .eventDelivery(EventDelivery(subscriptionId: "s", topic: "features")))
    #expect(m.on(.received(ack), at: t1.adding(seconds: 1)).isEmpty)
    #expect(m.on(.received(Self.delivery(topic: "notes")), at: t1.adding(seconds: 1)).isEmpty)
    #expect(m.on(.received(PluginResponse(response: .health(HealthResult()))), at: t1.adding(seconds: 1)).isEmpty)
  }

  @Test func withoutAServerItLooksAgainNowAndThen() {
    var m = PushHintMachine(seed: 1, lookInterval: 10)
    _ = m.on(.start, at: Self.t0)
    #expect(m.on(.info(nil), at: Self.t0).isEmpty)
    #expect(m.phase == .waiting)
    #expect(m.on(.tick, at: Self.t0.adding(seconds: 9.9)).isEmpty)
    #expect(m.on(.tick, at: Self.t0.adding(seconds: 10)) == [.readInfo])
  }

  @Test func aLostServerIsLookedForAgainAfterABackoffThatGrows() {
    var m = PushHintMachine(seed: 7)
    _ = m.on(.start, at: Self.t0)
    _ = m.on(.info(Self.info), at: Self.t0)
    _ = m.on(.connected, at: Self.t0)
    #expect(m.on(.ended("server closed the connection"), at: Self.t0) == [.close])
    #expect(m.listeningTo == nil)
    var waits: [Double] = []
    var now = Self.t0
    for _ in 0..<5 {
      let wake = m.nextWake!
      waits.append(wake.seconds(since: now))
      #expect(m.on(.tick, at: wake) == [.readInfo])
      #expect(m.on(.info(Self.info), at: wake) == [.connect(host: "127.0.0.1", port: 50234)])
      _ = m.on(.connectFailed("refused"), at: wake)
      now = wake
    }
    #expect(waits[0] >= 0.8 && waits[0] <= 1.2, "\(waits)")
    #expect(waits[4] > waits[1] * 2, "\(waits)")
    #expect(waits.allSatisfy { $0 <= 36 })
  }

  @Test func stopClosesAnOpenConnectionAndEndsEverything() {
    var m = PushHintMachine(seed: 1)
    _ = m.on(.start, at: Self.t0)
    _ = m.on(.info(Self.info), at: Self.t0)
    _ = m.on(.connected, at: Self.t0)
    #expect(m.on(.stop, at: Self.t0) == [.close])
    #expect(m.on(.received(Self.delivery(topic: "features")), at: Self.t0).isEmpty)
    #expect(m.on(.start, at: Self.t0).isEmpty)
  }

  @Test(arguments: [
    (
      #"{"pid":4242,"tcp_addr":"localhost:50234","web_gate_addr":":9201","workspace":"/home/ana/ws"}"#, "localhost",
      50234
    ),
    (#"{"pid":1,"tcp_addr":":50101","workspace":"/w"}"#, "127.0.0.1", 50101),
    (#"{"pid":1,"tcp_addr":"[::1]:50999","workspace":"/w"}"#, "::1", 50999),
  ])
  func runInfoFiles(json: String, host: String, port: Int) throws {
    let info = try #require(RunInfo.parse(Array(json.utf8)))
    #expect(info.host == host && info.port == port)
  }

  @Test(arguments: [
    #"{"pid":1,"workspace":"/w"}"#, #"{"pid":0,"tcp_addr":":1","workspace":"/w"}"#,
    #"{"pid":1,"tcp_addr":"x:0","workspace":"/w"}"#, #"{"pid":1.5,"tcp_addr":":1","workspace":"/w"}"#, "[]", "",
    #"{"pid":1,"tcp_addr":":1"}"#,
  ])
  func notRunInfo(json: String) {
    #expect(RunInfo.parse(Array(json.utf8)) == nil)
  }

  @Test func theSlugIsUpstreams() {
    #expect(RunInfo.slug(of: "/home/ana/My Project.v2") == "my-project-v2")
    #expect(RunInfo.slug(of: "/srv/web_api-1") == "web_api-1")
  }
}

/// The hint end to end: a workspace database the board polls only once a minute, and a server
/// (the Python peer, pushing as `orchestra serve` does) whose `.info` file names it. A change
/// reaches the board at once only because of the push.
@Suite("orchestra: a workspace and its server's push", .serialized)
struct OrchestraWorkspaceSourceTests {
  @Test func aPushMakesTheBoardReadTheDatabaseAtOnce() throws {
    let home = try TempDir("wallboard-home")
    let wsDir = try TempDir("wallboard-ws")
    let workspace = WorkspaceLocator.absolute(wsDir.url.path, from: "/")
    let dbPath = EventSourcesLocator.hashed(home: home.url.path, workspace: workspace)
    try FileManager.default.createDirectory(
      atPath: (dbPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let ws = try OrchestraWorkspace(at: dbPath)
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")

    let peer = try OrchestraPeer()
    defer { peer.stop() }
    let run = home.url.appendingPathComponent(".orchestra/run")
    try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
    let info = #"{"pid":\#(getpid()),"tcp_addr":"127.0.0.1:\#(peer.port)","workspace":"\#(workspace)"}"#
    try Data(info.utf8).write(to: run.appendingPathComponent(RunInfo.slug(of: workspace) + ".info"))

    let locator = WorkspaceLocator(home: home.url.path, currentDirectory: "/")
    let origin = "orchestra:" + workspace
    let source = OrchestraWorkspaceSource(origin: origin, workspace: workspace, locator: locator, clock: .system) {
      found in
      guard case .database(let path) = found.store else { return nil }
      let db = OrchestraDBSource(origin: origin, clock: .system) { (path, found.detail) }
      db.pollInterval = 60  // Only a hint brings a change within the test's time.
      return db
    }
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(
      board.wait(5) {
        $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "todo"
          && $0.origins[origin]?.connection == .live
      })
    #expect(board.board().origins[origin]?.connectionDetail?.hasPrefix("SQLite \(dbPath)") == true)
    // The hint is listening once the peer has its subscription.
    let deadline = Date().addingTimeInterval(5)
    while (try? peer.send(#"{"cmd":"connections"}"#).first) != "1", Date() < deadline {
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect((try? peer.send(#"{"cmd":"connections"}"#).first) == "1", "the push hint subscribed")
    Thread.sleep(forTimeInterval: 0.3)  // past the read the connection itself asked for

    try ws.write(id: "FEAT-A", status: "in-progress", at: "2026-11-04T10:00:00Z")
    Thread.sleep(forTimeInterval: 1.5)
    #expect(
      board.board().features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "todo",
      "no poll is due: nothing read yet")
    let started = Date()
    try peer.send(
      #"{"cmd":"inject","response":{"eventDelivery":{"subscriptionId":"x","topic":"features","eventType":"advance_feature","payload":{"feature_id":"FEAT-A"}}}}"#
    )
    #expect(board.wait(2) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-progress" })
    #expect(board.board().origins[origin]?.connectionDetail == "SQLite \(dbPath) · push from 127.0.0.1:\(peer.port)")
    print("push hint: change on the board \(Int(Date().timeIntervalSince(started) * 1000)) ms after the push")
  }
}

extension OrchestraWorkspaceSourceTests {
  @Test func aStoreThatAppearsLaterIsFollowedAndTheDetailSaysWhichItIs() throws {
    let home = try TempDir("wallboard-home")
    let wsDir = try TempDir("wallboard-ws")
    let workspace = WorkspaceLocator.absolute(wsDir.url.path, from: "/")
    let locator = WorkspaceLocator(home: home.url.path, currentDirectory: "/")
    let origin = "orchestra:" + workspace
    let source = OrchestraWorkspaceSource(origin: origin, workspace: workspace, locator: locator, clock: .system) {
      found in
      guard case .database(let path) = found.store else { return nil }
      let db = OrchestraDBSource(origin: origin, clock: .system) { (path, found.detail) }
      db.pollInterval = 0.2
      return db
    }
    source.checkInterval = 0.3
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(3) { $0.origins[origin]?.connection == .offline })
    let dbPath = EventSourcesLocator.hashed(home: home.url.path, workspace: workspace)
    #expect(
      board.board().origins[origin]?.connectionDetail
        == "\(workspace): no .projects folder and no Orchestra database (\(dbPath))")

    try FileManager.default.createDirectory(
      atPath: (dbPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let ws = try OrchestraWorkspace(at: dbPath)
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")
    #expect(
      board.wait(3) {
        $0.features[FeatureKey(project: "web", id: "FEAT-A")] != nil && $0.origins[origin]?.connection == .live
      })
    #expect(board.board().origins[origin]?.connectionDetail == "SQLite \(dbPath)")
  }
}

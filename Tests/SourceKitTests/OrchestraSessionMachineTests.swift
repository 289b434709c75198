import Clock
import SourceKit
import TestSupport
import Testing
import WallboardCore
import Wire

/// The Orchestra session's logic stepped with plain numbers on the monotonic clock: no sockets,
/// no sleeps.
@Suite("The Orchestra session, as a state machine")
struct OrchestraSessionMachineTests {
  typealias M = OrchestraSessionMachine
  static let origin = "orchestra://h:1"

  /// `seconds` on the monotonic clock, which the machine's timers run on.
  static func at(_ seconds: Double) -> Monotonic { Monotonic(seconds: seconds) }

  static var settings: M.Settings {
    var s = M.Settings()
    s.healthInterval = 5
    s.backoffInitial = 1
    s.backoffMax = 30
    s.silenceLimit = 30
    s.resyncInterval = 2
    return s
  }

  static func ack(_ topic: String = "feature.updated") -> PluginResponse {
    PluginResponse(response: .eventDelivery(EventDelivery(subscriptionId: "s", topic: topic)))
  }

  static func event(
    seq: Int, id: String = "A", status: JSONValue = "done", topic: String = "feature.updated"
  )
    -> PluginResponse
  {
    PluginResponse(
      response: .eventDelivery(
        EventDelivery(
          topic: topic, payload: ["id": .string(id), "status": status, "seq": .number(Double(seq))],
          sourcePlugin: "tools.features")))
  }

  static func snapshot(seq: Int, features: [(String, String)] = [("A", "todo")]) -> ToolResponse {
    let list: [JSONValue] = features.map { .object(["id": .string($0.0), "status": .string($0.1)]) }
    return ToolResponse(success: true, result: ["features": .array(list), "sprints": [], "seq": .number(Double(seq))])
  }

  /// The board inputs among `actions`.
  static func delivered(_ actions: [M.Action]) -> [BoardInput] {
    actions.compactMap { if case .deliver(let i) = $0 { i } else { nil } }
  }

  static func statuses(_ actions: [M.Action]) -> [ConnectionStatus] {
    delivered(actions).compactMap { if case .connection(_, let s, _, _) = $0 { s } else { nil } }
  }

  static func events(_ actions: [M.Action]) -> [Event] {
    delivered(actions).compactMap { if case .event(let e) = $0 { e } else { nil } }
  }

  /// A machine that connected, subscribed, bootstrapped at seq 10 and went live at t = 1.
  static func live() -> M {
    var m = M(origin: origin, settings: settings, seed: 7)
    _ = m.on(.start, at: at(0))
    _ = m.on(.opened, at: at(0.1))
    _ = m.on(.snapshotAnswered(snapshot(seq: 10)), at: at(0.2))
    _ = m.on(.received(ack()), at: at(1))
    return m
  }

  @Test func connectSubscribeBootstrapThenLive() {
    var m = M(origin: Self.origin, settings: Self.settings, seed: 7)
    let start = m.on(.start, at: Self.at(0))
    #expect(Self.statuses(start) == [.connecting])
    #expect(start.last == .openStream(topics: Event.topics), "one Subscribe per topic of the contract")
    #expect(m.on(.opened, at: Self.at(0.1)) == [.callSnapshot], "bootstrap before anything else")
    // An event that comes while the snapshot is in flight waits for it.
    #expect(Self.delivered(m.on(.received(Self.event(seq: 11)), at: Self.at(0.15))).isEmpty)
    let boot = m.on(.snapshotAnswered(Self.snapshot(seq: 10)), at: Self.at(0.2))
    let events = Self.events(boot)
    #expect(events.count == 2)
    if case .boardSnapshot(let s) = events.first?.body { #expect(s.seq == 10) } else { Issue.record("no snapshot") }
    #expect(events.last?.seq == 11, "the held event, after the snapshot")
    #expect(Self.statuses(boot) == [.live])
    #expect(m.phase == .streaming)
  }

  @Test func heldEventsTheSnapshotReflectsAreSkipped() {
    var m = M(origin: Self.origin, settings: Self.settings, seed: 7)
    _ = m.on(.start, at: Self.at(0))
    _ = m.on(.opened, at: Self.at(0.1))
    _ = m.on(.received(Self.event(seq: 9)), at: Self.at(0.15))
    _ = m.on(.received(Self.event(seq: 10)), at: Self.at(0.16))
    let boot = m.on(.snapshotAnswered(Self.snapshot(seq: 10)), at: Self.at(0.2))
    #expect(Self.events(boot).map(\.seq) == [10], "only the snapshot: seq 9 and 10 are in it")
  }

  @Test func aGapMakesOneResyncDueAndABurstSharesIt() {
    var m = Self.live()
    let gap = m.on(.received(Self.event(seq: 13)), at: Self.at(2))
    #expect(Self.events(gap).map(\.seq) == [13], "the event is applied")
    #expect(gap.contains(.callSnapshot))
    _ = m.on(.snapshotAnswered(Self.snapshot(seq: 13)), at: Self.at(2.1))
    // More gaps within the resync interval: no call until it has passed, then one.
    for (i, t) in [(15, 2.5), (17, 3.0), (19, 3.5)] {
      #expect(!m.on(.received(Self.event(seq: i)), at: Self.at(t)).contains(.callSnapshot))
    }
    #expect(m.nextWake == Self.at(4))
    #expect(m.on(.tick, at: Self.at(4)).contains(.callSnapshot))
    #expect(!m.on(.tick, at: Self.at(4.5)).contains(.callSnapshot), "one call in flight at a time")
  }

  @Test func aRejectedPayloadOrAnUnknownTopicIsNoGap() {
    var m = Self.live()
    let rejected = m.on(.received(Self.event(seq: 11, status: .number(5))), at: Self.at(2))
    guard case .rejected(_, _, _, let position)? = Self.delivered(rejected).first else {
      Issue.record("not rejected: \(rejected)")
      return
    }
    #expect(position == StreamPosition(publisher: "tools.features", seq: 11))
    _ = m.on(.received(Self.event(seq: 12, topic: "note.created")), at: Self.at(2.1))
    let next = m.on(.received(Self.event(seq: 13)), at: Self.at(2.2))
    #expect(!next.contains(.callSnapshot))
  }

  @Test func anOlderResyncAnswerIsNotHandedOn() {
    var m = Self.live()
    _ = m.on(.received(Self.event(seq: 11)), at: Self.at(2))
    _ = m.on(.received(Self.event(seq: 13)), at: Self.at(2.1))  // gap: resync due
    let answer = m.on(.snapshotAnswered(Self.snapshot(seq: 10)), at: Self.at(2.2))
    #expect(Self.events(answer).isEmpty, "seq 10 is older than the 13 applied: no roll-back")
  }

  @Test func healthIsAskedOnScheduleAndItsFailureDropsTheStream() {
    var m = Self.live()
    #expect(m.nextWake == Self.at(5.1), "the first health check, 5 s after the stream opened")
    #expect(m.on(.tick, at: Self.at(5.1)) == [.checkHealth])
    #expect(Self.statuses(m.on(.healthy, at: Self.at(5.2))) == [.live])
    _ = m.on(.tick, at: Self.at(10.1))
    let failed = m.on(.unhealthy("no answer within 2 s"), at: Self.at(10.2))
    #expect(failed.first == .closeStream)
    #expect(Self.statuses(failed) == [.reconnecting])
    #expect(m.phase == .waiting)
  }

  @Test func silenceDropsTheStream() {
    var m = Self.live()
    // Health answers would count as signs of life; here nothing is heard at all.
    var t = 1.0
    var actions: [M.Action] = []
    while m.phase == .streaming && t < 60 {
      t += 1
      actions = m.on(.tick, at: Self.at(t))
      if actions.contains(.checkHealth) { _ = m.on(.tick, at: Self.at(t)) }
    }
    #expect(t == 32, "30 s after the last frame at 1 s")
    #expect(actions.first == .closeStream)
    guard case .connection(_, .reconnecting, _, let detail)? = Self.delivered(actions).last else {
      Issue.record("no reconnecting")
      return
    }
    #expect(detail == "nothing heard for 30 s")
  }

  @Test func backoffGrowsThenShowsOfflineThenStartsAgainAfterAStableMinute() {
    var m = M(origin: Self.origin, settings: Self.settings, seed: 7)
    _ = m.on(.start, at: Self.at(0))
    var now = 0.0
    var delays: [Double] = []
    var shown: [ConnectionStatus] = []
    for _ in 0..<7 {
      let ended = m.on(.streamEnded("cannot connect: Connection refused"), at: Self.at(now))
      shown += Self.statuses(ended)
      let retry = m.retryAt!
      delays.append(retry.seconds(since: Self.at(now)))
      #expect(m.on(.tick, at: retry.adding(seconds: -0.001)).isEmpty, "no try before its time")
      now = retry.seconds(since: Self.at(0))
      #expect(m.on(.tick, at: retry).last == .openStream(topics: Event.topics))
    }
    for (i, d) in delays.enumerated() {
      let base = min(30, Double(1 << i))
      #expect(d >= base * 0.8 - 0.001 && d <= base * 1.2 + 0.001, "try \(i + 1) waited \(d) s")
    }
    #expect(shown.prefix(4).allSatisfy { $0 == .reconnecting })
    #expect(shown.suffix(3).allSatisfy { $0 == .offline }, "a server that stays away is offline")
    // Live for a minute, then a failure: the backoff starts again from 1 s.
    _ = m.on(.opened, at: Self.at(now))
    _ = m.on(.snapshotAnswered(Self.snapshot(seq: 1)), at: Self.at(now + 0.1))
    _ = m.on(.received(Self.ack()), at: Self.at(now + 0.2))
    for k in 1...12 {
      let t = now + 0.2 + Double(k) * 5
      if m.on(.tick, at: Self.at(t)).contains(.checkHealth) { _ = m.on(.healthy, at: Self.at(t)) }
    }
    _ = m.on(.streamEnded("server closed the connection"), at: Self.at(now + 61))
    let wait = m.retryAt!.seconds(since: Self.at(now + 61))
    #expect(wait >= 0.8 && wait <= 1.2)
  }

  /// The first call of a pass of the features tools, as the machine makes it.
  static var listProjects: M.Action {
    .callTool(ToolRequest(toolName: "list_projects", arguments: [:], callerPlugin: "wallboard"))
  }

  @Test func aStreamRefusedBeforeAnyAcknowledgementByAHealthyServerWithoutToolsIsHealthOnly() {
    var m = M(origin: Self.origin, settings: Self.settings, seed: 7)
    _ = m.on(.start, at: Self.at(0))
    _ = m.on(.opened, at: Self.at(0.1))
    _ = m.on(.snapshotAnswered(ToolResponse(success: false, errorMessage: "unknown tool")), at: Self.at(0.2))
    #expect(m.on(.streamEnded("Connection reset by peer"), at: Self.at(0.3)) == [.checkHealth])
    // No events: are there features tools? None.
    #expect(m.on(.healthy, at: Self.at(0.4)) == [.closeStream, Self.listProjects])
    let healthy = m.on(
      .toolAnswered(ToolResponse(success: false, errorCode: "tool_not_found", errorMessage: "no plugin")),
      at: Self.at(0.4))
    guard case .connection(_, .live, _, let detail)? = Self.delivered(healthy).last else {
      Issue.record("not live: \(healthy)")
      return
    }
    #expect(detail == M.healthOnlyDetail)
    #expect(m.phase == .healthOnly)
    // Asked for health every interval; the stream tried again at the longest backoff.
    #expect(m.on(.tick, at: Self.at(5.4)) == [.checkHealth])
    _ = m.on(.healthy, at: Self.at(5.5))
    let retry = m.retryAt!
    #expect(retry.seconds(since: Self.at(0.4)) >= 24)
    #expect(m.on(.tick, at: retry).last == .openStream(topics: Event.topics))
  }

  /// A server without events but with the features tools (upstream's orchestrator): read a pass
  /// at a time, live with a detail that says so, again every `toolsInterval`.
  @Test func aServerWithoutEventsIsReadThroughItsFeaturesTools() throws {
    var m = M(origin: Self.origin, settings: Self.settings, seed: 7)
    _ = m.on(.start, at: Self.at(0))
    _ = m.on(.opened, at: Self.at(0.1))
    _ = m.on(
      .snapshotAnswered(ToolResponse(success: false, errorCode: "tool_not_found", errorMessage: "no plugin")),
      at: Self.at(0.2))
    _ = m.on(.streamEnded("server closed the connection"), at: Self.at(0.3))
    #expect(m.on(.healthy, at: Self.at(0.4)) == [.closeStream, Self.listProjects])
    #expect(m.phase == .reading)
    let projects = ToolResponse(success: true, result: ["text": "## Projects (1)\n\n- **P** (`p`)\n"])
    let list = m.on(.toolAnswered(projects), at: Self.at(0.5))
    guard case .callTool(let listFeatures)? = list.first else {
      Issue.record("\(list)")
      return
    }
    #expect(listFeatures.toolName == "list_features")
    let rows = ToolResponse(
      success: true,
      result: [
        "text":
          "| ID | Title | Status | Priority | Kind | Assignee |\n|--|--|--|--|--|--|\n| F1 | One | in-progress | P1 | feature | ana |\n"
      ])
    let detail = m.on(.toolAnswered(rows), at: Self.at(0.6))
    guard case .callTool(let getFeature)? = detail.first else {
      Issue.record("\(detail)")
      return
    }
    #expect(getFeature.toolName == "get_feature")
    let card = ToolResponse(
      success: true, result: ["text": "### F1 — One\n- **Status:** in-progress\n- **Labels:** sprint:s1\n"])
    let end = m.on(.toolAnswered(card), at: Self.at(0.7))
    #expect(Self.statuses(end) == [.live])
    guard case .connection(_, _, _, let why)? = Self.delivered(end).first else { return }
    #expect(why == M.readingDetail(every: 10))
    let snapshot = try #require(Self.events(end).first)
    guard case .boardSnapshot(let snap) = snapshot.body else {
      Issue.record("\(snapshot)")
      return
    }
    #expect(snap.features.map(\.id) == ["F1"])
    #expect(snap.features.first?.labels == ["sprint:s1"] && snap.features.first?.projectId == "p")
    // The next pass at the interval; nothing changed, nothing delivered, no detail asked.
    #expect(m.nextWake == Self.at(10.7))
    #expect(m.on(.tick, at: Self.at(10.7)) == [Self.listProjects])
    _ = m.on(.toolAnswered(projects), at: Self.at(10.8))
    #expect(m.on(.toolAnswered(rows), at: Self.at(10.9)).isEmpty, "nothing changed: no get_feature, no snapshot")
    // A failed call is a failed attempt: reconnecting, with the reason.
    _ = m.on(.tick, at: Self.at(20.9))
    let failed = m.on(.toolFailed("list_projects: no answer"), at: Self.at(21))
    #expect(Self.statuses(failed) == [.reconnecting])
  }

  @Test func stopSaysSoOnce() {
    var m = Self.live()
    let stop = m.on(.stop, at: Self.at(3))
    #expect(stop.first == .closeStream)
    #expect(Self.statuses(stop) == [.offline])
    #expect(m.on(.stop, at: Self.at(4)).isEmpty)
    #expect(m.on(.received(Self.event(seq: 11)), at: Self.at(5)).isEmpty)
  }
}

extension OrchestraSessionMachine {
  /// One input at `now` on the monotonic clock, stamped with a wall time that far past a fixed
  /// start: the tests step one number.
  mutating func on(_ input: Input, at now: Monotonic) -> [Action] {
    on(input, at: now, stamp: Instant(millis: 1_800_000_000_000 + now.nanoseconds / 1_000_000))
  }
}

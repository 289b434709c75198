import TestSupport
import Testing
import WallboardCore

@testable import Projections

/// Issue 26, item 4: the agents' rows — one per (feature, session) over every source, with the
/// feature's title and status when the board holds it, held longest first, the lapsed last.
@Suite("Projections: agents")
struct AgentsTests {
  static func at(_ minutes: Int64) -> Instant {
    Instant(millis: Make.t("2026-11-02T09:00:00Z").millis + minutes * 60_000)
  }

  static func lock(_ id: String, _ session: String, _ minute: Int64, project: String = "web") -> AgentLock {
    AgentLock(feature: FeatureKey(project: project, id: id), session: session, lockedAt: at(minute))
  }

  static func board() -> BoardState {
    var f = Make.feature("F-1", status: "in-progress")
    f.projectId = "web"
    f.title = "Checkout"
    var s = Make.state([Make.event("2026-11-02T08:00:00Z", .featureCreated(f))])
    for (origin, locks) in [
      ("orchestra:/a", [lock("F-1", "s1", 20), lock("F-9", "s2", 0), lock("F-1", "s3", 5, project: "ops")]),
      ("orchestra:/b", [lock("F-1", "s1", 25)]),
    ] {
      Reducer.reduce(into: &s, Event(origin: origin, time: at(25), body: .agentLocks(locks)))
    }
    return s
  }

  @Test func oneRowPerPairTheNewestLockedAtWithTheBoardsTitleAndStatus() {
    let rows = Agents.compute(state: Self.board())
    #expect(
      rows == [
        AgentRow(lock: Self.lock("F-9", "s2", 0), title: nil, status: nil),
        AgentRow(lock: Self.lock("F-1", "s3", 5, project: "ops"), title: nil, status: nil),
        AgentRow(
          lock: AgentLock(
            feature: FeatureKey(project: "web", id: "F-1"), session: "s1", lockedAt: Self.at(25), since: Self.at(20)),
          title: "Checkout", status: "in-progress"),
      ])
  }

  @Test func theFrameSaysWhichHaveLapsedHeldOnesFirst() {
    let rows = Agents.compute(state: Self.board())
    // At minute 32 the lock taken at 0 has lapsed; at 36 the one of 5 too; at 56 every one.
    #expect(Agents.arranged(rows, at: Self.at(32)).map(\.lock.session) == ["s3", "s1", "s2"])
    #expect(Agents.arranged(rows, at: Self.at(36)).map(\.lock.session) == ["s1", "s2", "s3"])
    #expect(Agents.compute(state: Self.board(), at: Self.at(56)).allSatisfy { $0.lapsed(at: Self.at(56)) })
    #expect(Agents.compute(state: Self.board(), at: Self.at(1)) == rows, "nothing lapsed: the order stands")
  }

  @Test func noLocksNoRows() {
    #expect(Agents.compute(state: BoardState()).isEmpty)
  }

  @Test func theBoardsFilterKeepsItsLocksOffToo() {
    var settings = BoardSettings()
    settings.filter = FeatureFilter(projects: ["web"], labels: ["team-a"])
    var f = Make.feature("F-1", labels: ["team-b"], projectId: "web")
    f.title = "Hidden"
    var s = Make.state([Make.event("2026-11-02T08:00:00Z", .featureCreated(f))], from: BoardState(settings: settings))
    Reducer.reduce(
      into: &s,
      Event(
        origin: "o", time: Self.at(1),
        body: .agentLocks([
          Self.lock("F-1", "s1", 1), Self.lock("F-2", "s2", 1), Self.lock("F-3", "s3", 1, project: "ops"),
        ])))
    #expect(s.hiddenCount == 1)
    #expect(Agents.compute(state: s).map(\.lock.session) == ["s2"])
  }
}

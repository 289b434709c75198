import TestSupport
import Testing

@testable import WallboardCore

/// Issue 26, item 4: `agents.locks` replaces its source's set whole; a lock refreshed by its
/// holder keeps when the hold began. Whole states compared.
@Suite("The reducer: agents' locks")
struct AgentLocksReducerTests {
  static let o = "orchestra:/ws"
  static let t0 = "2026-11-02T09:00:00Z"

  static func at(_ minutes: Int64) -> Instant { Instant(millis: Make.t(t0).millis + minutes * 60_000) }
  static func time(_ minutes: Int64) -> String { at(minutes).rfc3339 }

  static func lock(
    _ id: String, _ session: String, _ minute: Int64, since: Int64? = nil, project: String = "web"
  )
    -> AgentLock
  {
    AgentLock(
      feature: FeatureKey(project: project, id: id), session: session, lockedAt: at(minute), since: since.map(at))
  }

  static func locks(_ minute: Int64, _ l: [AgentLock], origin: String = o) -> Event {
    Make.event(time(minute), .agentLocks(l), origin: origin)
  }

  @Test func aRefreshBeforeTheLockLapsesKeepsWhenTheHoldBegan() {
    let refreshed = Make.state([Self.locks(0, [Self.lock("F", "s1", 0)]), Self.locks(10, [Self.lock("F", "s1", 10)])])
    let told = Make.state([
      Self.locks(0, [Self.lock("F", "s1", 10, since: 0)]), Self.locks(10, [Self.lock("F", "s1", 10, since: 0)]),
    ])
    #expect(refreshed == told)
    #expect(refreshed.agentLocks == [Self.o: [Self.lock("F", "s1", 10, since: 0)]])
  }

  @Test func aHoldThatLapsedBeforeItsRefreshStartsAgain() {
    // 40 minutes: the 30-minute lock had lapsed; upstream swept it and the session took it anew.
    let s = Make.state([Self.locks(0, [Self.lock("F", "s1", 0)]), Self.locks(40, [Self.lock("F", "s1", 40)])])
    #expect(s.agentLocks == [Self.o: [Self.lock("F", "s1", 40)]])
    #expect(s.agentLocks[Self.o]?.first?.since == Self.at(40))
  }

  @Test func aNewHolderStartsAtItsOwnLockedAt() {
    let s = Make.state([
      Self.locks(0, [Self.lock("F", "s1", 0)]),
      Self.locks(20, [Self.lock("F", "s2", 20), Self.lock("G", "s1", 20)]),
    ])
    #expect(s.agentLocks == [Self.o: [Self.lock("F", "s2", 20), Self.lock("G", "s1", 20)]])
  }

  @Test func aSetReplacesOnlyItsOwnSourcesAndAnEmptyOneLeavesNone() {
    let other = "orchestra:/other"
    let s = Make.state([
      Self.locks(0, [Self.lock("F", "s1", 0)]),
      Self.locks(1, [Self.lock("F", "s9", 1)], origin: other),
      Self.locks(2, []),
    ])
    let expected = Make.state([
      Self.locks(0, []),
      Self.locks(1, [Self.lock("F", "s9", 1)], origin: other),
      Self.locks(2, []),
    ])
    #expect(s == expected)
    #expect(s.agentLocks == [other: [Self.lock("F", "s9", 1)]])
  }

  @Test func aPairGivenTwiceKeepsItsNewestAndTheSetIsKeptInKeyOrder() {
    let s = Make.state([
      Self.locks(
        5, [Self.lock("G", "s1", 3), Self.lock("F", "s2", 1), Self.lock("F", "s2", 5), Self.lock("F", "s2", 2)])
    ])
    #expect(s.agentLocks == [Self.o: [Self.lock("F", "s2", 5), Self.lock("G", "s1", 3)]])
  }

  @Test func aSetIsCutAtTheCap() {
    let many = (0..<(AgentLock.maxPerSource + 10)).map { Self.lock(String(format: "F-%05d", $0), "s", 0) }
    let s = Make.state([Self.locks(0, many)])
    #expect(s.agentLocks[Self.o]?.count == AgentLock.maxPerSource)
    #expect(s.agentLocks[Self.o]?.last?.feature.id == String(format: "F-%05d", AgentLock.maxPerSource - 1))
  }

  @Test func aSnapshotAndASourceGoingOfflineLeaveTheLocks() {
    var s = Make.state([Self.locks(0, [Self.lock("F", "s1", 0)])])
    let before = s.agentLocks
    Reducer.reduce(into: &s, Make.event(Self.time(1), .boardSnapshot(BoardSnapshot()), origin: Self.o))
    Reducer.reduce(into: &s, .connection(origin: Self.o, status: .offline, at: Self.at(2), detail: "stopped"))
    #expect(s.agentLocks == before)
  }

  @Test func aSourceTakenOffTheBoardTakesItsLocks() throws {
    let s = Make.state([
      Self.locks(0, [Self.lock("F", "s1", 0)]), Self.locks(0, [Self.lock("G", "s2", 0)], origin: "jsonl:x"),
    ])
    let kept = try #require(s.keeping(origins: ["jsonl:x"], at: Self.at(1)))
    #expect(kept.agentLocks == ["jsonl:x": [Self.lock("G", "s2", 0)]])
  }

  @Test func theLocksMoveTheProjectionVersionAndAreNotSetAsideAsOfAMoment() {
    var store = BoardStore(settings: BoardSettings(), asOf: Self.at(0))
    let v = store.version
    store.apply(.event(Self.locks(10, [Self.lock("F", "s1", 10)])), asOfRule: .changes)
    #expect(store.version != v)
    #expect(store.state.agentLocks[Self.o]?.count == 1)
    #expect(store.tally.afterAsOf == 0)
  }

  @Test func theLockLapsesThirtyMinutesAfterItsLastRefresh() throws {
    let l = Self.lock("F", "s1", 10, since: 0)
    #expect(l.lapsesAt == Self.at(40))
    #expect(!l.lapsed(at: Instant(millis: Self.at(40).millis - 1)) && l.lapsed(at: Self.at(40)))
    #expect(AgentLock.time("2026-11-02 09:00:00") == Make.t(Self.t0))
    #expect(AgentLock.time("2026-11-02T09:00:00Z") == Make.t(Self.t0))
    #expect(AgentLock.time("2026-11-02 09:00") == nil && AgentLock.time("yesterday") == nil)
  }
}

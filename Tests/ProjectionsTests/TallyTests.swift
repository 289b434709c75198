import Projections
import TestSupport
import Testing
import WallboardCore

@Suite("Tallies, progress and sources")
struct TallyTests {
  typealias M = Make

  @Test func workedExampleTallies() throws {
    let s = M.state(BurndownTests.workedExample)
    let scope = BoardScope(state: s, sprint: s.activeSprint())
    let t = Tally.compute(state: s, scope: scope)
    #expect(t.map(\.state) == Workflow.seed.states.map(\.id))
    #expect(t.first { $0.state == "todo" }?.count == 3)
    #expect(t.first { $0.state == "done" }?.count == 1)
    #expect(t.first { $0.state == "todo" }?.points == 13)
    let p = Progress.compute(state: s, scope: scope)
    #expect(p.total == 4)
    #expect(p.completed == 1)
    #expect(p.percent == 25.0)
  }

  @Test func unknownStatesComeAfterTheKnownOnesInFirstSeenOrder() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", status: "zeta"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", status: "alpha"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("C", status: "todo"))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("D", status: "zeta"))),
    ])
    let t = Tally.compute(state: s, scope: BoardScope(state: s, sprint: nil))
    #expect(t.suffix(2).map(\.state) == ["zeta", "alpha"])
    #expect(t.suffix(2).map(\.count) == [2, 1])
    #expect(t.suffix(2).allSatisfy { !$0.known })
    #expect(t.map(\.count).reduce(0, +) == 4)
  }

  /// Issue 10, item 7: upstream's old spellings are kept and tallied as stored, right after
  /// the state they count as — never silently renamed; the counts still add up.
  @Test func upstreamWorkflowKeepsOldSpellingsAsStored() {
    var settings = BoardSettings()
    settings.workflow = .upstream
    let s = M.state(
      [
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", status: "backlog"))),
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", status: "needs_edits"))),
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("C", status: "todo"))),
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("D", status: "documented"))),
      ], from: BoardState(settings: settings))
    let t = Tally.compute(state: s, scope: BoardScope(state: s, sprint: nil))
    #expect(
      t.map(\.state) == [
        "todo", "backlog", "in-progress", "in-testing", "in-docs", "in-review", "documented", "needs-edits", "done",
      ])
    #expect(t.first { $0.state == "todo" }?.count == 1)
    #expect(t.first { $0.state == "backlog" }?.count == 1)
    #expect(t.first { $0.state == "backlog" }?.countsAs == "todo")
    #expect(t.first { $0.state == "documented" }?.countsAs == "in-review")
    #expect(t.allSatisfy { $0.known })
    #expect(t.first { $0.state == "needs-edits" }?.count == 1)
    #expect(t.map(\.count).reduce(0, +) == 4)
    // An old spelling no feature holds is not listed: the 7 states and the two held.
    #expect(!t.contains { $0.state == "ready-for-testing" })
  }

  @Test func percentHasOneDecimal() {
    var events: [Event] = []
    for i in 0..<3 {
      events.append(
        M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("F\(i)", status: i == 0 ? "done" : "todo"))))
    }
    let s = M.state(events)
    #expect(Progress.compute(state: s, scope: BoardScope(state: s, sprint: nil)).percent == 33.3)
    #expect(Progress.compute(state: BoardState(), scope: BoardScope(state: BoardState(), sprint: nil)).percent == 0)
  }

  @Test func sourceGoesStaleWhenNothingIsHeard() {
    var s = BoardState()
    Reducer.reduce(
      into: &s, .connection(origin: "orchestra://h:1", status: .live, at: M.t("2026-11-01T09:00:00Z"), detail: nil))
    let fresh = SourceStatus.compute(state: s, now: M.t("2026-11-01T09:00:20Z"))
    #expect(fresh.first?.status == .live)
    #expect(fresh.first?.kind == "orchestra")
    let stale = SourceStatus.compute(state: s, now: M.t("2026-11-01T09:00:31Z"))
    #expect(stale.first?.status == .stale)
  }

  @Test func activeSprintChoice() {
    let a = M.sprint("a", start: "2026-11-02", end: "2026-11-13")
    let b = M.sprint("b", start: "2026-11-16", end: "2026-11-27")
    var s = M.state([
      M.event("2026-11-01T09:00:00Z", .sprintCreated(a)),
      M.event("2026-11-01T09:00:00Z", .sprintCreated(b)),
    ])
    #expect(s.activeSprint()?.id == "b", "none started: the most recently created")
    Reducer.reduce(
      into: &s, M.event("2026-11-02T09:00:00Z", .sprintStarted(id: "a", startedAt: nil, patch: SprintPatch())))
    #expect(s.activeSprint()?.id == "a", "the started one that is not closed")
    #expect(s.activeSprint(preferred: "b")?.id == "b")
  }
}

/// Random event sequences: the tallies always add up, and reducing is deterministic.
@Suite("Properties")
struct PropertyTests {
  typealias M = Make

  static func randomEvents(seed: UInt64, count: Int) -> [Event] {
    var r = TestRandom(state: seed)
    let ids = (0..<12).map { "F\($0)" }
    let statuses = Workflow.seed.states.map(\.id) + ["mystery", "In_Progress", "parked"]
    var out: [Event] = []
    var t = M.t("2026-11-01T00:00:00Z")
    for i in 0..<count {
      t = t.adding(seconds: Double(r.next() % 20_000))
      let id = ids.randomElement(using: &r)!
      let body: Event.Body
      switch r.next() % 9 {
      case 0:
        body = .featureCreated(M.feature(id, status: statuses.randomElement(using: &r)!, points: Double(r.next() % 8)))
      case 1: body = .featureDeleted(id: id)
      case 2:
        body = .sprintCreated(
          M.sprint(
            "s\(r.next() % 2)", start: "2026-11-02", end: "2026-11-13",
            members: Array(ids.shuffled(using: &r).prefix(5))))
      case 3:
        body = .sprintScopeChanged(sprintId: "s\(r.next() % 2)", added: [id], removed: [ids.randomElement(using: &r)!])
      case 4: body = .sprintStarted(id: "s\(r.next() % 2)", startedAt: nil, patch: SprintPatch())
      case 5:
        body = .boardSnapshot(
          BoardSnapshot(
            features: ids.prefix(Int(r.next() % 6)).map { M.feature($0, status: statuses.randomElement(using: &r)!) },
            sprints: [M.sprint("s0", start: "2026-11-02", end: "2026-11-13", members: [id])]))
      case 6: body = .unknown(topic: "x.y")
      default: body = .featureUpdated(FeaturePatch(id: id, status: statuses.randomElement(using: &r)!))
      }
      let seq: Int64? = r.next() % 4 == 0 ? nil : Int64(i) - Int64(r.next() % 3)
      out.append(Event(origin: "o", seq: seq, time: t, body: body))
    }
    return out
  }

  @Test(arguments: 1...40)
  func talliesAlwaysSumToTheTotal(seed: Int) {
    var s = BoardState()
    for e in Self.randomEvents(seed: UInt64(seed), count: 150) {
      Reducer.reduce(into: &s, e)
      let scope = BoardScope(state: s, sprint: s.activeSprint())
      let tallies = Tally.compute(state: s, scope: scope)
      let progress = Progress.compute(state: s, scope: scope)
      #expect(tallies.map(\.count).reduce(0, +) == progress.total)
      // An independent count of what should be tallied: the active sprint's members, else all.
      let sprint = s.activeSprint()
      let members = s.features.values.filter { f in sprint.map { s.membership(of: f).contains($0.id) } ?? true }
      #expect(tallies.map(\.count).reduce(0, +) == members.count)
      #expect(Set(tallies.map(\.state)).isSuperset(of: members.map { Workflow.seed.state($0.status)?.id ?? $0.status }))
      #expect(progress.completed <= progress.total)
      #expect(progress.done <= progress.completed)
      #expect(progress.done == tallies.filter { Workflow.seed.isDone($0.state) }.map(\.count).reduce(0, +))
    }
  }

  /// The chart's steps and the daily series tell one story: the steps end where the days do, and
  /// every remaining change is a step's.
  @Test(arguments: 1...30)
  func burndownStepsAgreeWithTheDailySeries(seed: Int) {
    let s = M.state(Self.randomEvents(seed: UInt64(seed) &* 13, count: 150))
    for sprint in s.sprints.values {
      for at in ["2026-11-04T12:00:00Z", "2026-11-09T18:00:00Z", "2026-11-20T00:00:00Z"].map(M.t) {
        let b = Burndown.compute(state: s, sprint: sprint, at: at, boardZone: .utc)
        let scope = b.steps.last?.scope ?? b.startScope
        let completed = b.steps.last?.completed ?? b.startCompleted
        if let today = b.todayIndex, let remaining = b.remaining[today] {
          #expect(
            abs(scope - completed - remaining) < 1e-9,
            "seed \(seed) \(sprint.id) at \(at): \(b.startScope)/\(b.startCompleted) from \(b.stepsFrom) \(b.steps) vs \(b.remaining) \(b.scope)"
          )
        }
        let moved = b.steps.map(\.remainingDelta).reduce(0, +)
        #expect(abs(b.startScope - b.startCompleted + moved - (scope - completed)) < 1e-9)
        // A member created during the sprint may be added at the very moment the steps begin.
        #expect(
          b.steps.allSatisfy { ($0.at > b.stepsFrom || ($0.at == b.stepsFrom && $0.kind == .added)) && $0.at <= at })
      }
    }
  }

  @Test(arguments: 1...20)
  func reducingIsDeterministic(seed: Int) {
    let events = Self.randomEvents(seed: UInt64(seed) &* 7, count: 200)
    let start = M.state(Array(events.prefix(20)))
    let a = M.state(Array(events.dropFirst(20)), from: start)
    let b = M.state(Array(events.dropFirst(20)), from: start)
    #expect(a == b)
  }
}

@Suite("Progress: done and completed")
struct ProgressDoneTests {
  typealias M = Make

  @Test func doneIsTheDoneStatesCompletedIsEveryTerminalOne() {
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("A", status: "done", points: 3))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("B", status: "rejected", points: 2))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("C", status: "cancelled", points: 1))),
      M.event("2026-11-01T09:00:00Z", .featureCreated(M.feature("D", status: "todo", points: 5))),
    ])
    let p = Progress.compute(state: s, scope: BoardScope(state: s, sprint: nil))
    #expect(p.done == 1)
    #expect(p.completed == 3)
    #expect(p.percent == 75)
    #expect(p.donePercent == 25)
    #expect(p.donePoints == 3)
    #expect(p.completedPoints == 6)
    #expect(p.closed.map(\.state) == ["rejected", "cancelled"])
    #expect(p.closed.map(\.count) == [1, 1])
  }
}

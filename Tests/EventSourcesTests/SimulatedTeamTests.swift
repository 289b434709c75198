import EventSources
import Projections
import SourceKit
import TestSupport
import Testing
import WallboardCore

@Suite("The simulated team")
struct SimulatedTeamTests {
  typealias M = Make

  static func board(seed: UInt64, at: String) -> BoardState {
    let team = SimulatedTeam(seed: seed)
    var s = BoardState()
    for i in SimSource.inputs(team: team, origin: "sim", through: M.t(at)) { Reducer.reduce(into: &s, i) }
    return s
  }

  @Test func sameSeedSameTeam() {
    let a = SimulatedTeam(seed: 7).sprintEntries(0)
    let b = SimulatedTeam(seed: 7).sprintEntries(0)
    let c = SimulatedTeam(seed: 8).sprintEntries(0)
    #expect(a == b)
    #expect(a != c)
  }

  @Test(arguments: [1, 2, 3, 42, 1000] as [UInt64])
  func aBelievableSprint(seed: UInt64) throws {
    let s = Self.board(seed: seed, at: "2026-11-13T18:00:00Z")
    #expect(s.counters.rejected == 0, "the simulation's own lines always decode")
    let sprint = try #require(s.activeSprint(preferred: "sprint-1"))
    #expect(sprint.startDate == M.d("2026-11-02"))
    #expect(sprint.endDate == M.d("2026-11-13"))
    let planned = sprint.featureIds.count + s.features.values.filter { $0.labels.contains("sprint:sprint-1") }.count
    #expect((20...31).contains(planned))
    let b = Burndown.compute(state: s, sprint: sprint, at: M.t("2026-11-13T17:00:00Z"), boardZone: .utc)
    #expect(b.unit == .points)
    #expect(b.scopeChanges.contains { $0.kind == .added })
    #expect(b.scopeChanges.contains { $0.kind == .removed })
    #expect(b.scopeChanges.contains { $0.kind == .estimate })
    let statusesSeen = Set(s.history.values.flatMap { $0.versions.map(\.status) })
    #expect(statusesSeen.isSuperset(of: ["todo", "in-progress", "in-testing", "in-review", "done", "rejected"]))
    #expect(statusesSeen.contains("blocked"))
    let remaining = try #require(b.remaining[b.todayIndex ?? 0])
    #expect(remaining < b.committed, "the team burns down")
    #expect(s.counters.applied > 100)
  }

  @Test func secondWeekHasAScopeChangeAndWorkLeft() throws {
    let s = Self.board(seed: 1, at: "2026-11-11T15:00:00Z")
    let sprint = try #require(s.activeSprint())
    #expect(sprint.id == "sprint-1")
    let b = Burndown.compute(state: s, sprint: sprint, at: M.t("2026-11-11T15:00:00Z"), boardZone: .utc)
    #expect(!b.scopeChanges.isEmpty)
    #expect((b.remaining[9] ?? 0) > 0)
  }

  @Test func laterSprintsFollowAndOldOnesAreArchived() throws {
    let s = Self.board(seed: 1, at: "2026-12-02T12:00:00Z")
    let sprint = try #require(s.activeSprint())
    #expect(sprint.id == "sprint-3")
    #expect(s.sprints["sprint-1"]?.closedAt != nil)
    #expect(s.features.count < 3 * 34, "sprint 1's features are archived when sprint 3 is planned")
  }

  @Test func timelineNumbersEveryLine() {
    var t = SimTimeline(team: SimulatedTeam(seed: 1))
    let lines = t.lines(through: M.t("2026-11-03T00:00:00Z"))
    #expect(lines.first?.contains("\"seq\":1,") == true)
    #expect(lines.last?.contains("\"seq\":\(lines.count),") == true)
  }
}

@Suite("Source specs")
struct SourceSpecTests {
  @Test(arguments: [
    ("sim", "sim"), ("sim:seed=1", "sim"), ("sim:seed=5,speed=60", "sim:seed=5,speed=60"),
    ("jsonl:-", "jsonl:-"), ("jsonl:/var/x.jsonl", "jsonl:/var/x.jsonl"),
    ("orchestra://localhost:50101", "orchestra://localhost:50101"),
    ("orchestra://[::1]:50101", "orchestra://::1:50101"),
    ("orchestra-db:/home/a/.orchestra/db/x.db", "orchestra-db:/home/a/.orchestra/db/x.db"),
    ("replay:/tmp/j.db", "replay:/tmp/j.db"),
    ("orchestra:/home/ana/ws", "orchestra:/home/ana/ws"), ("orchestra:.", "orchestra:."),
    ("orchestra-md:/home/ana/ws", "orchestra-md:/home/ana/ws"),
  ])
  func parses(text: String, name: String) throws {
    let spec = try SourceRegistry.standard.parse(text)
    #expect(spec.name == name)
    // The name is a value of the same kind that parses to the same spec.
    if !name.contains("::") { #expect(try SourceRegistry.standard.parse(name) == spec) }
  }

  @Test func everyKindIsListedInTheMessageForAnUnknownOne() {
    do {
      _ = try SourceRegistry.standard.parse("http://x")
      Issue.record("expected an error")
    } catch {
      for kind in SourceRegistry.standard.kinds { #expect(error.description.contains(kind.usage)) }
    }
  }

  @Test func aKindsOwnErrorDoesNotListEveryKind() {
    var message = ""
    do throws(SourceSpecError) { _ = try SourceRegistry.standard.parse("sim:speed=0") } catch {
      message = error.description
    }
    #expect(message.contains("speed must be") && !message.contains("accepted: sim["), "\(message)")
  }

  @Test(arguments: [
    "", "sim:seed", "sim:speed=0", "sim:color=red", "jsonl:", "orchestra://h:0", "orchestra://:80", "http://x",
    "orchestra:", "orchestra-md:", "orchestra-db:",
  ])
  func rejects(text: String) {
    #expect(throws: SourceSpecError.self) { try SourceRegistry.standard.parse(text) }
  }
}

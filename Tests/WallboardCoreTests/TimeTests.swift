import Testing
import WallboardCore

@Suite("Instants and calendar dates")
struct TimeTests {
  @Test(arguments: [
    ("2026-11-03T09:15:00Z", Int64(1_793_697_300_000)),
    ("2026-11-03T09:15:00.250Z", Int64(1_793_697_300_250)),
    ("2026-11-03T11:15:00+02:00", Int64(1_793_697_300_000)),
    ("2026-11-03t09:15:00z", Int64(1_793_697_300_000)),
    ("2026-11-02T22:15:00-11:00", Int64(1_793_697_300_000)),
    ("1970-01-01T00:00:00Z", Int64(0)),
    ("2024-02-29T00:00:00.123456789Z", Int64(1_709_164_800_123)),
  ])
  func parsesRFC3339(text: String, millis: Int64) throws {
    #expect(try Instant(rfc3339: text).millis == millis)
  }

  @Test(arguments: [
    "", "2026-11-03", "2026-11-03T09:15Z", "2026-13-03T09:15:00Z", "2026-02-30T09:15:00Z",
    "2026-11-03T24:00:00Z", "2026-11-03T09:15:00", "2026-11-03T09:15:00+0200", "1969-12-31T23:59:59Z",
    "2026-11-03T09:15:00.Z", "2026-11-03T09:15:00.1234567890Z", "2026-11-03T09:15:00Zjunk",
  ])
  func rejectsBadRFC3339(text: String) {
    #expect(throws: Instant.ParseError.self) { try Instant(rfc3339: text) }
  }

  @Test func formatsRFC3339() throws {
    #expect(Instant(millis: 1_793_697_300_000).rfc3339 == "2026-11-03T09:15:00Z")
    #expect(Instant(millis: 1_793_697_300_250).rfc3339 == "2026-11-03T09:15:00.250Z")
  }

  @Test func civilDateRoundTripsOverCenturies() {
    for days in stride(from: 0, through: 2_932_896, by: 97) {
      let d = CivilDate(daysSinceEpoch: days)
      #expect(d.daysSinceEpoch == days)
      #expect(CivilDate(parsing: d.description) == d)
    }
  }

  @Test func weekdays() {
    #expect(CivilDate(year: 2026, month: 11, day: 2).weekday == .mon)
    #expect(CivilDate(year: 2026, month: 11, day: 8).weekday == .sun)
    #expect(CivilDate(year: 1970, month: 1, day: 1).weekday == .thu)
    #expect(Weekday(name: "Saturday") == .sat)
    #expect(Weekday(name: "SUN") == .sun)
    #expect(Weekday(name: "sa") == nil)
    #expect(Weekday(name: "saturdays") == nil)
  }

  @Test(arguments: ["2026-02-29", "2026-1-01", "26-01-01", "2026-01-01x", "1969-12-31"])
  func rejectsBadDates(text: String) {
    #expect(CivilDate(parsing: text) == nil)
  }
}

@Suite("Statuses, workflows and estimates")
struct DomainTests {
  @Test(arguments: [
    ("in_progress", "in-progress"), ("In-Review", "in-review"), ("DONE", "done"),
    ("ready for testing", "ready-for-testing"), ("todo", "todo"),
  ])
  func normalisesStatus(raw: String, expected: String) {
    #expect(Status.normalise(raw) == expected)
  }

  @Test func seedWorkflowHasThirteenStatesInOrder() {
    #expect(
      Workflow.seed.states.map(\.id) == [
        "backlog", "todo", "in-progress", "ready-for-testing", "in-testing", "ready-for-docs",
        "in-docs", "documented", "in-review", "done", "blocked", "rejected", "cancelled",
      ])
    #expect(Workflow.seed.states.filter(\.terminal).map(\.id) == ["done", "rejected", "cancelled"])
  }

  @Test func upstreamWorkflowReadsOldNames() {
    let w = Workflow.upstream
    #expect(w.states.count == 7)
    #expect(w.state("backlog")?.id == "todo")
    #expect(w.state("documented")?.id == "in-review")
    #expect(w.isCompleted("done"))
    #expect(!w.isCompleted("cancelled"))
  }

  @Test func estimates() throws {
    let s = EstimateScale.standard
    #expect(s.points(points: 8, estimate: "S") == 8)
    #expect(s.points(points: nil, estimate: "S") == 1)
    #expect(s.points(points: nil, estimate: "m") == 2)
    #expect(s.points(points: nil, estimate: "L") == 3)
    #expect(s.points(points: nil, estimate: "XL") == 5)
    #expect(s.points(points: nil, estimate: "13") == 13)
    #expect(s.points(points: nil, estimate: "2.5") == 2.5)
    #expect(s.points(points: nil, estimate: "huge") == nil)
    #expect(s.points(points: nil, estimate: nil) == nil)
    let custom = try EstimateScale(sizes: ["S": 2, "M": 4, "L": 8, "XL": 16])
    #expect(custom.points(points: nil, estimate: "XL") == 16)
  }

  @Test func featureNamesItsOwnSprints() {
    let f = Feature(id: "A", labels: ["x", "sprint:s2", "sprint:"], sprintId: "s1")
    #expect(f.ownSprintIds == ["s1", "s2"])
  }
}

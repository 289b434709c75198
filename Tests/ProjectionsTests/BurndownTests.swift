import Projections
import TestSupport
import Testing
import WallboardCore
import ZoneFiles

/// The burndown of `reference/burndown.md`, case by case.
@Suite("Burndown and burnup")
struct BurndownTests {
  typealias M = Make

  /// The worked example, built directly from events.
  static var workedExample: [Event] {
    [
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("A", points: 3))),
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("B", points: 5))),
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("C", points: 2))),
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("D", points: 8))),
      M.event(
        "2026-10-30T10:00:00Z",
        .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A", "B", "C"]))),
      M.event("2026-11-02T08:00:00Z", .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch())),
      M.status("2026-11-03T10:00:00Z", "B", "in-progress"),
      M.status("2026-11-04T15:00:00Z", "B", "done"),
      M.event("2026-11-05T11:00:00Z", .sprintScopeChanged(sprintId: "s1", added: ["D"], removed: [])),
    ]
  }

  static func burndown(_ events: [Event], at: String, zone: Zone = .utc, unit: UnitChoice = .auto) throws -> Burndown {
    let s = M.state(events)
    let sprint = try #require(s.activeSprint())
    return Burndown.compute(
      state: s, sprint: sprint, at: M.t(at), boardZone: zone, sprintZones: ZoneBook.read(for: s), unit: unit)
  }

  @Test func workedExample() throws {
    let b = try Self.burndown(Self.workedExample, at: "2026-11-06T12:00:00Z")
    #expect(b.days.count == 12)
    #expect(b.days.first == M.d("2026-11-02"))
    #expect(b.working == [true, true, true, true, true, false, false, true, true, true, true, true])
    #expect(b.committed == 10)
    #expect(zip(b.ideal, [9, 8, 7, 6, 5, 5, 5, 4, 3, 2, 1, 0]).allSatisfy { abs($0 - $1) < 1e-9 })
    #expect(b.ideal.count == 12)
    #expect(b.remaining == [10, 10, 5, 13, 13, nil, nil, nil, nil, nil, nil, nil])
    #expect(b.scope == [10, 10, 10, 18, 18, nil, nil, nil, nil, nil, nil, nil])
    #expect(b.completed == [0, 0, 5, 5, 5, nil, nil, nil, nil, nil, nil, nil])
    #expect(b.scopeChanges.map { "\($0.date) \($0.featureId) \($0.delta) \($0.kind)" } == ["2026-11-05 D 8.0 added"])
    #expect(b.unit == .points)
    #expect(b.daysLeft == 5)
    #expect(b.unestimated == 0)
  }

  @Test func countUnit() throws {
    let b = try Self.burndown(Self.workedExample, at: "2026-11-06T12:00:00Z", unit: .count)
    #expect(b.committed == 3)
    #expect(b.remaining.prefix(5) == [3, 3, 2, 3, 3])
    #expect(b.scopeChanges.map(\.delta) == [1])
  }

  @Test func autoUnitIsCountWithoutEstimates() throws {
    let events: [Event] = [
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("A"))),
      M.event(
        "2026-10-30T09:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A"]))),
    ]
    let b = try Self.burndown(events, at: "2026-11-03T12:00:00Z")
    #expect(b.unit == .count)
    #expect(b.committed == 1)
    let p = try Self.burndown(events, at: "2026-11-03T12:00:00Z", unit: .points)
    #expect(p.unestimated == 1)
    #expect(p.committed == 0)
  }

  @Test func holidayIsNotWorkingAndFlattensTheGuideline() throws {
    var events = Self.workedExample
    events[4] = M.event(
      "2026-10-30T10:00:00Z",
      .sprintCreated(
        M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A", "B", "C"], holidays: ["2026-11-11"])))
    let b = try Self.burndown(events, at: "2026-11-06T12:00:00Z")
    #expect(b.working[9] == false)
    // W_total = 9: the guideline drops by 10/9 per working day and is flat on the holiday.
    #expect(abs(b.ideal[0] - 10 * (1 - 1.0 / 9)) < 1e-9)
    #expect(b.ideal[8] == b.ideal[9])
    #expect(b.ideal[11] == 0)
    #expect(b.daysLeft == 4)
  }

  @Test func weekendOfADifferentTeam() throws {
    var sprint = M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A"])
    sprint.nonWorkingDays = [.fri, .sat]
    let events: [Event] = [
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("A", points: 4))),
      M.event("2026-10-30T09:00:00Z", .sprintCreated(sprint)),
    ]
    let b = try Self.burndown(events, at: "2026-11-03T12:00:00Z")
    #expect(b.working == [true, true, true, true, false, false, true, true, true, true, true, false])
  }

  @Test func dayBoundariesInTheSprintTimeZone() throws {
    // Auckland is UTC+13 in November: 2026-11-03T03:30Z is 16:30 local on the 3rd, and
    // 2026-11-03T12:30Z is 01:30 on the 4th. Honolulu (UTC-10): 03:30Z is 17:30 on the 2nd.
    let events: [Event] = [
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("A", points: 2))),
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("B", points: 3))),
      M.event(
        "2026-10-30T10:00:00Z",
        .sprintCreated(
          M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A", "B"], timeZone: "Pacific/Honolulu"))),
      M.status("2026-11-03T03:30:00Z", "A", "done"),
    ]
    let b = try Self.burndown(events, at: "2026-11-05T12:00:00Z")
    #expect(b.zone.identifier == "Pacific/Honolulu")
    #expect(b.remaining.prefix(4) == [3, 3, 3, 3], "03:30 UTC on the 3rd belongs to the 2nd in Honolulu")
    #expect(b.committed == 5)

    // In UTC the same event belongs to the 3rd.
    var utcEvents = events
    utcEvents[2] = M.event(
      "2026-10-30T10:00:00Z",
      .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A", "B"])))
    let u = try Self.burndown(utcEvents, at: "2026-11-05T12:00:00Z")
    #expect(u.remaining.prefix(4) == [5, 3, 3, 3])
  }

  @Test func boardZoneAppliesWhenTheSprintNamesNone() throws {
    let events: [Event] = [
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("A", points: 2))),
      M.event(
        "2026-10-30T10:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["A"]))),
      M.status("2026-11-03T03:30:00Z", "A", "done"),
    ]
    let b = try Self.burndown(events, at: "2026-11-05T12:00:00Z", zone: try #require(Zone("America/Los_Angeles")))
    // 03:30Z on the 3rd is 19:30 on the 2nd in Los Angeles: done by the end of day 0.
    #expect(b.remaining[0] == 0)
  }

  @Test func estimateChangeIsAScopeChangeNotBurn() throws {
    var patch = FeaturePatch(id: "A")
    patch.points = .some(5)
    let events = Self.workedExample + [M.event("2026-11-06T10:00:00Z", .featureUpdated(patch))]
    let b = try Self.burndown(events, at: "2026-11-06T12:00:00Z")
    #expect(b.remaining[4] == 15)
    #expect(b.scopeChanges.last.map { "\($0.featureId) \($0.delta) \($0.kind)" } == "A 2.0 estimate")
    #expect(b.ideal[0] == 9, "the guideline never moves")
  }

  @Test func removalByScopeChange() throws {
    let events =
      Self.workedExample + [
        M.event("2026-11-06T10:00:00Z", .sprintScopeChanged(sprintId: "s1", added: [], removed: ["C"]))
      ]
    let b = try Self.burndown(events, at: "2026-11-06T12:00:00Z")
    #expect(b.remaining[4] == 11)
    #expect(b.scope[4] == 16)
    #expect(
      b.scopeChanges.last.map { "\($0.date) \($0.featureId) \($0.delta) \($0.kind)" } == "2026-11-06 C -2.0 removed")
  }

  @Test func removalByDroppingTheSprintLabel() throws {
    let events: [Event] = [
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("A", points: 3, labels: ["sprint:s1", "ui"]))),
      M.event("2026-10-30T09:00:00Z", .featureCreated(M.feature("B", points: 5, labels: ["sprint:s1"]))),
      M.event("2026-10-30T10:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13"))),
      M.event("2026-11-02T08:00:00Z", .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch())),
      M.event(
        "2026-11-04T10:00:00Z",
        .featureUpdated(
          {
            var p = FeaturePatch(id: "A"); p.labels = ["ui"]; return p
          }())),
    ]
    let b = try Self.burndown(events, at: "2026-11-05T12:00:00Z")
    #expect(b.committed == 8)
    #expect(b.remaining.prefix(4) == [8, 8, 5, 5])
    #expect(b.scopeChanges.map { "\($0.date) \($0.featureId) \($0.delta) \($0.kind)" } == ["2026-11-04 A -3.0 removed"])
  }

  @Test func cancelledFeatureCountsAsCompleted() throws {
    let events = Self.workedExample + [M.status("2026-11-06T09:00:00Z", "A", "cancelled")]
    let b = try Self.burndown(events, at: "2026-11-06T12:00:00Z")
    #expect(b.remaining[4] == 10)
    #expect(b.completed[4] == 8)
    #expect(b.scopeChanges.count == 1, "completion is burn, not a scope change")
  }

  @Test func sprintRunningPastItsEndDate() throws {
    let b = try Self.burndown(Self.workedExample, at: "2026-11-17T09:00:00Z")
    #expect(b.days.count == 16)
    #expect(b.days.last == M.d("2026-11-17"))
    #expect(b.ideal.suffix(4) == [0, 0, 0, 0])
    #expect(b.remaining.last == 13)
    #expect(b.daysLeft == 0)
  }

  @Test func closedSprintEndsAtItsCloseDate() throws {
    let events = Self.workedExample + [M.event("2026-11-16T17:00:00Z", .sprintClosed(id: "s1", closedAt: nil))]
    let b = try Self.burndown(events, at: "2026-11-20T09:00:00Z")
    #expect(b.days.last == M.d("2026-11-16"))
  }

  @Test func beforeTheStartNothingIsDrawnYet() throws {
    let b = try Self.burndown(Array(Self.workedExample.prefix(5)), at: "2026-10-31T09:00:00Z")
    #expect(b.remaining.allSatisfy { $0 == nil })
    #expect(b.committed == 10, "committed is measured at the planned start")
    #expect(b.todayIndex == nil)
  }

  @Test func deletedMemberIsARemoval() throws {
    let events = Self.workedExample + [M.event("2026-11-06T09:00:00Z", .featureDeleted(id: "C"))]
    let b = try Self.burndown(events, at: "2026-11-06T12:00:00Z")
    #expect(b.remaining[4] == 11)
    #expect(b.scopeChanges.last?.kind == .removed)
  }
}

@Suite("Burndown of a board that joined late")
struct LateJoinTests {
  typealias M = Make

  @Test func daysBeforeTheFirstRecordAreUnknownNotZero() throws {
    let snapshot = BoardSnapshot(
      features: [M.feature("A", points: 3), M.feature("B", status: "done", points: 5)],
      sprints: [
        Sprint(
          id: "s1", name: "S1", startDate: M.d("2026-11-02"), endDate: M.d("2026-11-13"), featureIds: ["A", "B"],
          startedAt: M.t("2026-11-02T08:00:00Z"))
      ], activeSprintId: "s1")
    let s = M.state([M.event("2026-11-05T10:00:00Z", .boardSnapshot(snapshot))])
    let b = Burndown.compute(
      state: s, sprint: try #require(s.activeSprint()), at: M.t("2026-11-06T12:00:00Z"), boardZone: .utc)
    #expect(b.remaining.prefix(5) == [nil, nil, nil, 3, 3])
    #expect(b.committed == 8, "the first known total stands in for the unknown start")
  }
}

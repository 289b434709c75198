import Projections
import TestSupport
import Testing
import WallboardCore

@Suite("Aging work in progress and cycle time")
struct AgingTests {
  typealias S = Stuck

  static let upstream = BoardSettings(workflow: .upstream)

  @Test func listsActiveWorkOldestStretchFirst() {
    var s = Make.state(
      [
        // Through review and back: in its state since the 5th, at work since the 1st.
        S.create("2026-11-01T00:00:00Z", "A", project: "p1"),
        S.move("2026-11-01T12:00:00Z", "A", project: "p1", "in-progress"),
        S.move("2026-11-03T00:00:00Z", "A", project: "p1", "in-review"),
        S.move("2026-11-04T00:00:00Z", "A", project: "p1", "needs-edits"),
        S.move("2026-11-05T00:00:00Z", "A", project: "p1", "in-progress"),
        // Back to todo in between: the stretch starts again on the 6th.
        S.create("2026-10-01T00:00:00Z", "B", project: "p2"),
        S.move("2026-10-02T00:00:00Z", "B", project: "p2", "in-progress"),
        S.move("2026-11-03T00:00:00Z", "B", project: "p2", "todo"),
        S.move("2026-11-06T00:00:00Z", "B", project: "p2", "in-progress"),
        // A legacy status, upstream's alias of in-testing.
        S.create("2026-11-02T00:00:00Z", "C", project: "p1", status: "ready-for-testing"),
        // Same id in another project, not active.
        S.create("2026-11-02T00:00:00Z", "A", project: "p2", status: "todo"),
        S.create("2026-10-02T00:00:00Z", "D", project: "p1", status: "done"),
        // Without history: its updatedAt.
        S.create("2026-11-07T00:00:00Z", "E", project: "p1", status: "in-docs"),
      ], from: BoardState(settings: Self.upstream))
    s.history[S.key("p1", "E")] = nil
    s.features[S.key("p1", "E")]!.updatedAt = Make.t("2026-10-31T00:00:00Z")
    let items = Aging.compute(state: s)
    #expect(items.map(\.key) == [S.key("p1", "E"), S.key("p1", "A"), S.key("p1", "C"), S.key("p2", "B")])
    let a = items[1]
    #expect(a.status == "in-progress")
    #expect(a.stateSince == Make.t("2026-11-05T00:00:00Z"))
    #expect(a.workSince == Make.t("2026-11-01T12:00:00Z"))
    let at = Make.t("2026-11-08T00:00:00Z")
    #expect(a.stateTenths(at: at) == 30)
    #expect(a.workTenths(at: at) == 65)
    // Rounded down, never below 0.
    #expect(a.workTenths(at: Instant(millis: at.millis - 1)) == 64)
    #expect(a.stateTenths(at: Make.t("2026-11-04T00:00:00Z")) == 0)
    #expect(items[3].workSince == Make.t("2026-11-06T00:00:00Z"))
    #expect(items[0].stateSince == Make.t("2026-10-31T00:00:00Z") && items[0].workSince == items[0].stateSince)
    #expect(items[2].status == "ready-for-testing")
    // needs-edits is upstream's active work.
    let back = Make.state([S.move("2026-11-07T00:00:00Z", "A", project: "p1", "needs-edits")], from: s)
    #expect(Aging.compute(state: back).first { $0.key == S.key("p1", "A") }?.workSince == a.workSince)
  }

  /// Features done at known cycle times (days), relative to the board's moment.
  static let at = Make.t("2026-11-30T00:00:00Z")

  static func cycles() -> BoardState {
    var events: [Event] = []
    // Cycle times 1, 2, 3, 4 and 10 days, done between the 20th and the 29th.
    for (i, cycle) in [1, 2, 3, 4, 10].enumerated() {
      let done = 20 + i * 2
      events += [
        S.create("2026-10-01T00:00:00Z", "F\(i)", project: "p1"),
        S.move(String(format: "2026-11-%02dT00:00:00Z", done - cycle), "F\(i)", project: "p1", "in-progress"),
        S.move(String(format: "2026-11-%02dT00:00:00Z", done), "F\(i)", project: "p1", "done"),
      ]
    }
    events += [
      // Done 100 days ago: outside the window.
      S.create("2026-07-01T00:00:00Z", "OLD", project: "p1"),
      S.move("2026-08-01T00:00:00Z", "OLD", project: "p1", "in-progress"),
      S.move("2026-08-22T00:00:00Z", "OLD", project: "p1", "done"),
      // Never in active work: no sample.
      S.create("2026-11-01T00:00:00Z", "SKIP", project: "p1"),
      S.move("2026-11-10T00:00:00Z", "SKIP", project: "p1", "done"),
      // A step back to todo on the way stays within the stretch: 6 days from the 1st entry.
      S.create("2026-11-01T00:00:00Z", "BACK", project: "p2"),
      S.move("2026-11-10T00:00:00Z", "BACK", project: "p2", "in-progress"),
      S.move("2026-11-12T00:00:00Z", "BACK", project: "p2", "todo"),
      S.move("2026-11-16T00:00:00Z", "BACK", project: "p2", "done"),
    ]
    return Make.state(events, from: BoardState(settings: Self.upstream))
  }

  @Test func cycleTimeIsNearestRankOverTheWindow() {
    let c = Aging.cycleTime(state: Self.cycles(), at: Self.at, zone: .utc)
    // Samples 1, 2, 3, 4, 6, 10: P50 rank 3, P85 rank ⌈5.1⌉ = 6.
    #expect(c == CycleTime(p50Days: 3, p85Days: 10, samples: 6, windowDays: 90))
    // A window that reaches OLD (done 100 days before): 21 days joins them.
    let wide = Aging.cycleTime(state: Self.cycles(), at: Self.at, zone: .utc, windowDays: 101)
    #expect(wide == CycleTime(p50Days: 4, p85Days: 10, samples: 7, windowDays: 101))
    #expect(
      Aging.cycleTime(state: BoardState(), at: Self.at, zone: .utc)
        == CycleTime(p50Days: nil, p85Days: nil, samples: 0, windowDays: 90))
  }

  @Test func passiveStopsOnTheWayCountInTheSeedWorkflow() {
    let s = Make.state([
      Make.event("2026-11-01T00:00:00Z", .featureCreated(Make.feature("A"))),
      Make.status("2026-11-02T00:00:00Z", "A", "in-docs"),
      Make.status("2026-11-03T00:00:00Z", "A", "documented"),
      Make.status("2026-11-04T00:00:00Z", "A", "in-review"),
      Make.status("2026-11-04T12:00:00Z", "A", "done"),
    ])
    let c = Aging.cycleTime(state: s, at: Self.at, zone: .utc)
    #expect(c.samples == 1 && c.p50Days == 2.5 && c.p85Days == 2.5)
  }

  @Test func pastP85IsStrictlyOlderThanP85AsShown() {
    // Both as the board shows them: the age in tenths of a day rounded down, P85 to a tenth.
    let c = CycleTime(p50Days: 2, p85Days: 5, samples: 9, windowDays: 90)
    let item = AgingItem(
      key: "A", title: "", assignee: nil, status: "in-progress", stateSince: nil,
      workSince: Make.t("2026-11-01T00:00:00Z"))
    #expect(!AgingItem.pastP85(item, cycleTime: c, at: Make.t("2026-11-06T00:00:00Z")))
    #expect(!AgingItem.pastP85(item, cycleTime: c, at: Make.t("2026-11-06T02:23:59.999Z")), "5.0 d is not past 5")
    #expect(AgingItem.pastP85(item, cycleTime: c, at: Make.t("2026-11-06T02:24:00Z")), "5.1 d is")
    #expect(item.p85Crossing(cycleTime: c, at: Make.t("2026-11-06T00:00:00Z")) == Make.t("2026-11-06T02:24:00Z"))
    // A P85 of 9.46 d reads 9.5: 9.5 d in progress is not past it, 9.6 d is.
    let c946 = CycleTime(p50Days: 2, p85Days: 9.46, samples: 9, windowDays: 90)
    #expect(!AgingItem.pastP85(item, cycleTime: c946, at: Make.t("2026-11-10T12:00:00Z")))
    #expect(AgingItem.pastP85(item, cycleTime: c946, at: Make.t("2026-11-10T14:24:00Z")))
    #expect(!item.pastP85(cycleTime: CycleTime(p50Days: nil, p85Days: nil, samples: 0, windowDays: 90), at: Self.at))
    var unknown = item
    unknown.workSince = nil
    #expect(!unknown.pastP85(cycleTime: c, at: Self.at))
  }
}

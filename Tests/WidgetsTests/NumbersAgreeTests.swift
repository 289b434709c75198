import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets

/// "Done" is the done state, and a number never disagrees with the one beside it.
@Suite("Numbers that agree")
struct NumbersAgreeTests {
  typealias M = Make

  /// 21 members: 14 done (2 points each), 1 rejected (6 points), 6 to do (1 point each = 15 left
  /// with the rejected one's points out of the remaining).
  static func board() -> BoardState {
    var events: [Event] = [
      M.event(
        "2026-11-02T08:00:00Z",
        .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: (1...21).map { "F\($0)" })))
    ]
    for i in 1...21 {
      let (status, points): (String, Double) = i <= 14 ? ("done", 2) : i == 15 ? ("rejected", 6) : ("todo", 1)
      events.append(
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("F\(i)", status: status, points: points))))
    }
    return M.state(events)
  }

  static func frame() -> FrameModel {
    FrameModel(
      state: board(), at: M.t("2026-11-05T12:00:00Z"), now: M.t("2026-11-05T12:00:00Z"), zone: .utc, unit: .auto)
  }

  @Test func progressSaysDoneApartFromRejected() {
    let p = Self.frame().progress
    #expect(p.total == 21)
    #expect(p.done == 14)
    #expect(p.completed == 15)
    #expect(p.closed.map(\.state) == ["rejected"])
    #expect(ProgressText.summary(p) == "14 of 21 done · 1 rejected")
    #expect(ProgressText.donePercent(p) == "67%", "the ring's number agrees with 14 of 21")
    let tallies = Self.frame().tallies
    #expect(tallies.first { $0.state == "done" }?.count == p.done, "the Done tally is the done count")
  }

  @Test func theKeyNumbersShareOneUnitAndAddUpToTheScope() throws {
    let frame = Self.frame()
    let m = NumbersWidget().model(frame)
    #expect(m.items.map(\.label) == ["points left", "points done · 6 rejected", "working days left"])
    let b = try #require(frame.burndown)
    let scope = try #require(b.scope.compactMap { $0 }.last)
    let left = try #require(Double(m.items[0].value))
    let done = try #require(Double(m.items[1].value))
    #expect(left == 6)
    #expect(done == 28)
    #expect(left + done + 6 == scope)
  }

  @Test func withoutEstimatesTheNumbersCountFeatures() {
    let frame = FrameModel(
      state: M.state([
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("A", status: "done"))),
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("B", status: "cancelled"))),
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("C", status: "todo"))),
      ]), at: M.t("2026-11-05T12:00:00Z"), now: M.t("2026-11-05T12:00:00Z"), zone: .utc, unit: .auto)
    let m = NumbersWidget().model(frame)
    // No sprint: the third number is the flow's throughput (nobody saw A enter done: 0 a day).
    // One of each: "1 feature left", never "1 features left" (issue 20, item 13).
    #expect(m.items.map(\.value) == ["1", "1", "0"])
    #expect(m.items.map(\.label) == ["feature left", "feature done · 1 cancelled", "done per day"])
  }
}

/// A source's age says when its data last changed, not merely when it was last heard.
@Suite("Freshness of what a source delivered")
struct FreshnessTests {
  typealias M = Make

  @Test func aFollowedFileWithHoursOldEventsDoesNotReadAsJustUpdated() throws {
    let now = M.t("2026-11-05T15:00:00Z")
    var s = BoardState()
    // Read just now (received at `now`), but the events happened hours ago.
    Reducer.reduce(into: &s, .connection(origin: "jsonl:team.jsonl", status: .live, at: now, detail: nil))
    Reducer.reduce(
      into: &s,
      Event(
        origin: "jsonl:team.jsonl", time: M.t("2026-11-05T11:40:00Z"), receivedAt: now,
        body: .featureCreated(M.feature("A"))))
    // A heartbeat later proves the file is followed but changes no data.
    Reducer.reduce(
      into: &s, Event(origin: "jsonl:team.jsonl", time: now, receivedAt: now, body: .heartbeat))
    let frame = FrameModel(state: s, at: now, now: now, zone: .utc, unit: .auto)
    let row = try #require(frame.sources.first)
    #expect(row.status == .live)
    #expect(row.age == "updated 3 h ago")
  }

  @Test func aSourceWithNoDataYetSaysWhenItWasHeard() throws {
    let now = M.t("2026-11-05T15:00:00Z")
    var s = BoardState()
    Reducer.reduce(
      into: &s, .connection(origin: "orchestra://h:1", status: .live, at: M.t("2026-11-05T14:59:58Z"), detail: nil))
    let row = try #require(FrameModel(state: s, at: now, now: now, zone: .utc, unit: .auto).sources.first)
    #expect(row.age == "heard 2 s ago")
  }

  @Test func aGapSaysWhichNumbersDidNotArriveNotThatEventsWereLost() {
    #expect(SourceRow.gapText(5...5) == "seq 5 not received; waiting for a snapshot")
    #expect(SourceRow.gapText(5...7) == "seq 5–7 not received; waiting for a snapshot")
  }
}

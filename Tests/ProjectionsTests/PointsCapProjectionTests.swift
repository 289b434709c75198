import Projections
import TestSupport
import Testing
import WallboardCore

/// Issue 9, item 1, where the board counts: features that reach the reducer without the event
/// decoder (orchestra-db builds them from database rows) are held to the points cap too, so
/// totals stay finite.
@Suite("Points capped where they are counted")
struct PointsCapProjectionTests {
  typealias M = Make

  @Test func featuresWithOddPointsCountAsUnestimated() throws {
    let odd: [(Double?, String?)] = [
      (.infinity, nil), (.nan, nil), (1e308, nil), (-1, nil), (nil, "1e308"), (nil, "0x10"), (nil, "inf"),
      (nil, "1000001"),
    ]
    // Created before the sprint starts (08:00), so that they are its commitment.
    var events: [Event] = odd.enumerated().map { i, p in
      M.event("2026-11-02T07:00:00Z", .featureCreated(M.feature("F\(i)", points: p.0, estimate: p.1)))
    }
    events.append(M.event("2026-11-02T07:00:00Z", .featureCreated(M.feature("OK", points: 5))))
    let ids = events.compactMap { e -> String? in if case .featureCreated(let f) = e.body { f.id } else { nil } }
    events.append(
      M.event(
        "2026-10-30T10:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ids))))
    events.append(M.event("2026-11-02T08:00:00Z", .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch())))
    let state = M.state(events)
    let sprint = try #require(state.activeSprint())
    let scope = BoardScope(state: state, sprint: sprint)
    let progress = Progress.compute(state: state, scope: scope)
    #expect(progress.total == odd.count + 1)
    #expect(progress.totalPoints == 5)
    #expect(Tally.compute(state: state, scope: scope).map(\.points).reduce(0, +) == 5)
    let b = Burndown.compute(state: state, sprint: sprint, at: M.t("2026-11-06T12:00:00Z"), boardZone: .utc)
    #expect(b.unit == .points)
    #expect(b.committed == 5)
    #expect(b.unestimated == odd.count)
    #expect(b.remaining.compactMap { $0 }.allSatisfy { $0 == 5 })
  }
}

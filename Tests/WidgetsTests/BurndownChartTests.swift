import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets
import ZoneFiles

/// The burndown says what happened: steps at the moments work changed, scope changes apart from
/// burn, on their own day, an axis that fits, a legend.
@Suite("The burndown chart")
struct BurndownChartTests {
  typealias M = Make

  /// A sprint in Honolulu: A done, B re-estimated, C added and D removed, all on the 25th local.
  static func events() -> [Event] {
    [
      M.event("2026-11-20T09:00:00Z", .featureCreated(M.feature("A", points: 20))),
      M.event("2026-11-20T09:00:00Z", .featureCreated(M.feature("B", points: 20))),
      M.event("2026-11-20T09:00:00Z", .featureCreated(M.feature("C", points: 5))),
      M.event("2026-11-20T09:00:00Z", .featureCreated(M.feature("D", points: 11))),
      M.event(
        "2026-11-20T10:00:00Z",
        .sprintCreated(
          M.sprint(
            "s1", start: "2026-11-23", end: "2026-12-04", members: ["A", "B", "D"], timeZone: "Pacific/Honolulu"))),
      // 11:00 on the 25th in Honolulu (UTC−10) is 21:00Z on the 25th.
      M.status("2026-11-25T21:00:00Z", "A", "done"),
      // Re-estimated at 22:00 local on the 25th = 08:00Z on the 26th.
      M.event(
        "2026-11-26T08:00:00Z",
        .featureUpdated(
          {
            var p = FeaturePatch(id: "B"); p.points = 25; return p
          }())),
      M.event("2026-11-26T08:30:00Z", .sprintScopeChanged(sprintId: "s1", added: ["C"], removed: ["D"])),
    ]
  }

  static func burndown(at: String = "2026-11-27T00:00:00Z") throws -> Burndown {
    let s = M.state(events())
    let sprint = try #require(s.sprints["s1"])
    return Burndown.compute(state: s, sprint: sprint, at: M.t(at), boardZone: .utc, sprintZones: ZoneBook.read(for: s))
  }

  @Test func stepsAreTheMomentsWorkChangedScopeApartFromBurn() throws {
    let b = try Self.burndown()
    #expect(b.steps.map(\.kind) == [.burn, .estimate, .added, .removed], "one moment: by feature id")
    #expect(b.steps.map(\.remainingDelta) == [-20, 5, 5, -11])
    #expect(
      b.steps.map(\.at) == [
        M.t("2026-11-25T21:00:00Z"), M.t("2026-11-26T08:00:00Z"), M.t("2026-11-26T08:30:00Z"),
        M.t("2026-11-26T08:30:00Z"),
      ])
    #expect(b.startScope == 51)
    let last = try #require(b.steps.last)
    #expect(last.remaining == b.remaining.compactMap { $0 }.last, "the steps end where the daily series does")
    #expect(last.scope == b.scope.compactMap { $0 }.last)
    // Every scope step is a scope change of the projection, with the same delta.
    #expect(b.steps.filter { $0.kind != .burn }.map(\.scopeDelta) == b.scopeChanges.map(\.delta))
  }

  @Test func aChangeSitsOnItsOwnDayInTheSprintsZone() throws {
    let b = try Self.burndown()
    let day25 = try #require(b.days.firstIndex(of: M.d("2026-11-25")))
    let done = BurndownWidget.dayPosition(of: M.t("2026-11-25T21:00:00Z"), in: b)
    #expect(done == Double(day25) + 11.0 / 24)
    let estimate = BurndownWidget.dayPosition(of: M.t("2026-11-26T08:00:00Z"), in: b)
    #expect(estimate >= Double(day25) && estimate < Double(day25 + 1), "22:00 local on the 25th is on the 25th")
    #expect(b.scopeChanges.allSatisfy { $0.date == M.d("2026-11-25") })
  }

  @Test(arguments: [(51.0, 60.0, 10.0), (5, 5, 1), (7, 8, 2), (100, 100, 20), (1, 1, 0.2), (0, 1, 0.2), (36, 40, 10)])
  func theAxisFitsTheData(value: Double, top: Double, step: Double) {
    let axis = BurndownWidget.niceAxis(value)
    #expect(axis.max == top)
    #expect(axis.step == step)
    #expect(axis.ticks <= 6)
  }

  static func drawn(_ mode: BurndownWidget.Mode) throws -> [String] {
    let s = M.state(events())
    let frame = FrameModel(
      state: s, at: M.t("2026-11-27T00:00:00Z"), now: M.t("2026-11-27T00:00:00Z"), zone: .utc, unit: .auto)
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var canvas = Canvas(width: 960, height: 600)
    let w = BurndownWidget(mode: mode)
    w.draw(
      w.model(frame), in: Rect(x: 0, y: 0, width: 960, height: 600), style: Fixtures.style("orchestra", height: 1080),
      painter: &painter, canvas: &canvas)
    return painter.records.map(\.text)
  }

  @Test func everyLineIsNamedAndScopeMarkersShowPlusAndMinusApart() throws {
    let burndown = try Self.drawn(.burndown)
    #expect(burndown.contains("Remaining"))
    #expect(burndown.contains("Ideal"))
    #expect(burndown.contains("Scope change"))
    #expect(burndown.contains("+10"), "B +5 and C +5 on the 25th: one marker")
    #expect(burndown.contains("−11"), "D removed on the 25th: a marker of its own")
    #expect(burndown.contains("60"), "51 points: the axis ends at 60")
    #expect(!burndown.contains("100"))
    let burnup = try Self.drawn(.burnup)
    #expect(burnup.contains("Scope"))
    #expect(burnup.contains("Completed"))
  }
}

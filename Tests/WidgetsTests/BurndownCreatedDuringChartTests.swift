import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// A declared sprint whose work was all created during it, as a workspace read after the fact
/// tells it: the chart's guideline starts from what existed at the start (nothing), and the work
/// comes in as scope added, marked on its day — the numbers `inspect` reports.
@Suite("The burndown chart of work created during the sprint")
struct BurndownCreatedDuringChartTests {
  typealias M = Make

  static let at = M.t("2026-03-10T15:00:00Z")

  /// Sprint Mon 03-02 … Fri 03-13, declared; 42 points created on Sat 03-07, 14 of them done by
  /// 03-10, and 5 more created on Mon 03-09.
  static func frame() -> FrameModel {
    let sprint = Sprint(
      id: "s1", name: "Sprint 1", startDate: M.d("2026-03-02"), endDate: M.d("2026-03-13"), membershipLabel: "team",
      activation: .dates)
    var features: [Feature] = []
    var history: [FeatureKey: [StatusMove]] = [:]
    for (i, id) in ["A", "B", "C", "D", "E", "F", "G"].enumerated() {
      let created = i < 6 ? "2026-03-07T10:00:00Z" : "2026-03-09T14:00:00Z"
      var f = M.feature(id, status: i < 2 ? "done" : "todo", points: i < 6 ? 7 : 5, labels: ["team"])
      f.createdAt = M.t(created)
      features.append(f)
      history[f.key] = [StatusMove(at: M.t(created), status: "todo")]
    }
    history["A"]!.append(StatusMove(at: M.t("2026-03-09T11:00:00Z"), status: "done"))
    history["B"]!.append(StatusMove(at: M.t("2026-03-10T09:00:00Z"), status: "done"))
    let s = M.state([
      M.event("2026-03-10T12:00:00Z", .boardSnapshot(BoardSnapshot(sprints: [sprint])), origin: "declared"),
      M.event(
        "2026-03-10T12:00:00Z", .boardSnapshot(BoardSnapshot(features: features, history: history)),
        origin: "orchestra-db:/ws"),
    ])
    var frame = FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
    // The forecast pinned (none drawn): this chart is about the work created during the sprint.
    frame.forecast = .sprintDone
    return frame
  }

  static func draw(_ mode: BurndownWidget.Mode = .burndown) -> (Canvas, [String]) {
    let style = Fixtures.style("orchestra", height: 1080)
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var canvas = Canvas(width: 960, height: 600, background: style.theme.bg)
    let w = BurndownWidget(mode: mode)
    w.draw(
      w.model(frame()), in: Rect(x: 0, y: 0, width: 960, height: 600), style: style, painter: &painter,
      canvas: &canvas)
    return (canvas, painter.records.map(\.text))
  }

  @Test func theGuidelineStartsFromWhatExistedAndTheWorkIsMarkedAsAdded() throws {
    let b = try #require(Self.frame().burndown)
    #expect(b.committed == 0)
    #expect(b.startScope == 0, "the line starts from the commitment")
    #expect(b.ideal.allSatisfy { $0 == 0 })
    #expect(b.scopeChanges.map(\.delta).reduce(0, +) == 47)
    let (_, texts) = Self.draw()
    #expect(texts.contains("Scope change"))
    #expect(texts.contains("+42"), "one marker for Saturday's 42 points: \(texts)")
    #expect(texts.contains("+5"), "and one for Monday's 5")
  }

  @Test func golden() {
    let (burndown, _) = Self.draw()
    Golden.check(burndown, named: "widget-burndown-created-during-orchestra-960x600", directory: Fixtures.goldens)
    let (burnup, _) = Self.draw(.burnup)
    Golden.check(burnup, named: "widget-burndown-created-during-burnup-orchestra-960x600", directory: Fixtures.goldens)
  }
}

import Projections
import Raster
import TestSupport
import Testing
import Themes
import WallboardCore
import Widgets

/// What the attention, aging and agents widgets say, made from the projections' lists at a
/// frame's time, and that they say it legibly in every bundled theme.
@Suite("The work widgets")
struct WorkWidgetsTests {
  static let at = Make.t("2026-11-11T15:00:00Z")
  static let day: Int64 = 86_400_000
  static func ago(_ ms: Int64) -> Instant { Instant(millis: at.millis - ms) }
  static func key(_ id: String) -> FeatureKey { FeatureKey(project: nil, id: id) }

  static let cycle = CycleTime(p50Days: 4, p85Days: 9.5, samples: 23, windowDays: 90)
  static let aging = [
    AgingItem(
      key: key("OLD"), title: "Export", assignee: nil, status: "in-testing", stateSince: ago(2 * day),
      workSince: ago(12 * day)),
    AgingItem(
      key: key("NEW"), title: "Search", assignee: nil, status: "in-progress", stateSince: ago(day / 2),
      workSince: ago(day / 2)),
    AgingItem(
      key: key("ODD"), title: "Odd", assignee: nil, status: "needs-edits", stateSince: ago(3 * day),
      workSince: ago(3 * day)),
  ]
  static let locks = [
    AgentRow(
      lock: AgentLock(feature: key("NEW"), session: "a1b2c3d4e5f6", lockedAt: ago(60_000), since: ago(2 * 3_600_000)),
      title: "Search", status: "in-progress"),
    AgentRow(
      lock: AgentLock(feature: key("GONE"), session: "0badc0de99", lockedAt: ago(70 * 60_000)), title: nil,
      status: nil),
  ]
  static let blocked = [
    BlockedItem(
      key: key("B"), title: "Checkout", assignee: "ana", status: "todo", waitsOn: [key("X"), key("Y")], since: nil)
  ]
  static let rework = [
    ReworkItem(key: key("R1"), title: "Once", assignee: nil, times: 1, since: nil),
    ReworkItem(key: key("R2"), title: "Twice", assignee: nil, times: 2, since: nil),
  ]

  static func attention(at: Instant = at) -> AttentionModel {
    AttentionModel(
      blocked: blocked, rework: rework, aging: aging, cycleTime: cycle, agents: locks, state: BoardState(), at: at)
  }

  @Test func attentionListsEachKindMostUrgentFirstWithItsWords() {
    let m = Self.attention()
    #expect(
      m.rows.map(\.line) == [
        "blocked  Checkout (B): waits on X, Y",
        "lapsed  GONE: lock lapsed 40 min ago",
        "aging  Export (OLD): 12 d in progress",
        "rework  Twice (R2): back 2×",
        "rework  Once (R1): back 1×",
      ])
    #expect(m.summary == "1 blocked · 1 lapsed · 1 aging · 2 rework")
    let none = AttentionModel(
      blocked: [], rework: [], aging: [], cycleTime: Self.cycle, agents: [], state: BoardState(), at: Self.at)
    #expect(none.rows.isEmpty && none.summary.isEmpty)
  }

  @Test func aFeatureMarkedBlockedThatWaitsOnNothingSaysSo() {
    // The seed's `blocked` status without an undone dependency: no empty "waits on".
    let marked = BlockedItem(
      key: Self.key("M"), title: "Stuck", assignee: nil, status: "blocked", waitsOn: [], since: nil)
    let m = AttentionModel(
      blocked: [marked], rework: [], aging: [], cycleTime: Self.cycle, agents: [], state: BoardState(), at: Self.at)
    #expect(m.rows.map(\.line) == ["blocked  Stuck (M): marked blocked"])
  }

  @Test func withoutACycleTimeNothingIsPastP85() {
    let none = CycleTime(p50Days: nil, p85Days: nil, samples: 0, windowDays: 90)
    let m = AttentionModel(
      blocked: [], rework: [], aging: Self.aging, cycleTime: none, agents: [], state: BoardState(), at: Self.at)
    #expect(m.rows.isEmpty)
    let chart = AgingChart(items: Self.aging, cycleTime: none, state: BoardState(), at: Self.at)
    #expect(!chart.dots.contains { $0.pastP85 })
    #expect(AgingText.cycleTime(none) == "no cycle time yet")
    #expect(AgingText.cycleTime(Self.cycle) == "P50 4 d · P85 9.5 d (23 done in 90 d)")
  }

  @Test func theAgingChartHasAColumnPerActiveStateInWorkflowOrder() {
    let chart = AgingChart(items: Self.aging, cycleTime: Self.cycle, state: BoardState(), at: Self.at)
    // The seed workflow's four active states, and needs-edits (not of it) after them.
    #expect(chart.columns.map(\.state) == ["in-progress", "in-testing", "in-docs", "in-review", "needs-edits"])
    #expect(chart.dots.map(\.featureId) == ["OLD", "NEW", "ODD"])
    #expect(chart.dots.map(\.column) == [1, 0, 4])
    #expect(chart.dots.map(\.days) == [12, 0.5, 3])
    #expect(chart.dots.map(\.pastP85) == [true, false, false])
    #expect(chart.oldest?.featureId == "OLD")
  }

  @Test func theAgentsStripSaysTheSessionTheHoldAndALapse() {
    let rows = Self.locks.map { AgentStripRow($0, state: BoardState(), at: Self.at) }
    #expect(rows.map(\.line) == ["a1b2c3d4  Search (NEW)  for 2 h", "0badc0de  GONE  lapsed 40 min ago"])
    #expect(rows.map(\.lapsed) == [false, true])
  }

  /// Every text the new widgets draw, filled and empty, at 4.5:1 or more in every theme.
  @Test(arguments: Fixtures.catalog.themes.map(\.id))
  func everyTextReadsInEveryTheme(theme: String) throws {
    var empty = Fixtures.frame()
    empty.attention = AttentionModel(rows: [])
    empty.agents = []
    empty.aging = AgingChart(
      columns: [], dots: [], cycleTime: CycleTime(p50Days: nil, p85Days: nil, samples: 0, windowDays: 90))
    var records: [Painter.Record] = []
    var kinds = 0
    for kind in ["attention", "aging", "agents", "burndown", "header"] {
      for frame in [Fixtures.filledFrame(), empty] {
        var painter = Painter(text: Fixtures.text())
        painter.recording = true
        var renderer = BoardRenderer(layout: try Fixtures.single(kind), painter: painter)
        let style = Fixtures.style(theme, height: 1080)
        var canvas = Canvas(width: 960, height: 600, background: style.theme.bg)
        renderer.render(frame, style: style, into: &canvas)
        records += renderer.painter.records
        kinds += 1
      }
    }
    #expect(kinds == 10)
    #expect(records.contains { $0.text.contains("waits on FEAT-3") })
    #expect(records.contains { $0.text.contains("P85 9.5 d") })
    #expect(records.contains { $0.text.contains("lapsed 40 min ago") })
    #expect(records.contains { $0.text.hasPrefix("P85 17 Nov") })
    #expect(records.contains { $0.text == AttentionModel.nothing })
    for r in records where !r.text.isEmpty {
      let ratio = RGBA.contrastRatio(r.color, r.background)
      #expect(ratio >= 4.5, "\(theme): \"\(r.text)\" at \(ratio):1")
    }
  }

  /// The burndown's cone says each outcome: its dates (cut at the chart's end, said so), "P85
  /// after" the horizon, no throughput in words rather than a date; burnup and a finished sprint
  /// draw none.
  @Test func theConeSaysEachOutcome() throws {
    func texts(_ outcome: Forecast.Outcome, mode: String = "") throws -> [String] {
      var frame = Fixtures.frame()
      frame.forecast = outcome
      var painter = Painter(text: Fixtures.text())
      painter.recording = true
      var renderer = BoardRenderer(layout: try Fixtures.single("burndown", options: mode), painter: painter)
      let style = Fixtures.style("orchestra", height: 1080)
      var canvas = Canvas(width: 960, height: 600, background: style.theme.bg)
      renderer.render(frame, style: style, into: &canvas)
      return renderer.painter.records.map(\.text)
    }
    let nov = { (d: Int) in CivilDate(year: 2026, month: 11, day: d) }
    let inside = try texts(.sprint(remaining: 7, p50: nov(12), p85: nov(13)))
    #expect(inside.contains("P50 12 Nov") && inside.contains("P85 13 Nov"), "\(inside)")
    let cut = try texts(.sprint(remaining: 7, p50: nov(12), p85: nov(17)))
    #expect(cut.contains("P85 17 Nov (after end)"), "\(cut)")
    let beyond = try texts(.beyondHorizon(remaining: 7, p50: nil, horizon: nov(30)))
    #expect(beyond.contains("P85 after 30 Nov") && !beyond.contains { $0.hasPrefix("P50") }, "\(beyond)")
    #expect(try texts(.noThroughput).contains("no throughput yet: no forecast"))
    let none = try texts(.sprintDone)
    #expect(!none.contains { $0.hasPrefix("P50") || $0.hasPrefix("P85") || $0.contains("throughput") })
    let burnup = try texts(.sprint(remaining: 7, p50: nov(12), p85: nov(13)), mode: "mode=burnup")
    #expect(!burnup.contains { $0.hasPrefix("P50") }, "the burnup draws no cone")
  }
}

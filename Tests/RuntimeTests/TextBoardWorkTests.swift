import Projections
import Runtime
import TestSupport
import Testing
import WallboardCore
import Widgets

/// The text board's issue-26 sections say what the wall's widgets say, from the same models and
/// the same text functions: attention, aging with P50/P85, the agents, the forecast.
@Suite("The text board's work sections")
struct TextBoardWorkTests {
  static let attention = AttentionModel(rows: [
    AttentionRow(kind: .blocked, featureId: "FEAT-7", title: "Checkout page", detail: "waits on FEAT-3"),
    AttentionRow(kind: .rework, featureId: "FEAT-9", title: "", detail: "back 2×"),
  ])

  @Test func attentionListsEachRowWithItsMarkerWord() {
    #expect(
      TextBoard.attentionLines(Self.attention) == [
        "Attention: 1 blocked · 1 rework",
        "  blocked  Checkout page (FEAT-7): waits on FEAT-3",
        "  rework  FEAT-9: back 2×",
      ])
    #expect(TextBoard.attentionLines(AttentionModel(rows: [])) == ["Attention: Nothing needs attention"])
  }

  @Test func aLongListIsCountedPastItsTenthRow() {
    let rows = (1...13).map { AttentionRow(kind: .rework, featureId: "F\($0)", title: "", detail: "back 1×") }
    let lines = TextBoard.attentionLines(AttentionModel(rows: rows))
    #expect(lines.count == 12)
    #expect(lines.last == "  +3 more")
  }

  @Test func agingSaysTheCycleTimeAndMarksWhatIsPastP85() {
    let chart = AgingChart(
      columns: [.init(state: "in-progress", label: "In progress"), .init(state: "in-review", label: "In review")],
      dots: [
        .init(featureId: "A", title: "Export", column: 0, days: 12, pastP85: true),
        .init(featureId: "B", column: 1, days: 2, pastP85: false),
      ],
      cycleTime: CycleTime(p50Days: 4, p85Days: 9.5, samples: 23, windowDays: 90))
    #expect(
      TextBoard.agingLines(chart) == [
        "Aging, days in progress (P50 4 d · P85 9.5 d (23 done in 90 d)):",
        "  In progress  Export (A)  12 d  past P85",
        "  In review  B  2 d",
      ])
    let none = AgingChart(
      columns: [], dots: [], cycleTime: CycleTime(p50Days: nil, p85Days: nil, samples: 0, windowDays: 90))
    #expect(TextBoard.agingLines(none) == ["Aging, days in progress (no cycle time yet): No work in progress"])
  }

  @Test func theAgentsSayTheirSessionsAndALapse() {
    let rows = [
      AgentStripRow(session: "a1b2c3d4", featureId: "FEAT-10", title: "Billing", held: "for 2 h", lapsed: false),
      AgentStripRow(session: "0badc0de", featureId: "FEAT-12", title: "", held: "lapsed 40 min ago", lapsed: true),
    ]
    #expect(
      TextBoard.agentLines(rows) == [
        "Agents: 1 held · 1 lapsed", "  a1b2c3d4  Billing (FEAT-10)  for 2 h", "  0badc0de  FEAT-12  lapsed 40 min ago",
      ])
    #expect(TextBoard.agentLines([]) == ["Agents: No agent holds a feature"])
  }

  @Test func theForecastLineSaysEachOutcomeAndNeverInventsADate() {
    let d = { (day: Int) in CivilDate(year: 2026, month: 12, day: day) }
    #expect(
      ForecastText.line(.sprint(remaining: 7, p50: d(12), p85: d(15)))
        == "Forecast: 7 left, done by 12 Dec (P50), 15 Dec (P85)")
    #expect(
      ForecastText.line(.beyondHorizon(remaining: 7, p50: d(12), horizon: d(31)))
        == "Forecast: 7 left, done by 12 Dec (P50), P85 after 31 Dec")
    #expect(ForecastText.line(.backlog(days: 14, p50: 14, p85: 9)) == "Next 14 days: 9–14 features (P85–P50)")
    #expect(ForecastText.line(.noThroughput) == "No throughput yet: no forecast")
    #expect(ForecastText.line(.sprintDone) == "Forecast: sprint done")
  }

  /// The whole board carries the sections, from the frame the wall draws.
  @Test func theBoardCarriesTheSections() {
    let at = Make.t("2026-11-19T12:00:00Z")
    let text = TextBoard.render(state: BoardState(), at: at, now: at, zone: .utc, unit: .auto)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.contains("Attention: Nothing needs attention"), "\(lines)")
    #expect(lines.contains("Agents: No agent holds a feature"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("Aging, days in progress (") }, "\(lines)")
    #expect(lines.contains(ForecastText.noThroughput), "\(lines)")
  }
}

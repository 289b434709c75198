public import Projections
public import WallboardCore

/// The forecast's words, the same on the burndown, the flow and the text board.
public enum ForecastText {
  /// "P50 12 Dec".
  public static func label(_ p: String, _ d: CivilDate) -> String { "\(p) \(ClockText.dayMonth(d))" }

  /// One line for the forecast: "Forecast: done by 12 Dec (P50), 15 Dec (P85)", "Next 14 days:
  /// 9–14 features (P85–P50)", "No throughput yet: no forecast"…
  public static func line(_ f: Forecast.Outcome) -> String {
    switch f {
    case .sprint(let remaining, let p50, let p85):
      return
        "Forecast: \(remaining) left, done by \(ClockText.dayMonth(p50)) (P50), \(ClockText.dayMonth(p85)) (P85)"
    case .beyondHorizon(let remaining, let p50, let horizon):
      let half = p50.map { "done by \(ClockText.dayMonth($0)) (P50), " } ?? ""
      return "Forecast: \(remaining) left, \(half)P85 after \(ClockText.dayMonth(horizon))"
    case .sprintDone: return "Forecast: sprint done"
    case .backlog(let days, let p50, let p85): return backlog(days: days, p50: p50, p85: p85)
    case .noThroughput: return noThroughput
    }
  }

  /// "next 14 days: 9–14 features" (P85–P50).
  public static func backlog(days: Int, p50: Int, p85: Int) -> String {
    "Next \(days) days: \(p85 == p50 ? "\(p50)" : "\(p85)–\(p50)") features (P85–P50)"
  }

  public static let noThroughput = "No throughput yet: no forecast"

  /// The flow chart's words for a backlog forecast: "next 14 d: 9–14" (P85–P50 features); nil
  /// for any other outcome.
  public static func flowSummary(_ f: Forecast.Outcome) -> String? {
    guard case .backlog(let days, let p50, let p85) = f else { return nil }
    return "next \(days) d: " + (p85 == p50 ? "\(p50)" : "\(p85)–\(p50)")
  }
}

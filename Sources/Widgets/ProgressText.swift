public import Glyphs
public import Projections

/// How the board words progress, the same on every widget and the text board: "done" is the
/// workflow's done states only; work closed without being done (rejected, cancelled) is said
/// apart, never counted as done.
public enum ProgressText {
  /// "14 of 21 done · 1 rejected".
  public static func summary(_ p: Progress) -> String { summaryPieces(p).map(\.text).joined() }

  /// `summary` in pieces for fitting: the numbers kept, the closed work dropped first, then
  /// "done".
  public static func summaryPieces(_ p: Progress) -> [TextPiece] {
    let closed = closed(p.closed.map { ($0.label, Double($0.count)) })
    return [.fixed("\(p.done) of \(p.total)"), .secondary(" done", rank: 1)]
      + (closed.isEmpty ? [] : [.secondary(closed, rank: 0)])
  }

  /// The share of features done: "67%" (whole percent, for across a room). The one percentage
  /// the board shows, on every widget and on the text board.
  public static func donePercent(_ p: Progress) -> String {
    "\(Int(saturating: p.donePercent, .toNearestOrAwayFromZero))%"
  }

  /// `singular` when `n` is exactly 1, else `plural`: "1 working day left", "2 working days left".
  public static func noun(_ n: Double, _ singular: String, _ plural: String) -> String {
    n == 1 ? singular : plural
  }

  /// "1 working day left", "3 working days left".
  public static func daysLeft(_ n: Int) -> String {
    "\(n) " + noun(Double(n), "working day left", "working days left")
  }

  /// " · 1 rejected · 2 cancelled", or "" when nothing was closed without being done.
  public static func closed(_ parts: [(label: String, value: Double)]) -> String {
    parts.filter { $0.value > 0 }.map { " · \(Numbers.short($0.value)) \($0.label.lowercased())" }.joined()
  }
}

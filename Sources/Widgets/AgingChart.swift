public import Projections
public import WallboardCore

/// What the aging chart shows: one column per active-work state in workflow order, one dot per
/// feature at its whole days in progress, and the team's P50 and P85 cycle times.
public struct AgingChart: Hashable, Sendable {
  /// A column: a state's id and its label.
  public struct Column: Hashable, Sendable {
    public var state: String
    public var label: String

    public init(state: String, label: String) {
      self.state = state
      self.label = label
    }
  }

  /// A feature in progress.
  public struct Dot: Hashable, Sendable {
    public var featureId: String
    public var title: String
    /// Its column's index.
    public var column: Int
    /// Whole days in progress.
    public var days: Int
    /// In progress longer than the team's P85 cycle time (drawn as a square, not a circle).
    public var pastP85: Bool

    public init(featureId: String, title: String = "", column: Int, days: Int, pastP85: Bool) {
      self.featureId = featureId
      self.title = title
      self.column = column
      self.days = days
      self.pastP85 = pastP85
    }
  }

  public var columns: [Column]
  public var dots: [Dot]
  public var cycleTime: CycleTime

  public init(columns: [Column], dots: [Dot], cycleTime: CycleTime) {
    self.columns = columns
    self.dots = dots
    self.cycleTime = cycleTime
  }

  /// Made from the content's aging list, ages read at `at`: the columns are the board's
  /// workflow's active-work states and any other state an item is in, in workflow order.
  public init(items: [AgingItem], cycleTime: CycleTime, state: BoardState, at: Instant) {
    let workflow = state.workflow(forProject: nil)
    let order = workflow.states.map(\.id)
    var ids = workflow.states.filter(\.activeWork).map(\.id)
    for item in items where !ids.contains(item.status) { ids.append(item.status) }
    ids = ids.enumerated().sorted { a, b in
      (order.firstIndex(of: a.element) ?? order.count, a.offset) < (
        order.firstIndex(of: b.element) ?? order.count, b.offset
      )
    }.map(\.element)
    columns = ids.map { Column(state: $0, label: StateLabel.of($0, project: nil, in: state)) }
    dots = items.compactMap { item in
      guard let days = AgingText.daysInProgress(item, at: at), let column = ids.firstIndex(of: item.status) else {
        return nil
      }
      return Dot(
        featureId: state.shownId(item.key), title: item.title, column: column, days: days,
        pastP85: AgingText.pastP85(item, cycleTime: cycleTime, at: at))
    }
    self.cycleTime = cycleTime
  }

  /// The oldest dot (the first of the oldest), whose id the chart labels.
  public var oldest: Dot? { dots.max { $0.days < $1.days || ($0.days == $1.days && $0.featureId > $1.featureId) } }

  /// The chart's title: what its y axis counts.
  public static let title = "Aging · days in progress"
  /// What the chart says without work in progress.
  public static let empty = "No work in progress"

  /// When the chart made at `at` next reads differently: a dot's days turning or crossing P85.
  public static func nextChange(items: [AgingItem], cycleTime: CycleTime, at: Instant) -> Instant? {
    var next: Instant?
    for item in items {
      next = NextChange.earlier(next, AgingText.nextDaysChange(item, at: at))
      next = NextChange.earlier(next, AgingText.p85Crossing(item, cycleTime: cycleTime, at: at))
    }
    return next
  }
}

/// One agent session's hold, as the agents strip and the text board say it.
public struct AgentStripRow: Hashable, Sendable {
  /// The session, shortened to its first 8 characters as upstream shows it.
  public var session: String
  public var featureId: String
  public var title: String
  /// "for 2 h", or "lapsed 40 min ago".
  public var held: String
  public var lapsed: Bool

  public init(session: String, featureId: String, title: String, held: String, lapsed: Bool) {
    self.session = session
    self.featureId = featureId
    self.title = title
    self.held = held
    self.lapsed = lapsed
  }

  /// `row` read at `at`.
  public init(_ row: AgentRow, state: BoardState, at: Instant) {
    session = String(row.lock.session.prefix(8))
    featureId = state.shownId(row.lock.feature)
    title = row.title ?? ""
    lapsed = row.lock.lapsed(at: at)
    held =
      lapsed ? AttentionText.lapsed(row.lock, at: at) : "for " + AgentStripRow.duration(from: row.lock.since, to: at)
  }

  /// "12 s", "3 min", "2 h", "4 d": how long since `then`.
  public static func duration(from then: Instant, to now: Instant) -> String {
    let t = Ages.text(from: then, to: now)
    return t.hasSuffix(" ago") ? String(t.dropLast(4)) : t
  }

  /// `held` where room is short: "2 h", "lapsed 40 min".
  public var shortHeld: String {
    if held.hasPrefix("for ") { return String(held.dropFirst(4)) }
    return held.hasSuffix(" ago") ? String(held.dropLast(4)) : held
  }

  /// The row as one line of text: "a1b2c3d4  Login flow (FEAT-1)  for 2 h".
  public var line: String { "\(session)  \(FeatureName.text(id: featureId, title: title))  \(held)" }

  /// What the strip and the text board say without locks.
  public static let empty = "No agent holds a feature"

  /// When the rows made at `at` next read differently: a hold's duration turning, a lock
  /// lapsing, a lapse's age turning.
  public static func nextChange(_ rows: [AgentRow], at: Instant) -> Instant? {
    var next: Instant?
    for r in rows {
      if r.lock.lapsed(at: at) {
        next = NextChange.earlier(next, Ages.nextChange(from: r.lock.lapsesAt, to: at))
      } else {
        next = NextChange.earlier(next, Ages.nextChange(from: r.lock.since, to: at))
        next = NextChange.earlier(next, r.lock.lapsesAt)
      }
    }
    return next
  }
}

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

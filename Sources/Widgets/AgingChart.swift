public import Projections
public import WallboardCore

/// What the aging chart shows: one column per active-work state in workflow order, one dot per
/// feature at its days in progress (tenths, rounded down), and the team's P50 and P85 cycle times.
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
    /// Days in progress as shown: tenths of a day, rounded down (`AgingItem.workTenths`).
    public var days: Double
    /// In progress longer than the team's P85 cycle time (drawn as a square, not a circle).
    public var pastP85: Bool

    public init(featureId: String, title: String = "", column: Int, days: Double, pastP85: Bool) {
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
        pastP85: item.pastP85(cycleTime: cycleTime, at: at))
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
      next = NextChange.earlier(next, item.nextWorkTenthChange(at: at))
      next = NextChange.earlier(next, item.p85Crossing(cycleTime: cycleTime, at: at))
    }
    return next
  }
}

/// How old a feature in progress is, as the board says it.
public enum AgingText {
  /// Days in progress at `at` as shown: tenths of a day rounded down (never below 0), the
  /// projection's (`AgingItem.workTenths`, which `inspect` writes too); nil when the data does
  /// not say.
  public static func daysInProgress(_ item: AgingItem, at: Instant) -> Double? {
    item.workTenths(at: at).map { Double($0) / 10 }
  }

  /// "9.6 d", "12 d": days as the board shows them (one decimal, none when whole).
  public static func text(days: Double) -> String { Numbers.short(days) + " d" }

  /// "P50 4 d · P85 9.5 d (23 done in 90 d)", or "no cycle time yet" without samples.
  public static func cycleTime(_ c: CycleTime) -> String {
    guard c.samples > 0, let p50 = c.p50Days, let p85 = c.p85Days else { return "no cycle time yet" }
    return "P50 \(Numbers.short(p50)) d · P85 \(Numbers.short(p85)) d (\(c.samples) done in \(c.windowDays) d)"
  }
}

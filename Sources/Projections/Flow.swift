public import WallboardCore

/// One state of a cumulative flow, in the order the flow lists them.
public struct FlowState: Hashable, Sendable {
  public var id: String
  public var label: String
  /// `false` for a state the workflow does not know (listed after the known ones).
  public var known: Bool
  /// A done state (`Workflow.isDone`): the bottom of the chart's stack.
  public var done: Bool
  /// For an old spelling the workflow still reads (upstream's `backlog`): the state it counts
  /// as. Such a status has a column of its own, as stored, right after that state (as in the
  /// tallies).
  public var countsAs: String?
}

/// One civil day of a cumulative flow.
public struct FlowDay: Hashable, Sendable {
  public var date: CivilDate
  /// How many features stood in each state at the end of the day (today: at the flow's moment),
  /// one count per `Flow.states`, in that order.
  public var counts: [Int]
  /// How many features entered a done state during the day (each feature once a day).
  public var done: Int
}

/// The cumulative flow of the board's features over the last days, by workflow state, with
/// throughput: what the main chart shows when no sprint is active.
///
/// The features are the tallies' (`BoardScope`): the active sprint's members when one is given,
/// else every feature. A past day counts each feature as its history (`FeatureHistory`) had it at
/// the end of that day in the board's zone; today counts the features as they are now, so the
/// last day equals `Tally.compute` exactly. A feature whose history the board no longer keeps
/// (deleted, and referred to by no sprint) is not counted on the days before it was deleted.
public struct Flow: Hashable, Sendable {
  /// Every state of the workflow in order, zeros included, then the states the workflow does
  /// not know in the order the board first saw them.
  public var states: [FlowState]
  /// The window's days, oldest first, ending with today.
  public var days: [FlowDay]
  /// The zone whose midnights are the day boundaries.
  public var zone: Zone
  /// The earliest moment the board has a record of any counted feature (nil: none): before it,
  /// the counts are zero because the board knew nothing, not because there was nothing.
  public var historyFrom: Instant?
  /// Features that entered a done state in the window (the sum of the days' `done`).
  public var throughput: Int
  /// `throughput` per day over the window's days the board has history for (at least one day).
  public var throughputPerDay: Double
}

extension Flow {
  /// How many days a flow may span.
  public static let dayRange = 1...90
  /// The window when none is asked for.
  public static let defaultDays = 14

  /// The counts of the last day (today), by state id, in the flow's state order.
  public var today: [(state: String, count: Int)] {
    guard let last = days.last else { return [] }
    return zip(states, last.counts).map { ($0.0.id, $0.1) }
  }

  /// The index of the first day the board has history for, or nil when it has none in the window.
  public var firstKnownDay: Int? {
    guard let from = historyFrom else { return nil }
    return days.firstIndex { zone.endOfDay($0.date) >= from }
  }

  /// Computes the flow of the `days` days ending with the date of `at` in `zone`.
  ///
  /// - Parameters:
  ///   - sprint: the active sprint, whose members are counted; nil counts every feature.
  ///   - days: the window's length, clamped to `dayRange`.
  public static func compute(state: BoardState, sprint: Sprint?, at: Instant, zone: Zone, days: Int) -> Flow {
    compute(
      state: state, scope: BoardScope(state: state, sprint: sprint), sprint: sprint, at: at, zone: zone, days: days)
  }

  /// Computes the flow over a scope already built for `sprint` (the tallies' scope).
  public static func compute(
    state: BoardState, scope: BoardScope, sprint: Sprint?, at: Instant, zone: Zone, days: Int
  ) -> Flow {
    let wf = scope.workflow
    let n = Swift.min(Swift.max(days, dayRange.lowerBound), dayRange.upperBound)
    let today = zone.date(of: at)
    let dates = (0..<n).map { today.adding(days: $0 - (n - 1)) }
    // Where each day starts, and where the window ends: a moment's day is found among them.
    let starts = (dates + [today.adding(days: 1)]).map { zone.startOfDay($0).millis }
    // The end of every past day; the last day is counted from the features as they are now.
    let ends = starts.dropFirst().dropLast().map { $0 - 1 }

    // Columns: the workflow's states, then one per other status as stored — an old spelling of
    // a state, or a status the workflow does not know — in the order met. Each status is looked
    // up once; after that, versions are counted by column.
    var columnOf: [String: Int] = [:]
    var extraOrder: [String] = []
    var extraDone: [Bool] = []
    func column(_ status: String) -> Int {
      if let c = columnOf[status] { return c }
      let known = wf.state(status)
      let c: Int
      if let known, known.id == status, let i = wf.states.firstIndex(where: { $0.id == status }) {
        c = i
      } else {
        c = wf.states.count + extraOrder.count
        extraOrder.append(status)
        extraDone.append(known?.done ?? false)
      }
      columnOf[status] = c
      return c
    }
    func isDone(_ c: Int) -> Bool { c < wf.states.count ? wf.states[c].done : extraDone[c - wf.states.count] }

    let width = wf.states.count
    var counts = Array(repeating: Array(repeating: 0, count: width), count: n)
    func add(_ c: Int, day: Int) {
      if counts[day].count <= c { counts[day] += Array(repeating: 0, count: c + 1 - counts[day].count) }
      counts[day][c] += 1
    }
    var done = Array(repeating: 0, count: n)
    var historyFrom: Instant?

    func counted(_ v: FeatureVersion) -> Bool {
      v.exists && (sprint.map { v.sprints.contains($0.id) } ?? true)
    }
    // Each feature's versions are walked once, side by side with the days.
    var columns: [Int] = []
    for h in state.history.values {
      let versions = h.versions
      guard let first = versions.first else { continue }
      columns.removeAll(keepingCapacity: true)
      for v in versions { columns.append(column(v.status)) }
      var i = 0
      var anyCounted = false
      for (day, end) in ends.enumerated() {
        while i < versions.count && versions[i].at.millis <= end { i += 1 }
        guard i > 0, counted(versions[i - 1]) else { continue }
        add(columns[i - 1], day: day)
        anyCounted = true
      }
      // Throughput: a counted version in a done state whose predecessor existed and was not done.
      var lastDay = -1
      var day = 0
      for k in versions.indices.dropFirst() {
        let t = versions[k].at.millis
        guard t >= starts[0], t <= at.millis else { continue }
        guard isDone(columns[k]), !isDone(columns[k - 1]), versions[k - 1].exists, counted(versions[k]) else {
          continue
        }
        while day + 1 < n && starts[day + 1] <= t { day += 1 }
        guard day != lastDay else { continue }
        done[day] += 1
        lastDay = day
      }
      if anyCounted { historyFrom = Swift.min(historyFrom ?? first.at, first.at) }
    }
    for f in scope.features {
      add(column(f.status), day: n - 1)
      let from = Swift.min(state.history[f.key]?.versions.first?.at ?? at, at)
      historyFrom = Swift.min(historyFrom ?? from, from)
    }

    // Each state, then its old spellings in name order; then the unknown states in the order the
    // board first saw them (a status it never noted, which the reducer cannot produce, after
    // them in name order: the flow stays total).
    var states: [FlowState] = []
    var permutation: [Int] = []
    let oldSpellings = Dictionary(grouping: extraOrder.filter { wf.state($0) != nil }.sorted()) { wf.state($0)!.id }
    for (i, ws) in wf.states.enumerated() {
      states.append(FlowState(id: ws.id, label: StateLabel.display(ws.label), known: true, done: ws.done))
      permutation.append(i)
      for old in oldSpellings[ws.id] ?? [] {
        states.append(
          FlowState(id: old, label: StateLabel.display(old), known: true, done: ws.done, countsAs: ws.id))
        permutation.append(columnOf[old]!)
      }
    }
    let unknown = Set(extraOrder.filter { wf.state($0) == nil })
    var order = state.statusOrder.filter(unknown.contains)
    order += unknown.subtracting(order).sorted()
    for u in order {
      states.append(FlowState(id: u, label: StateLabel.display(u), known: false, done: false))
      permutation.append(columnOf[u]!)
    }
    let flowDays = dates.indices.map { d in
      FlowDay(
        date: dates[d], counts: permutation.map { $0 < counts[d].count ? counts[d][$0] : 0 }, done: done[d])
    }

    let total = done.reduce(0, +)
    var flow = Flow(
      states: states, days: flowDays, zone: zone, historyFrom: historyFrom, throughput: total, throughputPerDay: 0)
    let knownDays = n - (flow.firstKnownDay ?? 0)
    flow.throughputPerDay = Double(total) / Double(Swift.max(1, knownDays))
    return flow
  }
}

public import WallboardCore

/// When the work will finish, from the team's own throughput: a Monte Carlo simulation over the
/// daily throughput of the last working days, seeded so that a frame is reproducible.
public struct Forecast: Hashable, Sendable {
  public enum Outcome: Hashable, Sendable {
    /// A sprint's remaining features are done by `p50` in half the runs, by `p85` in 85 %.
    case sprint(remaining: Int, p50: CivilDate, p85: CivilDate)
    /// A sprint's remaining features are not done within the simulated horizon in at least 15 %
    /// of the runs: `p50` when half the runs finish within it.
    case beyondHorizon(remaining: Int, p50: CivilDate?, horizon: CivilDate)
    /// Nothing of the sprint is left.
    case sprintDone
    /// Without a sprint: how many features the next `days` days finish, in half the runs (`p50`)
    /// and in 85 % of them (`p85`, at least that many).
    case backlog(days: Int, p50: Int, p85: Int)
    /// No feature was done in the sampled days: no forecast, rather than an invented date.
    case noThroughput
  }

  public var outcome: Outcome
  /// The working days sampled, the first and the last (nil when there were none).
  public var sampledFrom: CivilDate?
  public var sampledThrough: CivilDate?
  /// Working days sampled and features done in them.
  public var sampleDays: Int
  public var sampleDone: Int
  public var runs: Int
  public var seed: UInt64

  public init(
    outcome: Outcome, sampledFrom: CivilDate?, sampledThrough: CivilDate?, sampleDays: Int, sampleDone: Int,
    runs: Int, seed: UInt64
  ) {
    self.outcome = outcome
    self.sampledFrom = sampledFrom
    self.sampledThrough = sampledThrough
    self.sampleDays = sampleDays
    self.sampleDone = sampleDone
    self.runs = runs
    self.seed = seed
  }

  public static let defaultRuns = 10_000
  public static let defaultSeed: UInt64 = 0x5745_4C4C_424F_4152  // "WELLBOAR"
  /// How many working days of throughput are sampled.
  public static let defaultSampleDays = 30
  /// How many days ahead the backlog forecast looks.
  public static let backlogDays = 14

  /// The most runs a forecast makes, whatever is asked.
  public static let maxRuns = 1_000_000
  /// The most working days a sprint's runs walk: past it, a run has not finished.
  public static let horizonWorkingDays = 365

  /// The forecast for the board as of `at`: for `sprint` its remaining features, without one the
  /// next `backlogDays` days.
  ///
  /// - Throughput: today is the date of `at` in `zone`. The sampled days are the last
  ///   `sampleDays` (1…365) *working* days before today (today is not over, so it is left out),
  ///   and not before the day the board's history begins (the earliest version of any feature
  ///   history it keeps, in `zone`: before it, a day without done work says nothing of the
  ///   team; fewer days are sampled then, none without history), looking back at most
  ///   `sampleDays` × 7 + 366 calendar days; working days are the
  ///   sprint's (`Sprint.isWorking`) when one is given, else Monday to Friday. A day's
  ///   throughput is how many features entered a done state that day in `zone`, over every
  ///   feature history the board keeps: a version in a done state (`Workflow.isDone` of the
  ///   feature's project) whose predecessor exists and is not done, each feature once a day (the
  ///   flow's rule, `Flow`).
  /// - Draws: a `SplitMix64` seeded with `seed`, two draws from each 64-bit output — its high
  ///   32 bits, then its low 32 bits — each 32-bit half `h` choosing sampled day `(h · n) >> 32`
  ///   (n = sampled days, oldest first; `IndexDraws`). Runs are made one after the other from
  ///   the one stream (a run may begin with the low half its predecessor left).
  /// - Sprint: `remaining` = the scope's features whose status is not terminal in their
  ///   project's workflow; none → `.sprintDone`. Else, with no sampled day or every sampled
  ///   day zero → `.noThroughput`. Each run walks the working days after today (the sprint's
  ///   calendar, even past its end), one draw per working day, adding it to the features done,
  ///   up to `horizonWorkingDays` working days; the run finishes on the working day the sum
  ///   reaches `remaining`. P50 and P85 are nearest-rank over the runs' finishing days (rank
  ///   ⌈p·runs⌉, in whole percent): `.sprint` when the P85 run finishes within the horizon,
  ///   else `.beyondHorizon` (with P50 when that one does, and the horizon's last working
  ///   day). When even the largest sampled day on every working day of the horizon cannot reach
  ///   `remaining`, no run can: `.beyondHorizon` at once, with no draws.
  /// - No sprint: with no throughput `.noThroughput`; else each run sums one draw per working
  ///   day (Monday to Friday) among the `backlogDays` calendar days after today; `p50` is the
  ///   nearest-rank median of the sums, `p85` the largest count at least 85 % of the runs reach
  ///   (the ascending sums' element at runs − ⌈0.85·runs⌉).
  ///
  /// `runs` is clamped to 1…`maxRuns`.
  public static func compute(
    state: BoardState, sprint: Sprint?, scope: BoardScope, at: Instant, zone: Zone,
    runs: Int = defaultRuns, seed: UInt64 = defaultSeed, sampleDays: Int = defaultSampleDays
  ) -> Forecast {
    let runs = Swift.min(Swift.max(runs, 1), maxRuns)
    let working: (CivilDate) -> Bool =
      sprint.map { s in { s.isWorking($0) } } ?? { $0.weekday != .sat && $0.weekday != .sun }
    let today = zone.date(of: at)
    let from = historyFrom(state).map(zone.date(of:))
    let sampled = sampledDays(
      before: today, count: Swift.min(Swift.max(sampleDays, 1), 365), notBefore: from, working: working)
    let throughput = doneCounts(state, on: sampled, zone: zone)
    let total = throughput.reduce(0, +)
    func make(_ o: Outcome) -> Forecast {
      Forecast(
        outcome: o, sampledFrom: sampled.first, sampledThrough: sampled.last, sampleDays: sampled.count,
        sampleDone: total, runs: runs, seed: seed)
    }
    var rng = IndexDraws(seed: seed)
    guard let sprint else {
      guard total > 0 else { return make(.noThroughput) }
      let days = (1...backlogDays).filter { working(today.adding(days: $0)) }.count
      let sums = backlogRuns(throughput, days: days, runs: runs, rng: &rng)
      return make(.backlog(days: backlogDays, p50: Aging.nearestRank(sums, percent: 50)!, p85: atLeast85(sums)))
    }
    let remaining = scope.features.filter { !state.workflow(forProject: $0.projectId).isCompleted($0.status) }.count
    guard remaining > 0 else { return make(.sprintDone) }
    guard total > 0 else { return make(.noThroughput) }
    let ahead = workingDays(after: today, count: horizonWorkingDays, working: sprint.isWorking)
    guard let horizon = ahead.last else { return make(.noThroughput) }
    guard throughput.max()! * ahead.count >= remaining else {
      return make(.beyondHorizon(remaining: remaining, p50: nil, horizon: horizon))
    }
    let finished = sprintRuns(throughput, remaining: remaining, days: ahead.count, runs: runs, rng: &rng)
    let p50 = rankIndex(finished, rank: (50 * runs + 99) / 100)
    let p85 = rankIndex(finished, rank: (85 * runs + 99) / 100)
    guard p85 < ahead.count else {
      return make(.beyondHorizon(remaining: remaining, p50: p50 < ahead.count ? ahead[p50] : nil, horizon: horizon))
    }
    return make(.sprint(remaining: remaining, p50: ahead[p50], p85: ahead[p85]))
  }

  /// The last `count` working days before `day` and not before `notBefore` (nil: none at all),
  /// oldest first (looking back at most `count` × 7 + 366 days).
  static func sampledDays(
    before day: CivilDate, count: Int, notBefore: CivilDate?, working: (CivilDate) -> Bool
  ) -> [CivilDate] {
    guard let notBefore else { return [] }
    var out: [CivilDate] = []
    var d = day
    for _ in 0..<(count * 7 + 366) where out.count < count {
      d = d.adding(days: -1)
      if d < notBefore { break }
      if working(d) { out.append(d) }
    }
    return out.reversed()
  }

  /// The earliest moment of any feature history the board keeps: before it, a day without
  /// done work says nothing of the team.
  static func historyFrom(_ state: BoardState) -> Instant? {
    var from: Instant?
    for h in state.history.values {
      if let t = h.versions.first?.at, from.map({ t < $0 }) ?? true { from = t }
    }
    return from
  }

  /// The first `count` working days after `day`, in order (looking ahead at most `count` × 7 +
  /// 366 days).
  static func workingDays(after day: CivilDate, count: Int, working: (CivilDate) -> Bool) -> [CivilDate] {
    var out: [CivilDate] = []
    var d = day
    for _ in 0..<(count * 7 + 366) where out.count < count {
      d = d.adding(days: 1)
      if working(d) { out.append(d) }
    }
    return out
  }

  /// How many features entered a done state on each of `days` (ascending) in `zone`.
  static func doneCounts(_ state: BoardState, on days: [CivilDate], zone: Zone) -> [Int] {
    guard let first = days.first, let last = days.last else { return [] }
    let base = first.daysSinceEpoch
    // Where each calendar day from the first to the day after the last starts.
    let starts = (0...(last.daysSinceEpoch - base + 1)).map { zone.startOfDay(first.adding(days: $0)).millis }
    var perDay = Array(repeating: 0, count: starts.count - 1)
    for (key, h) in state.history {
      let v = h.versions
      guard v.count > 1, v[v.count - 1].at.millis >= starts[0] else { continue }
      var wf: Workflow?
      var lastDay = -1
      for k in v.indices.dropFirst() {
        let t = v[k].at.millis
        guard t >= starts[0], t < starts[starts.count - 1], v[k].exists, v[k - 1].exists else { continue }
        let w = wf ?? state.workflow(forProject: key.projectId)
        wf = w
        guard w.isDone(v[k].status), !w.isDone(v[k - 1].status) else { continue }
        var lo = 0
        var hi = starts.count - 1
        while hi - lo > 1 {
          let mid = (lo + hi) / 2
          if starts[mid] <= t { lo = mid } else { hi = mid }
        }
        guard lo != lastDay else { continue }
        perDay[lo] += 1
        lastDay = lo
      }
    }
    return days.map { perDay[$0.daysSinceEpoch - base] }
  }

  /// Each run's finishing working day (its index; `days` when it did not finish), as counts by
  /// index: `counts[i]` runs finished on working day `i`.
  static func sprintRuns(_ tp: [Int], remaining: Int, days: Int, runs: Int, rng: inout IndexDraws) -> [Int] {
    var counts = Array(repeating: 0, count: days + 1)
    let n = tp.count
    tp.withUnsafeBufferPointer { tp in
      for _ in 0..<runs {
        var done = 0
        var i = 0
        while i < days {
          done += tp[rng.index(below: n)]
          if done >= remaining { break }
          i += 1
        }
        counts[i] += 1
      }
    }
    return counts
  }

  /// The index at which the cumulative count of `counts` first reaches `rank`.
  static func rankIndex(_ counts: [Int], rank: Int) -> Int {
    var sum = 0
    for (i, c) in counts.enumerated() {
      sum += c
      if sum >= rank { return i }
    }
    return counts.count - 1
  }

  /// Each run's sum of `days` draws, ascending.
  static func backlogRuns(_ tp: [Int], days: Int, runs: Int, rng: inout IndexDraws) -> [Int] {
    var sums: [Int] = []
    sums.reserveCapacity(runs)
    for _ in 0..<runs {
      var s = 0
      for _ in 0..<days { s += tp[rng.index(below: tp.count)] }
      sums.append(s)
    }
    return sums.sorted()
  }

  /// The largest count at least 85 % of the ascending `sums` reach.
  static func atLeast85(_ sums: [Int]) -> Int { sums[sums.count - (85 * sums.count + 99) / 100] }
}

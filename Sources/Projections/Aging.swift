public import WallboardCore

/// A feature in active work, with when it entered its state and when it began the work
/// (`Aging.compute`). Ages are read against a frame's clock (`stateDays(at:)`, `workDays(at:)`),
/// so that the list itself does not change as time passes.
public struct AgingItem: Hashable, Sendable {
  public var key: FeatureKey
  public var title: String
  public var assignee: String?
  public var status: String
  /// When it entered its current status; nil when the data does not say.
  public var stateSince: Instant?
  /// When its current stretch of active work began; nil when the data does not say.
  public var workSince: Instant?

  public init(
    key: FeatureKey, title: String, assignee: String?, status: String, stateSince: Instant?, workSince: Instant?
  ) {
    self.key = key
    self.title = title
    self.assignee = assignee
    self.status = status
    self.stateSince = stateSince
    self.workSince = workSince
  }

  /// A tenth of a day, in milliseconds: the unit every age is shown in.
  public static let tenthMillis: Int64 = 8_640_000

  /// Tenths of a day in its current status at `at`, rounded down and never below 0 (data dated
  /// a moment after the board's clock is 0 days old): what the board shows ("9.6 d"), and what
  /// `inspect` writes (`age_days`); nil when unknown.
  public func stateTenths(at: Instant) -> Int? { stateSince.map { Self.tenths(from: $0, to: at) } }

  /// Tenths of a day in progress at `at`, rounded down (`in_progress_days`, the aging chart's
  /// dots, "12.3 d in progress").
  public func workTenths(at: Instant) -> Int? { workSince.map { Self.tenths(from: $0, to: at) } }

  static func tenths(from a: Instant, to b: Instant) -> Int { Int(Swift.max(0, b.millis - a.millis) / tenthMillis) }

  /// Whether `item` has been in progress longer than the team's P85 cycle time at `at`: its
  /// days in progress as shown (`workTenths`, rounded down) exceed the P85 as shown
  /// (`CycleTime.p85Tenths`), so that the number beside a marked item is always the larger.
  /// False when either is unknown.
  public static func pastP85(_ item: AgingItem, cycleTime: CycleTime, at: Instant) -> Bool {
    guard let p85 = cycleTime.p85Tenths, let d = item.workTenths(at: at) else { return false }
    return d > p85
  }

  /// When the item will first be past P85 (`pastP85`), if that is after `at`: the first moment
  /// its shown days in progress exceed the shown P85.
  public func p85Crossing(cycleTime: CycleTime, at: Instant) -> Instant? {
    guard let p85 = cycleTime.p85Tenths, let s = workSince, p85 >= 0, p85 < 1_000_000_000 else { return nil }
    let t = Instant(millis: s.millis + Int64(p85 + 1) * Self.tenthMillis)
    return t > at ? t : nil
  }

  /// When `workTenths(at:)` next reads differently.
  public func nextWorkTenthChange(at: Instant) -> Instant? {
    guard let s = workSince else { return nil }
    let age = at.millis - s.millis
    return Instant(millis: s.millis + (age < 0 ? 0 : (age / Self.tenthMillis + 1) * Self.tenthMillis))
  }

  /// `AgingItem.pastP85(self, cycleTime:at:)`.
  public func pastP85(cycleTime: CycleTime, at: Instant) -> Bool { Self.pastP85(self, cycleTime: cycleTime, at: at) }
}

/// The team's cycle time: from entering active work to done, over features done within the
/// window before the board's day.
public struct CycleTime: Hashable, Sendable {
  public var p50Days: Double?
  public var p85Days: Double?
  /// How many features were measured.
  public var samples: Int
  public var windowDays: Int

  public init(p50Days: Double?, p85Days: Double?, samples: Int, windowDays: Int) {
    self.p50Days = p50Days
    self.p85Days = p85Days
    self.samples = samples
    self.windowDays = windowDays
  }

  /// The window cycle times are taken over, in days.
  public static let defaultWindowDays = 90

  /// The P50 as shown: in tenths of a day, rounded to the nearest.
  public var p50Tenths: Int? { p50Days.flatMap(Self.tenths) }
  /// The P85 as shown: in tenths of a day, rounded to the nearest (see `AgingItem.pastP85`).
  public var p85Tenths: Int? { p85Days.flatMap(Self.tenths) }

  static func tenths(_ d: Double) -> Int? { d.isFinite && abs(d) < 1e8 ? Int((d * 10).rounded()) : nil }
}

/// How old the work in progress is.
public enum Aging {
  /// Every feature in an active-work state of its workflow, oldest first.
  ///
  /// A feature the filter keeps is in active work when its status is a state of its project's
  /// workflow marked active work (`WorkflowState.activeWork`, through the workflow's aliases:
  /// upstream's in-progress, in-testing, in-docs, in-review, needs-edits; the seed's
  /// in-progress, in-testing, in-docs, in-review). `stateSince` is when it entered its current
  /// status (`BoardState.statusSince`: the start of the last unbroken run of that status in its
  /// history, else `updatedAt`). `workSince` is the start of its current unbroken stretch of
  /// active work: walking back through its history from the last version while each version
  /// exists and its status is active work; when the history's last version is not in active
  /// work (the history does not record the present), `stateSince`. Ordered by `workSince`,
  /// oldest first, unknown last, then by (project, id).
  public static func compute(state: BoardState) -> [AgingItem] {
    var out: [AgingItem] = []
    var sets = StatusSets(state)
    for (key, f) in state.features {
      let active = sets.of(f.projectId).active
      guard active.contains(f.status) else { continue }
      let h = state.history[key]
      let stateSince = h?.runStart(of: f.status) ?? f.updatedAt
      let work = h?.runStart { active.contains($0) }
      out.append(
        AgingItem(
          key: key, title: f.title, assignee: f.assignee, status: f.status, stateSince: stateSince,
          workSince: work ?? stateSince))
    }
    return out.sorted { olderFirst(($0.workSince, $0.key), ($1.workSince, $1.key)) }
  }

  /// The cycle time of the features done in the `windowDays` days up to `at`.
  ///
  /// Over every feature history the board keeps (as the flow's throughput): its latest entry
  /// into a done state (`Workflow.isDone` of its project's workflow) is a version in a done
  /// state whose predecessor exists and is not done, at or before `at`. When that moment `t`
  /// lies in the window — the `windowDays` calendar days of `zone` ending with the day of `at`,
  /// up to `at` — the feature gives one sample: `t` minus the
  /// moment it entered active work on the way there — the earliest version in active work
  /// among the versions before `t` back to the last one that was terminal (done or not) or did
  /// not exist (so a step back to `todo`, or a stop in a passive state such as the seed's
  /// `documented`, stays within the stretch). A feature with no version in active work on the
  /// way gives no sample. Days are fractional (86 400 s). P50 and P85 are nearest-rank over
  /// the sorted samples (index ⌈p·n⌉ − 1, computed in whole percent); nil without samples.
  public static func cycleTime(
    state: BoardState, at: Instant, zone: Zone, windowDays: Int = CycleTime.defaultWindowDays
  ) -> CycleTime {
    // The window is whole days of the board's zone, today the last of them, so that the
    // figures stay the same all day (until a recorded move: `nextProjectionChange`).
    let from = zone.startOfDay(zone.date(of: at).adding(days: -(windowDays - 1))).millis - 1
    var samples: [Double] = []
    for (key, h) in state.history {
      let wf = state.workflow(forProject: key.projectId)
      if let d = cycleDays(h.versions, wf: wf, from: from, through: at.millis) { samples.append(d) }
    }
    samples.sort()
    return CycleTime(
      p50Days: nearestRank(samples, percent: 50), p85Days: nearestRank(samples, percent: 85),
      samples: samples.count, windowDays: windowDays)
  }

  /// The one sample of a history (see `cycleTime`), or nil.
  static func cycleDays(_ v: [FeatureVersion], wf: Workflow, from: Int64, through: Int64) -> Double? {
    var k = v.count - 1
    // What the history holds after the board's moment (`--at` in the past) has not happened yet.
    while k > 0 && v[k].at.millis > through { k -= 1 }
    while k > 0 {
      if v[k].exists && wf.isDone(v[k].status) && v[k - 1].exists && !wf.isDone(v[k - 1].status) { break }
      k -= 1
    }
    guard k > 0, v[k].at.millis > from, v[k].at.millis <= through else { return nil }
    var start: Instant?
    var j = k - 1
    while j >= 0 && v[j].exists && !wf.isCompleted(v[j].status) {
      if wf.state(v[j].status)?.activeWork == true { start = v[j].at }
      j -= 1
    }
    return start.map { days(from: $0, to: v[k].at) }
  }

  /// The nearest-rank percentile of ascending `sorted`: the element at ⌈percent·n/100⌉ − 1.
  public static func nearestRank<T>(_ sorted: [T], percent: Int) -> T? {
    guard !sorted.isEmpty else { return nil }
    let rank = (percent * sorted.count + 99) / 100
    return sorted[Swift.max(0, Swift.min(sorted.count, rank) - 1)]
  }
}

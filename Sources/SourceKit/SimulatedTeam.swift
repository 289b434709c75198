public import WallboardCore

/// A believable, deterministic team: two-week sprints of 20–30 features with T-shirt estimates
/// moving through the seed's 13 states with realistic dwell times, some blocked, one rejected,
/// a mid-sprint scope change and an estimate change, and a daily heartbeat.
///
/// It writes JSON Lines text, so its events pass through the same decoder as real sources.
/// Sprint `k` starts on `start + 14k` days (a Monday by default); everything is in UTC.
public struct SimulatedTeam: Sendable {
  public let seed: UInt64
  /// The first sprint's first day.
  public let start: CivilDate

  /// The default first day: Monday 2026-11-02.
  public static let defaultStart = CivilDate(year: 2026, month: 11, day: 2)

  public init(seed: UInt64 = 1, start: CivilDate = SimulatedTeam.defaultStart) {
    self.seed = seed
    self.start = start
  }

  /// The moment the simulation shows when none is asked for: Wednesday of the first sprint's
  /// second week, 12:00 UTC.
  public var defaultNow: Instant {
    Instant(seconds: Int64(start.adding(days: 9).daysSinceEpoch) * 86_400 + 12 * 3600)
  }

  /// One line of the timeline: when it happens and its JSON text (without `seq`/`source`;
  /// `Timeline` numbers them).
  public struct Entry: Sendable, Hashable {
    public var time: Instant
    public var topic: String
    public var payload: String
  }

  /// Every event of sprint `k` (its planning, the work, its close, and the archiving of the
  /// sprint before last), in time order.
  public func sprintEntries(_ k: Int) -> [Entry] {
    var plan = SprintPlan(team: self, index: k)
    return plan.entries()
  }
}

/// The numbered, never-ending stream of a simulated team's events.
public struct SimTimeline: Sendable {
  public let team: SimulatedTeam
  private var sprint = 0
  private var buffer: [SimulatedTeam.Entry] = []
  private var position = 0
  private var seq: Int64 = 0

  /// The envelope's `source` of every event: the publisher whose numbers a journal keeps.
  public static let publisher = "sim.team"

  public init(team: SimulatedTeam) { self.team = team }

  /// Passes over the entries up to and including number `seq` without writing them (they are
  /// the same whenever the timeline is replayed: it is a function of the seed); returns the
  /// time of the last one passed, nil when none was.
  @discardableResult
  public mutating func skip(through last: Int64) -> Instant? {
    var time: Instant?
    while seq < last {
      fill()
      time = buffer[position].time
      position += 1
      seq += 1
    }
    return time
  }

  /// The time of the next entry.
  public mutating func peekTime() -> Instant {
    fill()
    return buffer[position].time
  }

  /// The next event as a JSON line.
  public mutating func next() -> (time: Instant, line: String) {
    fill()
    let e = buffer[position]
    position += 1
    seq += 1
    let line =
      "{\"topic\":\"\(e.topic)\",\"time\":\"\(e.time.rfc3339)\",\"seq\":\(seq),\"source\":\"\(Self.publisher)\",\"payload\":\(e.payload)}"
    return (e.time, line)
  }

  /// Every line up to and including `at`.
  public mutating func lines(through at: Instant) -> [String] {
    var out: [String] = []
    while peekTime() <= at { out.append(next().line) }
    return out
  }

  private mutating func fill() {
    while position >= buffer.count {
      buffer = team.sprintEntries(sprint)
      position = 0
      sprint += 1
    }
  }
}

public import Clock
public import SourceKit
public import WallboardCore

/// The simulated team as a source: live through `SimDriver` (its own clock runs `speed` times
/// faster than real time), or read in simulated time up to a moment.
///
/// On a board restored from a journal it resumes: `resumeAfter` is the number of the last of its
/// events the journal holds, and it goes on from the next one (see `SimDriver`).
public final class SimSource: EventSource {
  public let team: SimulatedTeam
  public let origin: String
  public let isFinite = true
  public let appliesMoment = true
  /// The number of the last event the restored board holds (0: it starts afresh).
  public let resumeAfter: Int64
  private let driver: SimDriver

  public init(team: SimulatedTeam, origin: String, speed: Double, resumeAfter: Int64 = 0, clock: Clock) {
    self.team = team
    self.origin = origin
    self.resumeAfter = resumeAfter
    driver = SimDriver(team: team, origin: origin, speed: speed, resumeAfter: resumeAfter, clock: clock)
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) { driver.start(deliver: deliver) }
  public func stop() { driver.stop() }

  public var ownClock: (@Sendable () -> Instant)? { { [driver] in driver.simulatedNow() } }

  /// Simulates up to `moment` (default: the team's present, Wednesday of its second week, or
  /// the last event the restored board holds when that is later), past the events it holds.
  public func read(
    through moment: Instant?, receivedAt: Instant, deadline: TimeLimit, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant? {
    var timeline = SimTimeline(team: team)
    let held = timeline.skip(through: resumeAfter)
    let until = moment ?? max(team.defaultNow, held ?? team.defaultNow)
    Self.stream(
      team: team, origin: origin, through: until, after: resumeAfter, receivedAt: receivedAt, deadline: deadline,
      deliver: deliver)
    return until
  }

  /// Every input up to and including `at`, in simulated time; the source shows as live.
  ///
  /// - Parameter receivedAt: when the board receives them (the real clock, so that staleness is
  ///   judged like any other source's); nil stamps each event with its simulated time.
  public static func inputs(
    team: SimulatedTeam, origin: String, through at: Instant, receivedAt: Instant? = nil
  )
    -> [BoardInput]
  {
    var out: [BoardInput] = []
    stream(team: team, origin: origin, through: at, receivedAt: receivedAt) { out.append($0) }
    return out
  }

  /// Hands every input up to and including `at` to `deliver`, one at a time, and stops early
  /// (returning `false`) when `deadline` passes: a far-off `at` is years of simulated team.
  /// The events numbered up to `after` are passed over (a restored board holds them).
  @discardableResult
  public static func stream(
    team: SimulatedTeam, origin: String, through at: Instant, after: Int64 = 0, receivedAt: Instant? = nil,
    deadline: TimeLimit = .distantFuture, deliver: (BoardInput) -> Void
  ) -> Bool {
    var timeline = SimTimeline(team: team)
    timeline.skip(through: after)
    let decoder = LineDecoder(origin: origin, label: origin)
    deliver(.connection(origin: origin, status: .live, at: receivedAt ?? at, detail: "simulated"))
    var n = Int(after)
    while timeline.peekTime() <= at {
      let (time, line) = timeline.next()
      n += 1
      deliver(decoder.decode(line: Array(line.utf8), number: n, receivedAt: receivedAt ?? time))
      // The clock is read every thousand events: cheap, and a bound within a few milliseconds.
      if n % 1000 == 0 && deadline.passed {
        deliver(
          .connection(
            origin: origin, status: .live, at: receivedAt ?? time,
            detail: "simulated up to \(time.rfc3339) when the time ran out"))
        return false
      }
    }
    return true
  }
}

extension SimSource {
  /// `sim[:seed=N,speed=X,start=YYYY-MM-DD]`.
  public struct Spec: SourceConfiguration {
    public var seed: UInt64 = 1
    /// Simulated seconds per real second when the simulation runs live.
    public var speed = Spec.defaultSpeed
    /// The Monday its first sprint starts.
    public var start = SimulatedTeam.defaultStart

    public static let defaultSpeed = 600.0

    public init(seed: UInt64 = 1, speed: Double = Spec.defaultSpeed, start: CivilDate = SimulatedTeam.defaultStart) {
      self.seed = seed
      self.speed = speed
      self.start = start
    }

    public var name: String {
      var parts: [String] = []
      if seed != 1 { parts.append("seed=\(seed)") }
      if speed != Spec.defaultSpeed { parts.append("speed=\(formatNumber(speed))") }
      if start != SimulatedTeam.defaultStart { parts.append("start=\(start)") }
      return parts.isEmpty ? "sim" : "sim:" + parts.joined(separator: ",")
    }

    /// Resumed from what the restored board holds of its origin, if anything.
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      let held = context.restored[name]?.cursor.last[SimTimeline.publisher] ?? 0
      return SimSource(
        team: SimulatedTeam(seed: seed, start: start), origin: name, speed: speed, resumeAfter: max(0, held),
        clock: context.clock)
    }
  }

  struct Kind: SourceKind {
    var usage: String { "sim[:seed=N,speed=X,start=YYYY-MM-DD]" }

    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      if text == "sim" { return Spec() }
      guard text.hasPrefix("sim:") else { return nil }
      var spec = Spec()
      for part in text.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false) {
        let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
        guard kv.count == 2 else { throw SourceSpecError(text: text, problem: "expected key=value, found \"\(part)\"") }
        switch kv[0] {
        case "seed":
          guard let v = UInt64(kv[1]) else {
            throw SourceSpecError(text: text, problem: "seed must be a whole number ≥ 0")
          }
          spec.seed = v
        case "speed":
          guard let v = Double(kv[1]), v.isFinite, v > 0, v <= 1_000_000 else {
            throw SourceSpecError(text: text, problem: "speed must be a number above 0 and at most 1000000")
          }
          spec.speed = v
        case "start":
          guard let d = CivilDate(parsing: kv[1]) else {
            throw SourceSpecError(text: text, problem: "start must be a YYYY-MM-DD date")
          }
          // The simulated team plans two-week sprints from a Monday: another day would be moved
          // silently.
          guard d.weekday == .mon else {
            let monday = d.adding(days: -Weekday.allCases.firstIndex(of: d.weekday)!)
            throw SourceSpecError(
              text: text,
              problem: "start \(d) is a \(d.weekday.name); the simulated sprints start on a Monday (such as \(monday))")
          }
          spec.start = d
        default:
          throw SourceSpecError(text: text, problem: "unknown sim option \"\(kv[0])\" (accepted: seed, speed, start)")
        }
      }
      return spec
    }
  }
}

extension Weekday {
  /// `Monday`.
  var name: String {
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][
      Weekday.allCases.firstIndex(of: self)!]
  }
}

public import Foundation
public import WallboardCore

/// The simulated team as a source: live through `SimDriver` (its own clock runs `speed` times
/// faster than real time), or read in simulated time up to a moment.
public final class SimSource: EventSource {
  public let team: SimulatedTeam
  public let origin: String
  public let isFinite = true
  public let appliesMoment = true
  private let driver: SimDriver

  public init(team: SimulatedTeam, origin: String, speed: Double) {
    self.team = team
    self.origin = origin
    driver = SimDriver(team: team, origin: origin, speed: speed)
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) { driver.start(deliver: deliver) }
  public func stop() { driver.stop() }

  public var ownClock: (@Sendable () -> Instant)? { { [driver] in driver.simulatedNow() } }

  /// Simulates up to `moment` (default: the team's present, Wednesday of its second week).
  public func read(
    through moment: Instant?, receivedAt: Instant, deadline: Date, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant? {
    let until = moment ?? team.defaultNow
    Self.stream(
      team: team, origin: origin, through: until, receivedAt: receivedAt, deadline: deadline, deliver: deliver)
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
  @discardableResult
  public static func stream(
    team: SimulatedTeam, origin: String, through at: Instant, receivedAt: Instant? = nil,
    deadline: Date = .distantFuture, deliver: (BoardInput) -> Void
  ) -> Bool {
    var timeline = SimTimeline(team: team)
    let decoder = LineDecoder(origin: origin, label: origin)
    deliver(.connection(origin: origin, status: .live, at: receivedAt ?? at, detail: "simulated"))
    var n = 0
    while timeline.peekTime() <= at {
      let (time, line) = timeline.next()
      n += 1
      deliver(decoder.decode(line: Array(line.utf8), number: n, receivedAt: receivedAt ?? time))
      // The clock is read every thousand events: cheap, and a bound within a few milliseconds.
      if n % 1000 == 0 && Date() >= deadline {
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

    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      SimSource(team: SimulatedTeam(seed: seed, start: start), origin: name, speed: speed)
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

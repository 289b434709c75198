public import Foundation
public import WallboardCore

/// The simulated team as a source: live through `SimDriver` (its own clock runs `speed` times
/// faster than real time), or read in simulated time up to a moment.
public final class SimSource: EventSource {
  public let team: SimulatedTeam
  public let origin: String
  public let isFinite = true
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

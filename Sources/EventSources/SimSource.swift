public import Foundation
public import WallboardCore

/// The simulated team as a source of reducer inputs.
public enum SimSource {
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

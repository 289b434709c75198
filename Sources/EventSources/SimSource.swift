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
    var timeline = SimTimeline(team: team)
    let decoder = LineDecoder(origin: origin, label: origin)
    var out: [BoardInput] = [.connection(origin: origin, status: .live, at: receivedAt ?? at, detail: "simulated")]
    var n = 0
    while timeline.peekTime() <= at {
      let (time, line) = timeline.next()
      n += 1
      out.append(decoder.decode(line: Array(line.utf8), number: n, receivedAt: receivedAt ?? time))
    }
    return out
  }
}

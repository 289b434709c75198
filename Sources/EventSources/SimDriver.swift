public import Clock
internal import Foundation
public import WallboardCore

/// Runs the simulated team live: first everything up to its present moment, then each event
/// after a real delay of (simulated gap ÷ speed), never more than `maxGap` seconds, so a
/// running board changes every few seconds. Between events it sends nothing; the board's
/// clock for a simulation is `simulatedNow()`.
///
/// Resumed (`resumeAfter`, the last number a journal holds of it), it goes on from there: the
/// timeline is replayed to that event without sending it again, and its clock starts at that
/// event's time when it is past the present moment. A board restored from the journal and the
/// simulation then tell one moment.
public final class SimDriver: @unchecked Sendable {
  public let team: SimulatedTeam
  public let origin: String
  public let speed: Double
  public let maxGap: Double
  private let lock = NSLock()
  private var anchorSim: Instant
  private var anchorReal: Monotonic
  private let clock: Clock
  private var stopped = false
  /// The timeline from where this run starts sending (past the resumed events), the number of
  /// the last one passed, and the moment the first burst runs to.
  private let resumed: SimTimeline
  private let resumeAfter: Int64
  private let startsAt: Instant

  public init(
    team: SimulatedTeam, origin: String, speed: Double, maxGap: Double = 4, resumeAfter: Int64 = 0, clock: Clock
  ) {
    self.clock = clock
    self.team = team
    self.origin = origin
    self.speed = speed
    self.maxGap = maxGap
    var timeline = SimTimeline(team: team)
    let last = timeline.skip(through: resumeAfter)
    self.resumed = timeline
    self.resumeAfter = resumeAfter
    self.startsAt = max(team.defaultNow, last ?? team.defaultNow)
    self.anchorSim = startsAt
    self.anchorReal = clock.monotonic()
  }

  /// The simulated clock.
  public func simulatedNow() -> Instant {
    lock.lock()
    defer { lock.unlock() }
    return anchorSim.adding(seconds: clock.monotonic().seconds(since: anchorReal) * speed)
  }

  public func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
  }

  private var isStopped: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Delivers inputs on a background thread until `stop()`.
  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let thread = Thread { [self] in
      var timeline = resumed
      let decoder = LineDecoder(origin: origin, label: origin)
      var n = Int(resumeAfter)
      let now0 = startsAt
      deliver(.connection(origin: origin, status: .live, at: clock.now(), detail: "simulated"))
      while timeline.peekTime() <= now0 {
        let (_, line) = timeline.next()
        n += 1
        deliver(decoder.decode(line: Array(line.utf8), number: n, receivedAt: clock.now()))
      }
      while !isStopped {
        let next = timeline.peekTime()
        let simNow = simulatedNow()
        var wait = Double(next.millis - simNow.millis) / 1000 / speed
        if wait > maxGap {
          // Skip the quiet stretch (nights, weekends): jump the clock forward.
          lock.lock()
          anchorSim = Instant(millis: next.millis - Int64(maxGap * speed * 1000))
          anchorReal = clock.monotonic()
          lock.unlock()
          wait = maxGap
        }
        if wait > 0 {
          clock.sleep(seconds: min(wait, 0.25))
          continue
        }
        let (_, line) = timeline.next()
        n += 1
        deliver(decoder.decode(line: Array(line.utf8), number: n, receivedAt: clock.now()))
      }
    }
    thread.start()
  }
}

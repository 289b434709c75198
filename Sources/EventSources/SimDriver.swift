internal import Foundation
public import WallboardCore

/// Runs the simulated team live: first everything up to its present moment, then each event
/// after a real delay of (simulated gap ÷ speed), never more than `maxGap` seconds, so a
/// running board changes every few seconds. Between events it sends nothing; the board's
/// clock for a simulation is `simulatedNow()`.
public final class SimDriver: @unchecked Sendable {
  public let team: SimulatedTeam
  public let origin: String
  public let speed: Double
  public let maxGap: Double
  private let lock = NSLock()
  private var anchorSim: Instant
  private var anchorReal: Date
  private var stopped = false

  public init(team: SimulatedTeam, origin: String, speed: Double, maxGap: Double = 4) {
    self.team = team
    self.origin = origin
    self.speed = speed
    self.maxGap = maxGap
    self.anchorSim = team.defaultNow
    self.anchorReal = Date()
  }

  /// The simulated clock.
  public func simulatedNow() -> Instant {
    lock.lock()
    defer { lock.unlock() }
    return anchorSim.adding(seconds: Date().timeIntervalSince(anchorReal) * speed)
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
      var timeline = SimTimeline(team: team)
      let decoder = LineDecoder(origin: origin, label: origin)
      var n = 0
      let now0 = team.defaultNow
      deliver(.connection(origin: origin, status: .live, at: SystemClock.now(), detail: "simulated"))
      while timeline.peekTime() <= now0 {
        let (_, line) = timeline.next()
        n += 1
        deliver(decoder.decode(line: Array(line.utf8), number: n, receivedAt: SystemClock.now()))
      }
      while !isStopped {
        let next = timeline.peekTime()
        let simNow = simulatedNow()
        var wait = Double(next.millis - simNow.millis) / 1000 / speed
        if wait > maxGap {
          // Skip the quiet stretch (nights, weekends): jump the clock forward.
          lock.lock()
          anchorSim = Instant(millis: next.millis - Int64(maxGap * speed * 1000))
          anchorReal = Date()
          lock.unlock()
          wait = maxGap
        }
        if wait > 0 { Thread.sleep(forTimeInterval: min(wait, 0.25)); continue }
        let (_, line) = timeline.next()
        n += 1
        deliver(decoder.decode(line: Array(line.utf8), number: n, receivedAt: SystemClock.now()))
      }
    }
    thread.start()
  }
}

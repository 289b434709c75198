public import Clock
public import WallboardCore

/// The live simulation's logic as a value: first everything up to the team's present moment,
/// then each event when the simulated clock (the monotonic time since its anchor, times `speed`)
/// reaches it, a quiet stretch longer than `maxGap` real seconds cut to it.
public struct SimMachine: SourceMachine {
  public enum Input: Hashable, Sendable { case start, tick, stop }
  public enum Action: Hashable, Sendable { case deliver(BoardInput) }
  public static var start: Input { .start }
  public static var stop: Input { .stop }
  public static var tick: Input { .tick }

  public let origin: String
  public let speed: Double
  public let maxGap: Double
  private var timeline: SimTimeline
  private let decoder: LineDecoder
  /// The number of the last event passed.
  private var number: Int
  /// The moment the first burst runs to.
  private let startsAt: Instant
  private var anchorSim: Instant
  private var anchorReal: Monotonic
  public private(set) var isStopped = false
  public private(set) var nextWake: Monotonic?

  /// - Parameters:
  ///   - resumeAfter: the number of the last event a journal holds of it; the run goes on after it.
  ///   - now: the monotonic time its clock starts at.
  public init(
    team: SimulatedTeam, origin: String, speed: Double, maxGap: Double, resumeAfter: Int64, now: Monotonic
  ) {
    self.origin = origin
    self.speed = speed
    self.maxGap = maxGap
    var timeline = SimTimeline(team: team)
    let last = timeline.skip(through: resumeAfter)
    self.timeline = timeline
    self.number = Int(resumeAfter)
    self.decoder = LineDecoder(origin: origin, label: origin)
    self.startsAt = max(team.defaultNow, last ?? team.defaultNow)
    self.anchorSim = startsAt
    self.anchorReal = now
  }

  /// The simulated time at the monotonic instant `now`.
  public func simulated(at now: Monotonic) -> Instant {
    anchorSim.adding(seconds: now.seconds(since: anchorReal) * speed)
  }

  public mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action] {
    guard !isStopped else { return [] }
    var out: [Action] = []
    switch input {
    case .stop:
      isStopped = true
      nextWake = nil
      return []
    case .start:
      out.append(.deliver(.connection(origin: origin, status: .live, at: stamp, detail: "simulated")))
      while timeline.peekTime() <= startsAt { out.append(next(stamp)) }
    case .tick:
      while timeline.peekTime() <= simulated(at: now) { out.append(next(stamp)) }
    }
    // The next event's moment, as a real wait; a longer one than `maxGap` (nights, weekends)
    // moves the simulated clock forward instead.
    let due = timeline.peekTime()
    var wait = Double(due.millis - simulated(at: now).millis) / 1000 / speed
    if wait > maxGap {
      anchorSim = Instant(millis: due.millis - Int64(maxGap * speed * 1000))
      anchorReal = now
      wait = maxGap
    }
    nextWake = now.adding(seconds: max(0, wait))
    return out
  }

  private mutating func next(_ stamp: Instant) -> Action {
    let (_, line) = timeline.next()
    number += 1
    return .deliver(decoder.decode(line: Array(line.utf8), number: number, receivedAt: stamp))
  }
}

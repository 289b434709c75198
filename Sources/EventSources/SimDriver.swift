public import Clock
public import SourceKit
public import WallboardCore

/// Runs the simulated team live on the one `MachineDriver` (`SimMachine` is its logic). Between
/// events it sends nothing; the board's clock for a simulation is `simulatedNow()`.
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
  private let clock: Clock
  private let driver: MachineDriver<SimMachine>

  public init(
    team: SimulatedTeam, origin: String, speed: Double, maxGap: Double = 4, resumeAfter: Int64 = 0, clock: Clock
  ) {
    self.clock = clock
    self.team = team
    self.origin = origin
    self.speed = speed
    self.maxGap = maxGap
    let machine = SimMachine(
      team: team, origin: origin, speed: speed, maxGap: maxGap, resumeAfter: resumeAfter, now: clock.monotonic())
    self.driver = MachineDriver(machine, clock: clock, name: "wallboard \(origin)")
  }

  /// The simulated clock.
  public func simulatedNow() -> Instant { driver.read { $0.simulated(at: clock.monotonic()) } }

  public func stop() { driver.stop() }

  /// Delivers inputs on the driver's thread until `stop()`.
  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) { driver.start(SimShell(deliver: deliver)) }
}

/// Hands what the simulation delivers to the board; it reads nothing.
final class SimShell: MachineShell, @unchecked Sendable {
  typealias Machine = SimMachine
  private let deliver: @Sendable (BoardInput) -> Void
  init(deliver: @escaping @Sendable (BoardInput) -> Void) { self.deliver = deliver }

  func perform(_ action: SimMachine.Action) -> [SimMachine.Input] {
    switch action {
    case .deliver(let input): deliver(input)
    }
    return []
  }
  func await(until deadline: Monotonic) -> [SimMachine.Input]? { nil }
  func interrupt(stopping: Bool) {}
}

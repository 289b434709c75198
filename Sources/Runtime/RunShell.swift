public import Clock
public import DisplayCore
public import WallboardCore

/// What runs a `LiveLoop` against the real world: each turn it takes what the sources delivered
/// (`Inbox`), the display's events and a reload, reads the clock once, and after the turn
/// sleeps until the turn's wake or the inbox's wakeup (an input, a signal, a changed file).
/// It ends at a stop (`StopRequest.requested`, read once a turn) or a quit, returning normally
/// so that every `defer` of its caller runs.
public struct RunShell {
  public let inbox: Inbox
  public let clock: Clock
  /// Whether a stop was asked for (SIGTERM, SIGINT).
  public let stopped: @Sendable () -> Bool
  /// The board's clock: the simulation's when every source is simulated, else the wall's.
  public let boardTime: @Sendable () -> Instant
  /// A reload, when one was asked for or a watched file changed (`ReloadWatch.check`).
  public var reload: () -> LiveLoop.Reload?

  public init(
    inbox: Inbox, clock: Clock, stopped: @escaping @Sendable () -> Bool,
    boardTime: @escaping @Sendable () -> Instant, reload: @escaping () -> LiveLoop.Reload? = { nil }
  ) {
    self.inbox = inbox
    self.clock = clock
    self.stopped = stopped
    self.boardTime = boardTime
    self.reload = reload
  }

  /// The moment now, on every clock a turn needs.
  public func moment() -> LiveLoop.Moment {
    LiveLoop.Moment(wall: clock.now(), monotonic: clock.monotonic(), board: boardTime())
  }

  /// Turns `loop` until a stop or a quit.
  public func run(_ loop: inout LiveLoop) throws(DisplayError) {
    while !stopped() {
      let inputs = inbox.take()
      let events = loop.presenter.display.events()
      let next = try loop.turn(inputs: inputs, events: events, reload: reload(), at: moment())
      guard case .wake(let deadline) = next else { return }
      inbox.wait(timeout: deadline.seconds(since: clock.monotonic()))
    }
  }
}

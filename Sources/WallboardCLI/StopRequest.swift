/// How `run` learns that it was asked to stop or to reload: the process's signals
/// (`StopRequest.signals`, what the executable passes) or, in tests, closures of their own.
///
/// `App` takes `.never` unless told otherwise, so a test calling `App().main` in process
/// installs no signal handler and is never stopped by one.
public struct StopRequest: Sendable {
  /// Called when `run` starts, before the sources and the display: puts the handlers in.
  public var arm: @Sendable () -> Void
  /// The signal that asked the board to stop (`SIGTERM` or `SIGINT`), nil while none has. Read
  /// once a loop turn.
  public var requested: @Sendable () -> Int32?
  /// Whether a reload was asked for (`SIGHUP`) since the last call.
  public var takeHangup: @Sendable () -> Bool

  public init(
    arm: @escaping @Sendable () -> Void, requested: @escaping @Sendable () -> Int32?,
    takeHangup: @escaping @Sendable () -> Bool
  ) {
    self.arm = arm
    self.requested = requested
    self.takeHangup = takeHangup
  }

  /// Nothing ever asks: no handlers, no stop, no reload by signal.
  public static let never = StopRequest(arm: {}, requested: { nil }, takeHangup: { false })

  /// The process's `SIGTERM`, `SIGINT` and `SIGHUP`, through `StopSignals`; the handlers go in
  /// when `run` starts, so the other commands keep the signals' default actions (a first Ctrl-C
  /// ends `inspect` at once).
  public static let signals = StopRequest(
    arm: { StopSignals.install() }, requested: { StopSignals.stopRequested }, takeHangup: { StopSignals.takeHangup() })
}

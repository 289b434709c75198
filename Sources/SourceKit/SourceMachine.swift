public import Clock
public import WallboardCore

/// A source's logic as a value: inputs at instants of the one clock in, actions out, and the
/// latest moment by which it wants to be called again. No I/O, no threads, no clock of its own:
/// `MachineDriver` runs it, a `MachineShell` does what it asks, and tests step it with plain
/// instants (`OrchestraSessionMachine` is the model).
public protocol SourceMachine: Sendable {
  associatedtype Input: Sendable
  associatedtype Action: Sendable
  /// The first input; what `stop()` feeds; what the driver feeds when only time passed.
  static var start: Input { get }
  static var stop: Input { get }
  static var tick: Input { get }
  /// Whether it has taken `stop` (the driver's thread then ends).
  var isStopped: Bool { get }
  /// The latest monotonic instant by which it must be given `tick` (or another input); nil when
  /// only an input can move it.
  var nextWake: Monotonic? { get }
  /// Takes one input at `now`, stamping what it delivers with the wall time `stamp`; returns
  /// what to do, in order.
  mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action]
}

public import Clock
public import WallboardCore

/// Where events come from: one conformance per kind of source, one file each, made from its
/// `--source` spec by `SourceRegistry`. A source never touches board state: it hands
/// `BoardInput`s to whoever started it.
///
/// Two ways to read one: followed (`start`, on its `MachineDriver`'s thread, until `stop`) for `run`;
/// and, for `inspect` and `snapshot`, read to its end on the caller's thread (`read`) when it is
/// finite, or followed for `--settle` seconds when it is not.
public protocol EventSource: AnyObject, Sendable {
  /// The name the board shows and the origin of its events (`sim`, `jsonl:/path`, …).
  var origin: String { get }
  /// Whether `read` takes it to its end (a file, the simulation up to a moment, a journal);
  /// otherwise it is followed live (a server, standard input, a workspace).
  var isFinite: Bool { get }
  /// Follows the source (on its driver's thread) until `stop()`; inputs go to `deliver`.
  func start(deliver: @escaping @Sendable (BoardInput) -> Void)
  /// Stops following; the thread ends soon after.
  func stop()
  /// Reads a finite source through to its end — the simulation to `moment` (its own present when
  /// nil) — streaming, and stops at `deadline`. Returns the moment it reached, for a source
  /// with a clock of its own (the simulation), else nil.
  func read(
    through moment: Instant?, receivedAt: Instant, deadline: TimeLimit, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant?
  /// When it will next try to connect, while it waits to.
  var nextAttemptAt: Instant? { get }
  /// The source's own clock (the simulation's), which the board follows when every source has one.
  var ownClock: (@Sendable () -> Instant)? { get }
  /// Whether `read(through:)` itself leaves out what came after the moment (the simulation stops
  /// there, a journal is cut there), so that the board's own as-of rule is not applied again.
  var appliesMoment: Bool { get }
  /// A hint that what it follows changed (a server pushed a change): look now rather than at
  /// the next poll. From any thread; a source that needs no hint ignores it.
  func lookNow()
}

extension EventSource {
  public var nextAttemptAt: Instant? { nil }
  public var ownClock: (@Sendable () -> Instant)? { nil }
  public var appliesMoment: Bool { false }
  public func lookNow() {}
}

/// A source that is only ever followed: it has no end to read to.
public protocol LiveEventSource: EventSource {}

extension LiveEventSource {
  public var isFinite: Bool { false }

  public func read(
    through moment: Instant?, receivedAt: Instant, deadline: TimeLimit, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant? {
    preconditionFailure("\(origin) is followed live, not read to an end: check isFinite first")
  }
}

/// A source that could not be read: what and why.
public struct SourceError: Error, Hashable, Sendable, CustomStringConvertible {
  public var source: String
  public var problem: String
  public init(source: String, problem: String) {
    self.source = source
    self.problem = problem
  }
  public var description: String { "\(source): \(problem)" }
}

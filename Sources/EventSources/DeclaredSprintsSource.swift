public import Clock
public import SourceKit
public import WallboardCore

/// `declared`: the sprints the command line and the config file declare (`--sprint`), as a
/// source of their own. It delivers one `board.snapshot` holding only those sprints, so that they
/// live beside every other source's features and sprints: the reducer's snapshot replaces only
/// what this origin contributed, and a later snapshot from it (a config reload) replaces its
/// sprints and nothing else.
///
/// Delivered before any other source's events, so that every feature is recorded knowing the
/// sprints' membership labels; its connection then reads `ended`, with the sprints it declared.
public final class DeclaredSprintsSource: EventSource {
  /// The origin of its events.
  public static let name = "declared"
  public var origin: String { Self.name }
  public let isFinite = true
  /// Declared sprints are the board's configuration, not something that happened: whatever
  /// `--at` says, they hold.
  public let appliesMoment = true
  public let sprints: [Sprint]
  private let clock: Clock

  /// - Parameter clock: the time its snapshot is stamped with when followed (`run`).
  public init(sprints: [Sprint], clock: Clock) {
    self.sprints = sprints
    self.clock = clock
  }

  /// Its inputs at `at`: the snapshot of the sprints, then its connection, ended.
  public func inputs(at: Instant) -> [BoardInput] {
    let ids = sprints.map(\.id).joined(separator: ", ")
    let detail = sprints.isEmpty ? "no sprints declared" : "\(sprints.count) declared: \(ids)"
    return [
      .event(Event(origin: origin, time: at, body: .boardSnapshot(BoardSnapshot(sprints: sprints)))),
      .connection(origin: origin, status: .ended, at: at, detail: detail),
    ]
  }

  /// Delivers its inputs at once, on the caller's thread: there is nothing to follow.
  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    for input in inputs(at: clock.now()) { deliver(input) }
  }

  public func stop() {}

  public func read(
    through moment: Instant?, receivedAt: Instant, deadline: TimeLimit, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant? {
    for input in inputs(at: receivedAt) { deliver(input) }
    return nil
  }
}

public import Clock
public import WallboardCore

/// The logic every source that follows a store by looking at it shares — a JSON Lines file, a
/// markdown tree, a database, a journal replayed — as a value: look at once; look again when
/// what it follows changed (the shell's watcher said so, or a server's push hinted it), or when
/// the time the last look asked for comes; after a failed look, not before a back-off that grows
/// with each failure in a row (and is at least four times what the failed look took, so that a
/// read that runs to its deadline every time costs at most a fifth of a core).
///
/// The shell does the look (its files, its state, what it delivers) and answers what it found;
/// `MachineDriver` runs it, and its waits are the driver's: no follower has a thread or a sleep
/// of its own.
public struct PollMachine: SourceMachine {
  public enum Input: Hashable, Sendable {
    case start, tick, stop
    /// What the source follows changed, or a look was asked for: look now.
    case changed
    /// What the look just made found.
    case looked(Look)
  }

  /// What a look found.
  public enum Look: Hashable, Sendable {
    /// Read (or nothing there to read yet): look again within `next` seconds at the latest.
    case read(next: Double)
    /// Failed after `spent` seconds: look again after the back-off, and not before `next`.
    case failed(next: Double, spent: Double)
    /// Nothing more will ever come (standard input closed, a replay at its end): it stops.
    case ended
  }

  public enum Action: Hashable, Sendable {
    /// Look at what the source follows, and answer `.looked`.
    case look
  }

  public static var start: Input { .start }
  public static var stop: Input { .stop }
  public static var tick: Input { .tick }

  /// Failed looks in a row.
  public private(set) var failures = 0
  /// When the next look is, after a failed one (wall time, for the board to show); nil while
  /// looks succeed.
  public private(set) var retryAt: Instant?
  public private(set) var isStopped = false
  /// When the next look is due (nil while one is being made, or once stopped).
  public private(set) var nextWake: Monotonic?
  private var backoff: Backoff

  /// - Parameter backoff: the waits after failed looks (the default serves a shell whose looks
  ///   never fail: a file followed, a journal replayed).
  public init(backoff: Backoff = Backoff(seed: 0)) { self.backoff = backoff }

  public mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action] {
    guard !isStopped else { return [] }
    switch input {
    case .stop, .looked(.ended):
      isStopped = true
      nextWake = nil
    case .start, .changed:
      nextWake = nil
      return [.look]
    case .tick:
      guard let due = nextWake, now >= due else { return [] }
      nextWake = nil
      return [.look]
    case .looked(.read(let next)):
      failures = 0
      retryAt = nil
      nextWake = now.adding(seconds: max(0, next))
    case .looked(.failed(let next, let spent)):
      failures += 1
      let wait = max(next, backoff.delay(attempt: failures), 4 * spent)
      nextWake = now.adding(seconds: wait)
      retryAt = stamp.adding(seconds: wait)
    }
    return []
  }
}

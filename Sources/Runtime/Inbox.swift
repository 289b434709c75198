public import Clock
public import WallboardCore

/// A thread-safe, bounded queue of inputs from the sources' threads to the run loop.
///
/// Bounded so that a source that outruns the board (a flood on standard input, a file that is a
/// device) costs waiting, never memory: `put` waits while `capacity` inputs are queued, until
/// the run loop takes them or the inbox is closed. The run loop takes everything queued at once.
public final class Inbox: @unchecked Sendable {
  public let capacity: Int
  private let condition = Condition()
  private var items: [BoardInput] = []
  private let clock: Clock
  private var lastNews: Monotonic
  private var closed = false
  private var mostQueued = 0
  private var waitCount = 0
  /// Wakes the run loop without an input (a changed file).
  public func wake() { wakeup.signal() }

  /// Woken when the first input of a batch arrives; the run loop sleeps on it.
  let wakeup = Wakeup()
  /// The most inputs ever queued at once.
  public var highWater: Int { condition.withLock { mostQueued } }
  /// How many times a source had to wait for room.
  public var waits: Int { condition.withLock { waitCount } }

  public init(capacity: Int = 10_000, clock: Clock) {
    self.clock = clock
    lastNews = clock.monotonic()
    precondition(capacity > 0, "an inbox needs room for at least one input")
    self.capacity = capacity
  }

  /// Queues one input, waiting while the inbox is full; dropped once the inbox is closed.
  public func put(_ i: BoardInput) {
    condition.lock()
    defer { condition.unlock() }
    if items.count >= capacity && !closed { waitCount += 1 }
    while items.count >= capacity && !closed { condition.wait() }
    guard !closed else { return }
    if items.isEmpty { wakeup.signal() }
    items.append(i)
    mostQueued = max(mostQueued, items.count)
    if case .connection = i {} else { lastNews = clock.monotonic() }
    condition.broadcast()
  }

  /// Everything queued, oldest first; the sources waiting for room go on.
  public func take() -> [BoardInput] {
    condition.lock()
    defer { condition.unlock() }
    let out = items
    items.removeAll(keepingCapacity: true)
    condition.broadcast()
    return out
  }

  /// Wakes every waiting source and drops what is put from now on.
  public func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// When the last event or rejected line arrived (connection changes do not count).
  public var lastNewsAt: Monotonic { condition.withLock { lastNews } }

  /// Waits until an input arrives, the wakeup is signalled otherwise (a stop or reload signal,
  /// a changed file) or `timeout` seconds pass.
  public func wait(timeout: Double) {
    if condition.withLock({ !items.isEmpty }) { return }
    // An input put after that look signalled the wakeup, which then returns at once.
    wakeup.wait(timeout: timeout)
  }
}

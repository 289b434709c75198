public import Clock
public import Codec
public import WallboardCore

/// `wallboard publish`'s logic as a value: the inputs a board took, queued in order, published
/// one at a time to the board's stream, and the whole board put in the bucket when one is due —
/// on the one clock, with no socket of its own (`BoardPublisher` does the broker's calls).
///
/// Every message carries an id, `<boot>-<n>`: the boot is when this publisher started, so that
/// a restarted publisher's messages are never taken for its last life's (the broker drops a
/// message whose id it has seen, silently); within a boot, a message sent again after a failure
/// keeps its id, and the broker keeps it once. After a failure the message is in doubt — stored,
/// with the answer lost? — so before sending it again the publisher reads the stream's last
/// message: if it is this one, it was.
///
/// A whole board (`Item.board`) is put only once everything before it is acknowledged, so the
/// position it records is exactly the last input it holds. A gap board (`Item.gap`: the
/// publisher dropped what it could not keep while the broker was away) goes to the stream as
/// well, as `BoardInput.restored`, replacing the walls' boards, then to the bucket.
public struct PublishMachine: SourceMachine {
  public struct Settings: Hashable, Sendable {
    public var backoffInitial = 0.5
    public var backoffMax = 15.0
    /// The largest message (the broker's largest, 8 MiB in the hub's configuration).
    public var maxMessageBytes = 8 << 20
    public init() {}
  }

  /// What is queued to publish.
  public enum Item: Hashable, Sendable {
    /// One input, encoded (`BoardCodec`).
    case input([UInt8])
    /// The whole board after the inputs before it: to the bucket.
    case board(BoardState)
    /// The whole board after inputs that were dropped: to the stream (as `restored`) and the
    /// bucket.
    case gap(BoardState)
  }

  /// The stream as the broker answered on connecting.
  public struct Stream: Hashable, Sendable {
    public var created: Int64
    public var last: UInt64
    public init(created: Int64, last: UInt64) {
      self.created = created
      self.last = last
    }
  }

  public enum Input: Hashable, Sendable {
    case start, tick, stop
    /// Queue this.
    case take(Item)
    /// The answer to `connect` (connected, the stream and buckets made or found).
    case connected(Stream)
    case connectFailed(String)
    /// The connection, once made, as the client library sees it.
    case disconnected
    case reconnected
    /// The answer to `publish`: the stream position the broker gave it.
    case published(sequence: UInt64)
    case publishFailed(String)
    /// The broker will never take it (larger than its largest message).
    case publishRefused(String)
    /// The answer to `readLast`: the stream's last message's position and id (nil: none).
    case last(sequence: UInt64, id: String?)
    case lastFailed(String)
    /// The answer to `putBoard`.
    case boardPut
    case boardFailed(String)
    case boardRefused(String)
  }

  public enum Action: Hashable, Sendable {
    case connect
    case disconnect
    /// Publish these bytes with this id; answer `.published` or `.publishFailed`.
    case publish(bytes: [UInt8], id: String)
    /// Read the stream's last message; answer `.last` or `.lastFailed`.
    case readLast
    /// Put the whole board in the bucket; answer `.boardPut` or `.boardFailed`.
    case putBoard(PublishedBoard)
    /// Say this on standard error (the broker away, back, a board too large).
    case say(String)
  }

  public enum Phase: Hashable, Sendable {
    case idle, connecting, ready, sending, checking, waiting, stopped
  }

  public let boot: String
  public let settings: Settings
  public private(set) var phase: Phase = .idle
  /// What is queued, the first being sent (or next).
  public private(set) var queue: ArraySlice<Item> = []
  /// The last position the broker acknowledged, and its stream.
  public private(set) var stream: Stream?
  /// Items taken (`.take`) in this boot: a caller that posted as many knows they all arrived.
  public private(set) var taken = 0
  /// Inputs and boards acknowledged in this boot.
  public private(set) var acknowledged = 0
  public private(set) var boardsPut = 0
  /// What was refused for good (an input or board larger than a message may be).
  public private(set) var refused = 0
  public private(set) var retryAt: Monotonic?
  /// An input was refused for good: the walls need a gap board (the recorder asks for one).
  public private(set) var wantsGap = false

  private var nextNumber: UInt64 = 1
  /// The id of the queue's first input, once it has one (it keeps it until acknowledged).
  private var headId: String?
  private var inDoubt = false
  private var attempt = 0
  private var backoff: Backoff
  private var away: String?
  /// The stream before a reconnection made it again (to tell whether it is another).
  private var lastStream: Stream?

  public init(boot: String, settings: Settings = Settings(), seed: UInt64) {
    self.boot = boot
    self.settings = settings
    self.backoff = Backoff(initial: settings.backoffInitial, max: settings.backoffMax, seed: seed)
  }

  public static var start: Input { .start }
  public static var stop: Input { .stop }
  public static var tick: Input { .tick }
  public var isStopped: Bool { phase == .stopped }
  public var nextWake: Monotonic? { retryAt }

  /// Nothing queued and nothing on the way: everything taken is acknowledged.
  public var isDrained: Bool { queue.isEmpty && phase != .sending && phase != .checking }

  public mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action] {
    switch input {
    case .stop:
      guard phase != .stopped else { return [] }
      phase = .stopped
      retryAt = nil
      return [.disconnect]
    case _ where phase == .stopped:
      return []
    case .start:
      phase = .connecting
      return [.connect]
    case .tick:
      guard phase == .waiting, let due = retryAt, now >= due else { return [] }
      retryAt = nil
      if stream == nil {
        phase = .connecting
        return [.connect]
      }
      phase = .ready
      return next()
    case .take(let item):
      taken += 1
      if case .gap = item {
        // A gap board holds every input before it: of those, only the one on its way (or with
        // an id, perhaps stored) is still sent; a board not yet put is superseded too.
        let keep = phase == .sending || phase == .checking || headId != nil
        queue = keep ? queue.prefix(1) : []
        wantsGap = false
      }
      queue.append(item)
      return phase == .ready ? next() : []
    case .connected(let s):
      if let was = stream ?? lastStream, was.created != s.created {
        // Another stream than the one the walls follow (deleted and made again): they are
        // given the whole board on it.
        wantsGap = true
      }
      stream = s
      attempt = 0
      retryAt = nil
      var actions: [Action] = []
      if let away {
        actions.append(.say("the broker is back (it was away: \(away)); \(queue.count) queued to publish"))
        self.away = nil
      }
      phase = .ready
      return actions + next()
    case .connectFailed(let why):
      return wait(now, "cannot reach the broker: \(why)")
    case .disconnected:
      guard away == nil else { return [] }
      away = "connection lost"
      return [.say("lost the broker; the client reconnects; \(queue.count) queued")]
    case .reconnected:
      guard let was = away else { return [] }
      away = nil
      return [.say("the broker is back (it was away: \(was)); \(queue.count) queued to publish")]
    case .published(let sequence):
      guard phase == .sending else { return [] }
      return acknowledged(sequence)
    case .publishFailed(let why):
      guard phase == .sending else { return [] }
      inDoubt = true
      return wait(now, "publishing failed: \(why)")
    case .publishRefused(let why):
      guard phase == .sending, let head = queue.first else { return [] }
      switch head {
      case .input:
        // For good (larger than the broker takes): the walls miss it, so a gap board follows.
        return refuse("an input cannot be published: \(why)")
      case .gap(let state):
        // The walls cannot be given it whole on the stream; the bucket gets it if it fits.
        refused += 1
        headId = nil
        queue[queue.startIndex] = .board(state)
        return [.say("the gap board cannot be published: \(why)")] + putBoard(state)
      case .board:
        return []
      }
    case .last(let sequence, let id):
      guard phase == .checking else { return [] }
      inDoubt = false
      if let id, id == headId {
        // Stored before the answer was lost.
        phase = .sending
        return acknowledged(sequence)
      }
      return send()
    case .lastFailed(let why):
      guard phase == .checking else { return [] }
      // The stream itself may be gone: made (again) before the next try.
      lastStream = stream
      stream = nil
      return wait(now, "reading the stream's last message failed: \(why)")
    case .boardPut:
      guard phase == .sending, case .board? = queue.first else { return [] }
      boardsPut += 1
      acknowledged += 1
      queue.removeFirst()
      phase = .ready
      return next()
    case .boardFailed(let why):
      guard phase == .sending else { return [] }
      return wait(now, "putting the board failed: \(why)")
    case .boardRefused(let why):
      guard phase == .sending, case .board? = queue.first else { return [] }
      refused += 1
      queue.removeFirst()
      phase = .ready
      return [.say("the board cannot be put in the bucket: \(why)")] + next()
    }
  }

  /// The head acknowledged at `sequence`: a gap board goes on to the bucket; anything else is
  /// done.
  private mutating func acknowledged(_ sequence: UInt64) -> [Action] {
    var said: [Action] = []
    if let last = stream?.last, sequence != last + 1 {
      // The stream's positions are not where this publisher left them: the hub lost acknowledged
      // messages (a power cut before its sync) or another wrote to it. The walls are given the
      // whole board at the new position.
      wantsGap = true
      said.append(.say("the stream went from position \(last) to \(sequence): the walls are given the whole board"))
    }
    stream?.last = sequence
    headId = nil
    acknowledged += 1
    if case .gap(let state)? = queue.first {
      queue[queue.startIndex] = .board(state)
      return said + putBoard(state)
    }
    queue.removeFirst()
    phase = .ready
    return said + next()
  }

  private mutating func refuse(_ why: String) -> [Action] {
    refused += 1
    headId = nil
    queue.removeFirst()
    wantsGap = true
    phase = .ready
    return [.say(why)] + next()
  }

  /// Sends the queue's head, if any (after checking the stream when the last try is in doubt).
  private mutating func next() -> [Action] {
    guard phase == .ready, !queue.isEmpty else { return [] }
    if inDoubt {
      phase = .checking
      return [.readLast]
    }
    return send()
  }

  private mutating func send() -> [Action] {
    guard let head = queue.first else {
      phase = .ready
      return []
    }
    switch head {
    case .board(let state):
      return putBoard(state)
    case .input(let bytes):
      return publish(bytes)
    case .gap(let state):
      do throws(CodecError) {
        return publish(try BoardCodec.encode(BoardInput.restored(state), maxBytes: settings.maxMessageBytes))
      } catch {
        // Too large for a message: the walls cannot be given it; the bucket gets it if it fits.
        refused += 1
        queue[queue.startIndex] = .board(state)
        return [.say("the gap board cannot be published: \(error)")] + putBoard(state)
      }
    }
  }

  private mutating func publish(_ bytes: [UInt8]) -> [Action] {
    if headId == nil {
      headId = "\(boot)-\(nextNumber)"
      nextNumber += 1
    }
    phase = .sending
    return [.publish(bytes: bytes, id: headId!)]
  }

  private mutating func putBoard(_ state: BoardState) -> [Action] {
    guard let stream else { return [] }
    phase = .sending
    return [.putBoard(PublishedBoard(stream: stream.created, sequence: stream.last, state: state))]
  }

  private mutating func wait(_ now: Monotonic, _ why: String) -> [Action] {
    attempt += 1
    let delay = backoff.delay(attempt: attempt)
    retryAt = now.adding(seconds: delay)
    phase = .waiting
    let first = away == nil
    away = why
    // Said when the broker goes away, then every few tries, not at every one.
    guard first || attempt.nonzeroBitCount == 1 else { return [] }
    let s = delay < 10 ? String(fixed: delay, digits: 1) : String(Int(delay.rounded()))
    return [.say("\(why); \(queue.count) queued; trying again in \(s) s")]
  }
}

extension PublishMachine.Item {
  var isInput: Bool {
    if case .input = self { true } else { false }
  }
}

public import Clock
internal import Codec
public import WallboardCore

/// A wall following a board published to NATS JetStream (`nats://HOST:PORT/BOARD`), as a value:
/// what happened in, what to do out, on the one clock. The shell (`RelayBoardSource`) does the
/// broker's calls and hands back their answers and the stream's messages in order.
///
/// Where it starts: the position the wall's journal kept (`OriginState.relayed`) when the stream
/// is still the one it read (created at the same instant) and still holds the next message; else
/// the whole board from the bucket (`PublishedBoard`, which records the position it covers). It
/// then follows the stream from the position after it with an ordered consumer, and checks every
/// message's position: the next one is applied (with its position, in one step:
/// `BoardInput.relayed`); an earlier one (a consumer re-created after a reconnect) is passed
/// over; a later one means messages are gone — the broker moved a start older than its retention
/// to its first message, silently — and the wall starts again from the whole board, and says so.
/// A message that cannot be decoded is counted as rejected at its position and the rest go on.
///
/// Once connected, reconnecting is the client library's (its ordered consumer resumes by
/// itself); a first connection that fails, a board not yet published, or a bootstrap that cannot
/// be made are tried again after a backoff. Every `FleetReport.interval` seconds while connected
/// it asks the shell to report the wall.
public struct RelayFollowMachine: SourceMachine {
  public struct Settings: Hashable, Sendable {
    public var backoffInitial = 1.0
    public var backoffMax = 30.0
    /// Nothing published yet (no stream or no board): asked again this often.
    public var unpublishedRetry = 5.0
    public var reportInterval = FleetReport.interval
    /// The largest message or board read (the broker's largest message, 8 MiB in the hub's
    /// configuration; checked before decoding).
    public var maxMessageBytes = 8 << 20
    public init() {}
  }

  /// What a stream looks like now.
  public struct StreamFacts: Hashable, Sendable {
    public var first: UInt64
    public var last: UInt64
    /// When it was created (ns since 1970, the broker's clock).
    public var created: Int64
    public init(first: UInt64, last: UInt64, created: Int64) {
      self.first = first
      self.last = last
      self.created = created
    }
  }

  public enum Input: Hashable, Sendable {
    case start, tick, stop
    /// The answer to `connect`.
    case connected
    case connectFailed(String)
    /// The connection as the client library sees it, once made.
    case disconnected
    case reconnected
    case closed(String)
    /// An error the broker sent on its own (a permission refused).
    case brokerError(String)
    /// The answer to `readStream`: nil when there is no such stream.
    case stream(StreamFacts?)
    /// The answer to `readBoard`: nil when the bucket has no board.
    case board([UInt8]?)
    /// `readStream`, `readBoard` or `follow` failed.
    case failed(String)
    /// A message of the followed stream, in the order the consumer delivered it.
    case message(sequence: UInt64, bytes: [UInt8])
  }

  public enum Action: Hashable, Sendable {
    /// Connect to the broker; answer `.connected` or `.connectFailed`.
    case connect
    /// Close the connection (stopping).
    case disconnect
    /// Read the stream's first and last positions; answer `.stream` or `.failed`.
    case readStream
    /// Read the whole board from the bucket; answer `.board` or `.failed`.
    case readBoard
    /// Follow the stream from this position on (dropping any earlier consumer); answer nothing,
    /// or `.failed`; messages come as `.message`.
    case follow(from: UInt64)
    /// Drop the consumer; messages it delivered after this are not wanted.
    case unfollow
    /// Report the wall (its fleet report) at this position.
    case report(position: UInt64?)
    case deliver(BoardInput)
  }

  public enum Phase: Hashable, Sendable {
    case idle, connecting, checking, bootstrapping, following, waiting, stopped
  }

  public let origin: String
  public let board: String
  public let settings: Settings
  public private(set) var phase: Phase = .idle
  /// Where the board stands on the stream: the last position applied.
  public private(set) var position: RelayPosition?
  /// When the next attempt is made, while waiting for it.
  public private(set) var retryAt: Monotonic?
  /// Messages passed over as already applied, and starts again from the whole board.
  public private(set) var passedOver = 0
  public private(set) var bootstraps = 0

  private var connected = false
  private var backoff: Backoff
  private var attempt = 0
  private var facts: StreamFacts?
  private var nextReport: Monotonic?
  /// Why the last bootstrap was made, said once the board is live.
  private var why: String?
  private var status: ConnectionStatus?
  /// The positions a message skipped over, until the whole board is taken again.
  private var skipped: String?

  /// - Parameter position: where the wall's journal says it was (nil: start from the board).
  public init(origin: String, board: String, position: RelayPosition?, settings: Settings = Settings(), seed: UInt64) {
    self.origin = origin
    self.board = board
    self.position = position
    self.settings = settings
    self.backoff = Backoff(initial: settings.backoffInitial, max: settings.backoffMax, seed: seed)
  }

  public static var start: Input { .start }
  public static var stop: Input { .stop }
  public static var tick: Input { .tick }
  public var isStopped: Bool { phase == .stopped }

  public var nextWake: Monotonic? {
    [retryAt, connected ? nextReport : nil].compactMap { $0 }.min()
  }

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
      var actions: [Action] = []
      if connected, let due = nextReport, now >= due {
        nextReport = now.adding(seconds: settings.reportInterval)
        actions.append(.report(position: position?.sequence))
        // And the stream looked at, as after a reconnection.
        if phase == .following { actions.append(.readStream) }
      }
      if phase == .waiting, let due = retryAt, now >= due {
        retryAt = nil
        actions += connected ? check() : connect()
      }
      return actions
    case .connected:
      connected = true
      nextReport = now
      return check() + [.report(position: position?.sequence)]
    case .connectFailed(let why):
      return wait(now, stamp, status: .offline, "cannot connect to the broker: \(why)")
    case .disconnected:
      guard connected else { return [] }
      return say(.reconnecting, "lost the broker; reconnecting", stamp)
    case .reconnected:
      guard connected else { return [] }
      // The stream may have changed while the broker was away (made again, or cut short by a
      // restart that lost its tail): looked at before anything more is taken on trust.
      return phase == .following ? say(.live, liveDetail, stamp) + [.readStream] : []
    case .closed(let why):
      connected = false
      return [.unfollow] + wait(now, stamp, status: .offline, "connection closed: \(why)")
    case .brokerError(let why):
      return [.deliver(.rejected(origin: origin, at: stamp, reason: "broker: \(why)"))]
    case .failed(let why):
      guard phase == .checking || phase == .bootstrapping || phase == .following else { return [] }
      return [.unfollow] + wait(now, stamp, status: .offline, why)
    case .stream(let found) where phase == .following:
      // A look while following: the stream gone, made again, or shorter than what was applied
      // means the whole board again.
      guard let p = position else { return [] }
      guard let found else {
        return [.unfollow]
          + wait(now, stamp, status: .offline, "the stream \(board) is gone", retry: settings.unpublishedRetry)
      }
      guard let why = reasonToBootstrap(from: p, found) else { return [] }
      self.why = why
      facts = found
      phase = .bootstrapping
      return [.unfollow, .readBoard]
    case .stream(let found):
      guard phase == .checking else { return [] }
      guard let found else {
        return wait(now, stamp, status: .offline, "nothing published to \(board) yet", retry: settings.unpublishedRetry)
      }
      facts = found
      if let p = position, let why = reasonToBootstrap(from: p, found) ?? skipped {
        self.why = why
      } else if let p = position {
        return follow(from: p.sequence + 1, stamp)
      }
      phase = .bootstrapping
      return [.readBoard]
    case .board(let bytes):
      guard phase == .bootstrapping, let facts else { return [] }
      return bootstrap(bytes, facts, now, stamp)
    case .message(let sequence, let bytes):
      guard phase == .following, let p = position else { return [] }
      if sequence <= p.sequence {
        passedOver += 1
        return []
      }
      if sequence > p.sequence + 1 {
        // Skipped ahead: the stream no longer holds what comes next (the check says why; when
        // it cannot, the skip itself is the reason).
        skipped = "positions \(p.sequence + 1)–\(sequence - 1) never came from the stream"
        phase = .checking
        return [.unfollow, .readStream]
      }
      let next = RelayPosition(stream: p.stream, sequence: sequence)
      position = next
      return [.deliver(.relayed(via: origin, position: next, input: decode(bytes, at: sequence, stamp)))]
    }
  }

  /// The message's input, or its rejection (named by its position) when it cannot be read.
  private func decode(_ bytes: [UInt8], at sequence: UInt64, _ stamp: Instant) -> BoardInput {
    guard bytes.count <= settings.maxMessageBytes else {
      return .rejected(
        origin: origin, at: stamp,
        reason: "message \(sequence): \(bytes.count) bytes; the limit is \(settings.maxMessageBytes)")
    }
    do throws(CodecError) {
      let input = try BoardCodec.decodeInput(bytes)
      if input.isRelayed {
        return .rejected(origin: origin, at: stamp, reason: "message \(sequence): a relayed input is never published")
      }
      return input
    } catch {
      return .rejected(origin: origin, at: stamp, reason: "message \(sequence): \(error)")
    }
  }

  /// Why the wall cannot go on from `p` on this stream; nil when it can.
  private func reasonToBootstrap(from p: RelayPosition, _ s: StreamFacts) -> String? {
    if p.stream != s.created { return "the stream was made anew since this wall last read it" }
    if s.last < p.sequence { return "the stream holds less than this wall had read (position \(p.sequence))" }
    if s.first > p.sequence + 1 {
      return "positions \(p.sequence + 1)–\(s.first - 1) are gone from the stream (the wall was away longer than "
        + "it keeps them)"
    }
    return nil
  }

  private mutating func bootstrap(_ bytes: [UInt8]?, _ s: StreamFacts, _ now: Monotonic, _ stamp: Instant) -> [Action] {
    guard let bytes else {
      return wait(now, stamp, status: .offline, "no board published to \(board) yet", retry: settings.unpublishedRetry)
    }
    guard bytes.count <= settings.maxMessageBytes else {
      return wait(
        now, stamp, status: .offline,
        "the published board is \(bytes.count) bytes; the limit is \(settings.maxMessageBytes)")
    }
    let published: PublishedBoard
    do throws(CodecError) { published = try BoardCodec.decodePublished(bytes) } catch {
      return wait(now, stamp, status: .offline, "the published board cannot be read: \(error)")
    }
    guard published.stream == s.created else {
      return wait(
        now, stamp, status: .offline, "the published board is of an earlier stream: waiting for the publisher's next",
        retry: settings.unpublishedRetry)
    }
    guard published.sequence + 1 >= s.first else {
      return wait(
        now, stamp, status: .offline,
        "the published board (position \(published.sequence)) is older than the stream keeps (from \(s.first)): "
          + "waiting for the publisher's next",
        retry: settings.unpublishedRetry)
    }
    bootstraps += 1
    skipped = nil
    position = published.position
    let restored = BoardInput.relayed(via: origin, position: published.position, input: .restored(published.state))
    // The board now is the published one, whose sources are the publisher's: this wall's own
    // row starts again with what it says next.
    status = nil
    return [.deliver(restored)] + follow(from: published.sequence + 1, stamp)
  }

  private mutating func follow(from sequence: UInt64, _ stamp: Instant) -> [Action] {
    phase = .following
    attempt = 0
    return [.follow(from: sequence)] + say(.live, liveDetail, stamp, force: true)
  }

  private var liveDetail: String {
    guard let why else { return "following \(board)" }
    return "following \(board); started again from the whole board: \(why)"
  }

  private mutating func connect() -> [Action] {
    phase = .connecting
    return [.connect]
  }

  private mutating func check() -> [Action] {
    phase = .checking
    return [.readStream]
  }

  /// Waits (after the backoff, or `retry`) before connecting or checking again, saying why.
  private mutating func wait(
    _ now: Monotonic, _ stamp: Instant, status: ConnectionStatus, _ why: String, retry: Double? = nil
  ) -> [Action] {
    attempt += 1
    phase = .waiting
    retryAt = now.adding(seconds: retry ?? backoff.delay(attempt: attempt))
    return say(status, why, stamp)
  }

  private var lastDetail: String?

  private mutating func say(_ s: ConnectionStatus, _ detail: String, _ stamp: Instant, force: Bool = false) -> [Action]
  {
    guard force || status != s || lastDetail != detail else { return [] }
    status = s
    lastDetail = detail
    return [.deliver(.connection(origin: origin, status: s, at: stamp, detail: detail))]
  }
}

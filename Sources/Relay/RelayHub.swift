public import Clock
internal import Codec
internal import EventSources
public import NATS
public import SourceKit
public import WallboardCore

/// A publisher's connection to its board's broker: the stream of inputs and the two buckets
/// (the board; the walls' reports) made or brought to the retention asked for (`prepare`), and
/// the published board read back (`readBack`), so that a restarted publisher goes on from what
/// the walls have.
public final class RelayHub: @unchecked Sendable {
  /// How long the stream keeps inputs, and how much of them.
  public struct Retention: Hashable, Sendable {
    public var days: Int
    public var megabytes: Int
    public init(days: Int = 30, megabytes: Int = 256) {
      self.days = days
      self.megabytes = megabytes
    }
  }

  public let address: RelayAddress
  public let connection: NATSConnection
  public let retention: Retention
  /// How long the broker keeps a wall's last report (then the wall leaves `fleet`).
  public static let reportDays = 30
  private let lock = Lock()
  private var listener: (@Sendable (NATSConnection.Event) -> Void)?

  /// The connection's changes, for whoever publishes on it (set once).
  public var events: (@Sendable (NATSConnection.Event) -> Void)? {
    get { lock.withLock { listener } }
    set { lock.withLock { listener = newValue } }
  }

  private init(address: RelayAddress, connection: NATSConnection, retention: Retention) {
    self.address = address
    self.connection = connection
    self.retention = retention
  }

  /// Connects and prepares the board's stream and buckets, trying again after a backoff (said
  /// through `say`) until it can, or until `stopped()`; nil then.
  public static func open(
    _ address: RelayAddress, options: NATSOptions, retention: Retention, clock: Clock,
    say: (String) -> Void, stopped: () -> Bool
  ) -> RelayHub? {
    var backoff = Backoff(initial: 0.5, max: 15, seed: UInt64(UInt32.random(in: 0...UInt32.max)))
    var attempt = 0
    while !stopped() {
      let box = ListenerBox()
      do throws(NATSError) {
        let c = try NATSConnection.connect(options) { box.hub?.events?($0) }
        let hub = RelayHub(address: address, connection: c, retention: retention)
        box.hub = hub
        do throws(NATSError) {
          _ = try hub.prepare()
          if attempt > 0 { say("wallboard publish: reached the broker at \(options.address)") }
          return hub
        } catch {
          c.close()
          throw error
        }
      } catch {
        attempt += 1
        let delay = backoff.delay(attempt: attempt)
        if attempt == 1 || attempt.nonzeroBitCount == 1 {
          say("wallboard publish: \(error); trying again in \(Int(delay.rounded(.up))) s (nothing is taken meanwhile)")
        }
        let until = clock.monotonic().adding(seconds: delay)
        while clock.monotonic() < until && !stopped() { clock.sleep(seconds: min(0.1, delay)) }
      }
    }
    return nil
  }

  /// Makes the stream and the buckets, or brings them to this retention; the stream as it is.
  @discardableResult
  public func prepare() throws(NATSError) -> NATSConnection.StreamState {
    let maxAge = Double(retention.days) * 86_400
    let stream = try connection.ensureStream(
      NATSConnection.StreamConfig(
        name: address.stream, subjects: [address.subject], maxAge: maxAge,
        maxBytes: Int64(retention.megabytes) << 20, duplicates: min(120, maxAge), denyDelete: true))
    // One board (at most a message, 8 MiB) and one report a wall: bounded, so that the broker
    // reserves little for them.
    try connection.createBucket(NATSConnection.BucketConfig(name: address.bucket, maxBytes: 64 << 20))
    try connection.createBucket(
      NATSConnection.BucketConfig(name: address.fleetBucket, ttl: Double(Self.reportDays) * 86_400, maxBytes: 16 << 20))
    return stream
  }

  /// What the walls have: the published board and the inputs after it, read back; nil when
  /// there is none to go on from (nothing published, or the board cannot be read back — `why`).
  public struct ReadBack: Sendable {
    public var state: BoardState
    /// The inputs after the board, in order.
    public var inputs: [BoardInput]
  }

  public enum ReadBackResult: Sendable {
    case nothing
    case board(ReadBack)
    case unreadable(String)
  }

  /// The most of the stream read back after the published board: past it, the board is not
  /// read back (the walls are given it whole instead).
  public static let maxReadBackBytes = 128 << 20

  /// Reads back the published board and the stream after it (at most `timeout` seconds, and
  /// `maxReadBackBytes`).
  public func readBack(timeout: Double, clock: Clock) -> ReadBackResult {
    let s: NATSConnection.StreamState
    let entry: NATSConnection.Entry?
    do throws(NATSError) {
      guard let found = try connection.streamInfo(address.stream) else { return .nothing }
      s = found
      entry = try connection.get(bucket: address.bucket, key: RelayAddress.boardKey)
    } catch {
      return .unreadable(error.description)
    }
    var board: PublishedBoard
    if let entry {
      do throws(CodecError) { board = try BoardCodec.decodePublished(entry.bytes) } catch {
        return .unreadable("the published board: \(error)")
      }
      guard board.stream == s.created else { return .unreadable("the published board is of an earlier stream") }
    } else if s.lastSequence == 0 {
      return .nothing
    } else {
      board = PublishedBoard(stream: s.created, sequence: 0, state: BoardState())
    }
    guard board.sequence + 1 >= s.firstSequence || board.sequence >= s.lastSequence else {
      return .unreadable(
        "the published board (position \(board.sequence)) is older than the stream keeps (from \(s.firstSequence))")
    }
    var inputs: [BoardInput] = []
    if s.lastSequence > board.sequence {
      let collected = StreamCollector(maxBytes: Self.maxReadBackBytes)
      let sub: NATSSubscription
      do throws(NATSError) {
        sub = try connection.follow(
          stream: address.stream, subject: address.subject, from: .sequence(board.sequence + 1)
        ) { collected.add($0) }
      } catch {
        return .unreadable(error.description)
      }
      defer { sub.cancel() }
      let deadline = clock.monotonic().adding(seconds: timeout)
      let last = s.lastSequence
      guard let messages = collected.wait(until: deadline, clock: clock, for: { ($0.last?.sequence ?? 0) >= last })
      else {
        return .unreadable(
          collected.overflowed
            ? "the stream after position \(board.sequence) holds over \(Self.maxReadBackBytes >> 20) MiB"
            : "the stream after position \(board.sequence) was not read back in \(Int(timeout)) s")
      }
      var expected = board.sequence + 1
      for m in messages {
        guard m.sequence == expected else {
          return .unreadable("the stream skipped from \(expected) to \(m.sequence)")
        }
        expected += 1
        do throws(CodecError) { inputs.append(try BoardCodec.decodeInput(m.bytes)) } catch {
          return .unreadable("message \(m.sequence): \(error)")
        }
      }
    }
    return .board(ReadBack(state: board.state, inputs: inputs))
  }
}

/// The hub a connection's callbacks reach, set once it is made.
private final class ListenerBox: @unchecked Sendable {
  private let lock = Lock()
  private weak var value: RelayHub?
  var hub: RelayHub? {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}

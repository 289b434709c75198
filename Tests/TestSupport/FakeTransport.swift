public import Clock
internal import Foundation
public import Transport

/// A transport a test plays the peer of: what the source writes is recorded (and handed to a
/// responder, which may answer at once), what the test feeds is read, and the stream ends when
/// the test hangs up or breaks it. Reads wait on the clock it is given — a `TestClock`'s, so a
/// deadline passes when the test advances the time, never by itself.
public final class FakeTransport: Transport, @unchecked Sendable {
  public let peer: String
  private let clock: Clock
  private let condition = Condition()
  private var incoming: [[UInt8]] = []
  private var writes: [[UInt8]] = []
  private var end: TransportRead?
  private var failure: String?
  private var interrupted = false
  private var closedHere = false
  private let respond: (@Sendable (FakeTransport, [UInt8]) -> Void)?

  /// - Parameter respond: called with every write, on the writer's thread, after it is recorded.
  public init(peer: String, clock: Clock, respond: (@Sendable (FakeTransport, [UInt8]) -> Void)? = nil) {
    self.peer = peer
    self.clock = clock
    self.respond = respond
  }

  /// Every write so far, in order.
  public var written: [[UInt8]] { condition.withLock { writes } }
  /// Whether the source closed it.
  public var isClosed: Bool { condition.withLock { closedHere } }

  /// Bytes for the source to read (one read each).
  public func feed(_ bytes: [UInt8]) {
    condition.withLock {
      incoming.append(bytes)
      condition.broadcast()
    }
  }

  /// The peer ends the stream in order, after what was fed.
  public func hangUp() {
    condition.withLock {
      end = .closed
      condition.broadcast()
    }
  }

  /// The stream breaks (a reset), after what was fed: the next read fails with `reason`.
  public func breakOff(_ reason: String = "Connection reset by peer") {
    condition.withLock {
      failure = reason
      condition.broadcast()
    }
  }

  public func write(_ bytes: [UInt8]) throws(TransportError) {
    let broken = condition.withLock { () -> String? in
      if closedHere { return "closed" }
      if let failure { return failure }
      writes.append(bytes)
      return nil
    }
    if let broken { throw TransportError(.write, peer: peer, reason: broken) }
    respond?(self, bytes)
  }

  public func read(until deadline: Monotonic) throws(TransportError) -> TransportRead {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if closedHere { throw TransportError(.closed, peer: peer, reason: "closed") }
      if !incoming.isEmpty { return .bytes(incoming.removeFirst()) }
      if let failure { throw TransportError(.read, peer: peer, reason: failure) }
      if let end { return end }
      if interrupted {
        interrupted = false
        return .idle
      }
      if clock.monotonic() >= deadline { return .idle }
      clock.wait(until: deadline, on: condition)
    }
  }

  public func interrupt() {
    condition.withLock {
      interrupted = true
      condition.broadcast()
    }
  }

  public func close() {
    condition.withLock {
      closedHere = true
      condition.broadcast()
    }
  }
}

/// A dialer whose every open gives a `FakeTransport` answered by `respond` — or, while the test
/// says the peer is away, fails as a refused connection.
public final class FakeDialer: TransportDialer, @unchecked Sendable {
  private let clock: Clock
  private let respond: @Sendable (FakeTransport, [UInt8]) -> Void
  private let lock = NSLock()
  private var transports: [FakeTransport] = []
  private var refusal: String?
  private var refusedCount = 0

  public init(clock: Clock, respond: @escaping @Sendable (FakeTransport, [UInt8]) -> Void) {
    self.clock = clock
    self.respond = respond
  }

  /// Every transport opened so far, in order.
  public var opened: [FakeTransport] { lock.withLock { transports } }
  /// How many opens were refused.
  public var refused: Int { lock.withLock { refusedCount } }

  /// While set, every open fails with this reason ("Connection refused"); nil lets them through.
  public func refuse(_ reason: String?) { lock.withLock { refusal = reason } }

  public func open(host: String, port: Int, until deadline: Monotonic) throws(TransportError) -> any Transport {
    let peer = "\(host):\(port)"
    let refused = lock.withLock { () -> String? in
      if refusal != nil { refusedCount += 1 }
      return refusal
    }
    if let refused { throw TransportError(.connect, peer: peer, reason: refused) }
    let t = FakeTransport(peer: peer, clock: clock, respond: respond)
    lock.withLock { transports.append(t) }
    return t
  }
}

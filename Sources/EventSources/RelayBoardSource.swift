public import Clock
public import NATS
public import SourceKit
public import WallboardCore

/// `nats://HOST:PORT/BOARD`: a board `wallboard publish` puts on NATS JetStream, followed by a
/// wall. `RelayFollowMachine` holds the logic (where to start, what a skipped position means);
/// `MachineDriver` runs it; the shell below makes the broker's calls through the `NATS` module
/// and brings the library's callbacks (messages, the connection's changes, the broker's errors)
/// onto the driver's thread through one bounded inbox. Every `FleetReport.interval` seconds it
/// reports the wall (`--wall-name`) to the board's fleet bucket.
public final class RelayBoardSource: LiveEventSource, @unchecked Sendable {
  public let address: RelayAddress
  public let origin: String
  private let clock: Clock
  private let options: NATSOptions
  private let wall: WallPresence?
  private let driver: MachineDriver<RelayFollowMachine>

  /// - Parameters:
  ///   - position: where the wall's journal says it was (nil: from the whole board).
  ///   - options: how to reach the broker (`RelayLink.options`).
  public init(
    address: RelayAddress, options: NATSOptions, wall: WallPresence?, position: RelayPosition?,
    settings: RelayFollowMachine.Settings = RelayFollowMachine.Settings(), clock: Clock,
    seed: UInt64 = UInt64(UInt32.random(in: 0...UInt32.max))
  ) {
    self.address = address
    self.origin = address.description
    self.clock = clock
    self.options = options
    self.wall = wall
    self.driver = MachineDriver(
      RelayFollowMachine(
        origin: address.description, board: address.board, position: position, settings: settings, seed: seed),
      clock: clock, name: "wallboard \(address.description)")
  }

  /// The machine as it stands (tests, the bench).
  public var machine: RelayFollowMachine { driver.current }

  public var nextAttemptAt: Instant? {
    driver.current.retryAt.map { clock.now().adding(seconds: $0.seconds(since: clock.monotonic())) }
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    driver.start(
      RelayShell(address: address, options: options, wall: wall, clock: clock, deliver: deliver))
  }

  public func stop() { driver.stop() }
}

/// The I/O of a wall's relay machine, on the driver's thread; the library's callbacks come
/// through `inbox`.
final class RelayShell: MachineShell, @unchecked Sendable {
  typealias Machine = RelayFollowMachine
  let address: RelayAddress
  let options: NATSOptions
  let wall: WallPresence?
  let clock: Clock
  let deliver: @Sendable (BoardInput) -> Void
  let inbox: RelayInbox
  private var connection: NATSConnection?
  private var subscription: NATSSubscription?

  init(
    address: RelayAddress, options: NATSOptions, wall: WallPresence?, clock: Clock,
    deliver: @escaping @Sendable (BoardInput) -> Void
  ) {
    self.address = address
    self.options = options
    self.wall = wall
    self.clock = clock
    self.deliver = deliver
    self.inbox = RelayInbox(clock: clock)
  }

  func perform(_ action: Machine.Action) -> [Machine.Input] {
    switch action {
    case .deliver(let input):
      deliver(input)
      return []
    case .connect:
      closeConnection()
      let inbox = self.inbox
      do throws(NATSError) {
        connection = try NATSConnection.connect(options) { event in
          switch event {
          case .disconnected: inbox.post(.disconnected)
          case .reconnected: inbox.post(.reconnected)
          case .closed: inbox.post(.closed("closed by the client library"))
          case .error(let e): inbox.post(.brokerError(e.description))
          }
        }
        return [.connected]
      } catch {
        return [.connectFailed(error.description)]
      }
    case .disconnect:
      closeConnection()
      return []
    case .readStream:
      guard let connection else { return [.failed("not connected")] }
      do throws(NATSError) {
        return [
          .stream(
            try connection.streamInfo(address.stream).map {
              .init(first: $0.firstSequence, last: $0.lastSequence, created: $0.created)
            })
        ]
      } catch {
        return [.failed("reading the stream \(address.stream): \(error)")]
      }
    case .readBoard:
      guard let connection else { return [.failed("not connected")] }
      do throws(NATSError) {
        return [.board(try connection.get(bucket: address.bucket, key: RelayAddress.boardKey)?.bytes)]
      } catch {
        return [.failed("reading the board from \(address.bucket): \(error)")]
      }
    case .follow(let from):
      unfollow()
      guard let connection else { return [.failed("not connected")] }
      let generation = inbox.nextGeneration()
      let inbox = self.inbox
      do throws(NATSError) {
        subscription = try connection.follow(stream: address.stream, subject: address.subject, from: .sequence(from)) {
          message in inbox.post(message: message, generation: generation)
        }
        return []
      } catch {
        return [.failed("following \(address.stream) from \(from): \(error)")]
      }
    case .unfollow:
      unfollow()
      return []
    case .report(let position):
      guard let connection, let wall else { return [] }
      let report = wall.report(source: address.description, position: position, at: clock.now())
      // A plain publish: a refusal (a wall's credential for another name) comes back as the
      // broker's error, and is said on the board.
      try? connection.publish(subject: address.reportSubject(wall: wall.name), bytes: report.bytes)
      return []
    }
  }

  func await(until deadline: Monotonic) -> [Machine.Input]? { inbox.take(until: deadline) }

  func interrupt(stopping: Bool) { inbox.interrupt() }

  func finish() { closeConnection() }

  private func unfollow() {
    inbox.nextGeneration()
    subscription?.cancel()
    subscription = nil
  }

  private func closeConnection() {
    unfollow()
    connection?.close()
    connection = nil
  }
}

/// What the library's threads hand the driver: the connection's changes and the followed
/// stream's messages, in order, at most `capacity` messages and `maxBytes` of them waiting (a
/// library thread that would pass either waits, and the broker's flow control holds the rest).
/// Messages of an earlier subscription (`generation`) are dropped.
final class RelayInbox: @unchecked Sendable {
  static let capacity = 4096
  static let maxBytes = 32 << 20
  private let condition = Condition()
  private let clock: Clock
  private var items: [RelayFollowMachine.Input] = []
  private var messages = 0
  private var bytes = 0
  private var generation = 0
  private var interrupted = false

  init(clock: Clock) { self.clock = clock }

  func post(_ input: RelayFollowMachine.Input) {
    condition.withLock {
      items.append(input)
      condition.broadcast()
    }
  }

  func post(message: NATSConnection.StreamMessage, generation g: Int) {
    condition.lock()
    defer { condition.unlock() }
    while (messages >= Self.capacity || (bytes > 0 && bytes + message.bytes.count > Self.maxBytes)) && generation == g {
      _ = clock.wait(until: clock.monotonic().adding(seconds: 0.1), on: condition)
    }
    guard generation == g else { return }
    items.append(.message(sequence: message.sequence, bytes: message.bytes))
    messages += 1
    bytes += message.bytes.count
    condition.broadcast()
  }

  /// A new subscription: what the earlier one still delivers is dropped.
  @discardableResult
  func nextGeneration() -> Int {
    condition.withLock {
      generation += 1
      items.removeAll { if case .message = $0 { true } else { false } }
      messages = 0
      bytes = 0
      condition.broadcast()
      return generation
    }
  }

  /// What came, waiting until `deadline` for something; `[]` when interrupted or at the deadline.
  func take(until deadline: Monotonic) -> [RelayFollowMachine.Input] {
    condition.lock()
    defer { condition.unlock() }
    _ = clock.wait(until: deadline, on: condition) { !items.isEmpty || interrupted }
    interrupted = false
    let batch = items.prefix(256)
    items.removeFirst(batch.count)
    for case .message(_, let b) in batch {
      messages -= 1
      bytes -= b.count
    }
    condition.broadcast()
    return Array(batch)
  }

  func interrupt() {
    condition.withLock {
      interrupted = true
      condition.broadcast()
    }
  }
}

extension RelayBoardSource {
  /// `nats://HOST:PORT/BOARD`.
  public struct Spec: SourceConfiguration {
    public var address: RelayAddress
    public var name: String { address.description }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      let options = try RelayLink.options(
        address, role: "wall", credentials: context.natsCredentials, ca: context.natsCA,
        inboxPrefix: context.wall.map { RelayAddress.inboxPrefix(wall: $0.name) }, clock: context.clock)
      return RelayBoardSource(
        address: address, options: options, wall: context.wall, position: context.restored[name]?.relayed,
        clock: context.clock)
    }
  }

  struct Kind: SourceKind {
    var usage: String { "nats://HOST:PORT/BOARD" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      try RelayAddress.parse(text).map { Spec(address: $0) }
    }
  }
}

/// How every part of the relay reaches a board's broker: the options for `address` with the
/// credentials (`--nats-creds`: an NKey seed or a `.creds` file) and the CA (`--nats-ca`).
public enum RelayLink {
  public static func options(
    _ address: RelayAddress, role: String, credentials: String?, ca: String?, inboxPrefix: String? = nil,
    clock: Clock
  ) throws(SourceError) -> NATSOptions {
    var o = NATSOptions(host: address.host, port: address.port, name: "wallboard \(role) \(address.board)")
    if let credentials {
      do throws(NATSError) { o.seed = try NKeySeed.read(path: credentials) } catch {
        throw SourceError(source: address.description, problem: "--nats-creds: \(error)")
      }
    }
    o.caFile = ca
    o.inboxPrefix = inboxPrefix
    o.clock = clock
    return o
  }
}

public import Clock
internal import Codec
internal import EventSources
internal import NATS
public import SourceKit
public import WallboardCore

/// `wallboard publish`'s recorder: every input the board takes goes, encoded, to the board's
/// stream, and the whole board to its bucket every `boardEvery` inputs, on the broker's return
/// from a gap, and at the end. `PublishMachine` holds the logic; a `MachineDriver` runs it on a
/// thread of its own; `PublishShell` makes the broker's calls.
///
/// `record` is called on the store's thread and never waits for the broker: while the broker
/// is away the inputs queue, at most `maxQueued`; past that, they are dropped and the next
/// board goes to the stream as a gap board (`BoardInput.restored`), as the journal does.
public final class BoardPublisher: BoardRecorder, @unchecked Sendable {
  public struct Settings: Sendable {
    /// The whole board is put in the bucket every this many inputs, and this many seconds after
    /// an input when no more came (so that the board a wall starts from is never older than
    /// the stream keeps, however quiet the team).
    public var boardEvery = 500
    public var boardAfter = 5.0
    /// Inputs queued at most while the broker is away (then a gap board).
    public var maxQueued = 50_000
    public var machine = PublishMachine.Settings()
    public init() {}
  }

  public let address: RelayAddress
  public let settings: Settings
  private let driver: MachineDriver<PublishMachine>
  private let shell: PublishShell
  private let lock = Lock()
  private var sinceBoard = 0
  private var gapPending = false
  /// Items posted to the machine (it counts those it took).
  private var posted = 0
  /// When the first input not yet in a board was taken.
  private var unboardedSince: Monotonic?
  private let clock: Clock

  /// - Parameters:
  ///   - link: the broker, connected, with the board's stream and buckets made (`RelayHub.open`).
  ///   - say: a line for standard error.
  public init(
    link: RelayHub, settings: Settings = Settings(), clock: Clock, say: @escaping @Sendable (String) -> Void
  ) {
    self.address = link.address
    self.clock = clock
    var s = settings
    s.machine.maxMessageBytes = min(settings.machine.maxMessageBytes, link.connection.maxPayload)
    self.settings = s
    let boot = String(clock.now().millis)
    driver = MachineDriver(
      PublishMachine(boot: boot, settings: s.machine, seed: UInt64(UInt32.random(in: 0...UInt32.max))),
      clock: clock, name: "wallboard publish \(link.address.board)")
    shell = PublishShell(link: link, say: say)
    let driver = self.driver
    link.events = { event in
      switch event {
      case .disconnected: driver.post(.disconnected)
      case .reconnected: driver.post(.reconnected)
      case .closed: break
      case .error(let e): say("wallboard publish: the broker says: \(e)")
      }
    }
  }

  /// Starts publishing (what was queued before goes first).
  public func start() { driver.start(shell) }

  /// Queues an item directly: the board at start (to the bucket, or as a gap board when the
  /// walls must be given it whole).
  public func take(_ item: PublishMachine.Item) {
    lock.withLock { posted += 1 }
    driver.post(.take(item))
  }

  /// The machine as it stands.
  public var machine: PublishMachine { driver.current }

  /// Waits until everything taken is acknowledged, or `deadline`, or `stop()` says so; true when
  /// drained.
  public func drain(until deadline: Monotonic, clock: Clock, stopped: () -> Bool) -> Bool {
    let posted = lock.withLock { self.posted }
    while !driver.read({ $0.taken >= posted && $0.isDrained }) {
      if clock.monotonic() >= deadline || stopped() { return false }
      clock.sleep(seconds: 0.01)
    }
    return true
  }

  /// Inputs and boards taken and not yet acknowledged (nor refused for good).
  public var unacknowledged: Int {
    let posted = lock.withLock { self.posted }
    return driver.read { m in max(0, posted - m.taken) + m.queue.count }
  }

  /// Stops the thread and closes the connection.
  public func stop() { driver.stop() }

  // MARK: BoardRecorder

  public func record(_ input: BoardInput, _ reduction: Reduction, at: Instant) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let wantsGap = driver.read(\.wantsGap)
    if gapPending || wantsGap || driver.read({ $0.queue.count }) >= settings.maxQueued {
      if !gapPending { shell.say("queue full (\(settings.maxQueued) inputs): a gap board follows") }
      gapPending = true
      return true
    }
    do throws(CodecError) {
      driver.post(.take(.input(try BoardCodec.encode(input, maxBytes: settings.machine.maxMessageBytes))))
      posted += 1
    } catch {
      shell.say("an input cannot be published (\(error)): a gap board follows")
      gapPending = true
      return true
    }
    sinceBoard += 1
    if unboardedSince == nil { unboardedSince = clock.monotonic() }
    return sinceBoard >= settings.boardEvery
  }

  /// Whether the board is due although fewer than `boardEvery` inputs came: `boardAfter`
  /// seconds after the first input it does not hold, or at once when the walls need it whole
  /// (the machine's `wantsGap`). The store's thread asks, and then `save`s.
  public var boardDue: Bool {
    if driver.read(\.wantsGap) { return true }
    return lock.withLock {
      unboardedSince.map { clock.monotonic().seconds(since: $0) >= settings.boardAfter } ?? false
    }
  }

  public func save(_ state: BoardState, at: Instant) {
    lock.lock()
    defer { lock.unlock() }
    let gap = gapPending || driver.read(\.wantsGap)
    driver.post(.take(gap ? .gap(state) : .board(state)))
    posted += 1
    gapPending = false
    sinceBoard = 0
    unboardedSince = nil
  }
}

/// The I/O of the publisher's machine, on its driver's thread.
final class PublishShell: MachineShell, @unchecked Sendable {
  typealias Machine = PublishMachine
  let link: RelayHub
  let say: @Sendable (String) -> Void

  init(link: RelayHub, say: @escaping @Sendable (String) -> Void) {
    self.link = link
    self.say = say
  }

  func say(_ text: String) { say("wallboard publish: \(text)") }

  func perform(_ action: Machine.Action) -> [Machine.Input] {
    let c = link.connection
    let a = link.address
    switch action {
    case .connect:
      do throws(NATSError) {
        // `RelayHub.open` made the stream; made again only if it is gone (the broker asks for
        // its storage again on every create, even of a stream that is there).
        let s: NATSConnection.StreamState
        if let found = try c.streamInfo(a.stream) { s = found } else { s = try link.prepare() }
        return [.connected(.init(created: s.created, last: s.lastSequence))]
      } catch {
        return [.connectFailed(error.description)]
      }
    case .disconnect:
      return []
    case .publish(let bytes, let id):
      do throws(NATSError) {
        return [.published(sequence: try c.publish(subject: a.subject, bytes: bytes, messageId: id).sequence)]
      } catch {
        return [error.kind == .payloadTooLarge ? .publishRefused(error.description) : .publishFailed(error.description)]
      }
    case .readLast:
      do throws(NATSError) {
        let last = try c.lastMessage(stream: a.stream, subject: a.subject)
        return [.last(sequence: last?.sequence ?? 0, id: last?.messageId)]
      } catch {
        return [.lastFailed(error.description)]
      }
    case .putBoard(let board):
      let bytes: [UInt8]
      do throws(CodecError) { bytes = try BoardCodec.encode(board, maxBytes: c.maxPayload) } catch {
        return [.boardRefused(error.description)]
      }
      do throws(NATSError) {
        _ = try c.put(bucket: a.bucket, key: RelayAddress.boardKey, bytes: bytes)
        return [.boardPut]
      } catch {
        return [error.kind == .payloadTooLarge ? .boardRefused(error.description) : .boardFailed(error.description)]
      }
    case .say(let text):
      say(text)
      return []
    }
  }

  func await(until deadline: Monotonic) -> [Machine.Input]? { nil }
  func interrupt(stopping: Bool) {}
}

public import Clock

#if canImport(Glibc)
  internal import Glibc
#endif

/// One QUIC connection to an Orchestra server (QUIC v1, TLS 1.3, the ALPN checked after the
/// handshake), carrying one bidirectional stream per request.
///
/// Threads: ngtcp2 and GnuTLS are used by the connection's own thread alone (`QUICEngine`),
/// which waits in `poll` on the UDP socket and a wake pipe, for at most the time to the
/// connection's next timer. Other threads talk to it through `ConnectionState`: they queue
/// commands (open a stream, write, credit what they read, close) and wake it; it hands them
/// stream data and the connection's fate under the same lock. The connection is up only once
/// the handshake is *confirmed* (with client certificates, a TLS 1.3 client completes its side
/// before the server has checked its certificate).
public final class QUICConnection: @unchecked Sendable {
  /// Timings and windows; upstream's orchestrator keeps alive every 15 s and drops a
  /// connection idle for 5 minutes.
  public struct Settings: Sendable {
    /// The application protocol both sides must agree on.
    public var alpn = "orchestra-plugin"
    public var keepAlive = 15.0
    public var idleTimeout = 300.0
    /// The round trip assumed before one is measured: ngtcp2 0.12's pacer holds the handshake's
    /// second flight back in proportion to it (measured to confirmed against quic-go on loopback,
    /// p50: 24.5 ms at ngtcp2's default 333 ms, 5.1 ms at 50 ms, 3.1 ms at 25 ms, 3.0 ms at 10
    /// ms). 25 ms: a far server's first flight is sent again at most once or twice before the
    /// first sample.
    public var initialRTT = 0.025
    /// Data was sent and not a single packet came back for this long: the server is gone (a
    /// restarted server has forgotten the connection and may stay silent).
    public var lossTimeout = 4.0
    /// How much of one stream's data, and of the connection's, may wait unread: credit is given
    /// back as the reader takes it.
    public var streamWindow = 1 << 20
    public var connectionWindow = 4 << 20
    public init() {}
  }

  /// "127.0.0.1:50100", "[::1]:50100".
  public let peer: String
  let state: ConnectionState
  let clock: Clock

  private init(peer: String, state: ConnectionState, clock: Clock) {
    self.peer = peer
    self.state = state
    self.clock = clock
  }

  /// Dials `host:port` and waits until the handshake is confirmed and the ALPN checked, or
  /// throws why not by `deadline`.
  public static func connect(
    host: String, port: Int, credentials: TLSCredentials, settings: Settings = Settings(),
    until deadline: Monotonic, clock: Clock
  ) throws(QUICError) -> QUICConnection {
    let state = ConnectionState()
    let engine = try QUICEngine.make(
      host: host, port: port, credentials: credentials, settings: settings, state: state, clock: clock,
      handshakeTimeout: max(0.1, deadline.seconds(since: clock.monotonic())))
    let connection = QUICConnection(peer: engine.peer, state: state, clock: clock)
    engine.start()
    state.cond.lock()
    defer { state.cond.unlock() }
    while true {
      switch state.phase {
      case .up: return connection
      case .failed(let e): throw e
      case .handshaking:
        if clock.monotonic() >= deadline || !clock.wait(until: deadline, on: state.cond) {
          if case .handshaking = state.phase {
            state.commands.append(.close)
            state.wake()
            throw .handshakeTimeout(seconds: engine.handshakeTimeout)
          }
        }
      }
    }
  }

  deinit { close() }

  /// Up, and not yet failed or closed.
  public var isUp: Bool { state.cond.withLock { if case .up = state.phase { true } else { false } } }

  /// Why the connection ended, once it has.
  public var failure: QUICError? {
    state.cond.withLock { if case .failed(let e) = state.phase { e } else { nil } }
  }

  /// Opens a bidirectional stream, waiting up to `deadline` for the server to allow one more.
  public func openStream(until deadline: Monotonic) throws(QUICError) -> QUICStream {
    state.cond.lock()
    defer { state.cond.unlock() }
    if case .failed(let e) = state.phase { throw e }
    let token = state.nextToken
    state.nextToken += 1
    state.commands.append(.open(token))
    state.wake()
    while true {
      if let result = state.opened.removeValue(forKey: token) {
        switch result {
        case .success(let buffer): return QUICStream(buffer: buffer, connection: self)
        case .failure(let e): throw e
        }
      }
      if case .failed(let e) = state.phase { throw e }
      if clock.monotonic() >= deadline || !clock.wait(until: deadline, on: state.cond) {
        if clock.monotonic() >= deadline, state.opened[token] == nil {
          state.commands.append(.forget(token))
          state.wake()
          throw .noStream
        }
      }
    }
  }

  /// Closes the connection (a CONNECTION_CLOSE with no error) and ends its thread; its streams
  /// fail with `.closed`. A second call does nothing.
  public func close() {
    state.cond.withLock {
      if case .failed = state.phase { return }
      state.commands.append(.close)
      state.wake()
    }
  }
}

/// What the connection's thread and the threads using its streams share, under `cond`.
final class ConnectionState: @unchecked Sendable {
  enum Phase {
    case handshaking
    case up
    case failed(QUICError)
  }

  /// What a thread asks of the connection's thread.
  enum Command {
    /// Open a bidirectional stream; the answer goes to `opened[token]`.
    case open(Int)
    /// The opener gave up waiting: close the stream if it opens.
    case forget(Int)
    /// Send these bytes on the stream, then its FIN when `fin`.
    case write(Int64, [UInt8], fin: Bool)
    /// The reader took this many bytes: give the credit back.
    case consumed(Int64, Int)
    /// The stream is closed by its user: reset it unless it ended in order, and credit the
    /// connection with what was left unread.
    case release(Int64, unread: Int, reset: Bool)
    case close
  }

  let cond = Condition()
  var phase = Phase.handshaking
  var commands: [Command] = []
  var opened: [Int: Result<StreamBuffer, QUICError>] = [:]
  var nextToken = 0
  /// The live streams' inbound halves, by id.
  var streams: [Int64: StreamBuffer] = [:]
  /// The wake pipe's write end; −1 once the connection's thread has ended.
  var wakeFD: Int32 = -1

  /// Wakes the connection's thread. Under `cond`.
  func wake() {
    guard wakeFD >= 0 else { return }
    var one: UInt8 = 1
    // A full pipe already holds a wake-up.
    _ = Glibc.write(wakeFD, &one, 1)
  }

  /// Ends the connection with `error` (the first reason stays), and every stream with it.
  func fail(_ error: QUICError) {
    cond.withLock {
      if case .failed = phase { return }
      phase = .failed(error)
      cond.broadcast()
    }
  }
}

/// The inbound half of one stream: what came and was not read yet, whether it ended. Under the
/// connection's `cond`.
final class StreamBuffer: @unchecked Sendable {
  let id: Int64
  var inbox = StreamInbox()
  var fin = false
  var reset: UInt64?
  var interrupted = false
  /// This side sent its FIN (so a close after the peer's FIN needs no reset).
  var finSent = false

  init(id: Int64) { self.id = id }
}

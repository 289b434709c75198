public import Clock
internal import Foundation
public import WallboardCore
internal import Wire

/// Follows an Orchestra server over its plugin protocol on TCP (`orchestra://HOST:PORT`).
///
/// The thin shell around `OrchestraSessionMachine`, which holds all the logic: this does the
/// socket I/O (one long-lived subscription stream, short connections for `board_snapshot` and
/// health) and the waiting, on a thread of its own, and feeds what happened back to the machine
/// at instants of the one clock it was given.
public final class OrchestraSource: LiveEventSource, @unchecked Sendable {
  /// Timings; tests shorten them.
  public struct Settings: Sendable {
    public var connectTimeout = 5.0
    public var requestTimeout = 10.0
    /// A health check gets this long to connect and answer.
    public var healthTimeout = 2.0
    /// The session's own timings (health interval, backoff, silence, resyncs).
    public var session = OrchestraSessionMachine.Settings()
    public init() {}
  }

  public let host: String
  public let port: Int
  public let origin: String
  public let settings: Settings
  private let clock: Clock
  private let lock = NSLock()
  private var stopped = false
  private var current: TCPConnection?
  private var retryAt: Instant?

  /// - Parameter clock: the one clock (the board's); the machine reads no other.
  public init(
    host: String, port: Int, origin: String, settings: Settings = Settings(),
    clock: Clock
  ) {
    self.host = host
    self.port = port
    self.origin = origin
    self.settings = settings
    self.clock = clock
  }

  /// When the source will next try to connect, while it waits to.
  public var nextAttemptAt: Instant? { lock.withLock { retryAt } }

  /// Starts following on a thread of its own; inputs go to `deliver`, from that thread.
  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let t = Thread { [self] in run(deliver) }
    t.name = "wallboard \(origin)"
    t.start()
  }

  /// Stops following; the thread ends within a fraction of a second.
  public func stop() {
    lock.withLock {
      stopped = true
      current?.shutdown()
    }
  }

  var isStopped: Bool { lock.withLock { stopped } }

  private func run(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    var machine = OrchestraSessionMachine(
      origin: origin, settings: settings.session, seed: UInt64(UInt32.random(in: 0...UInt32.max)))
    var stream: TCPConnection?
    var framer = LengthPrefixFramer()
    var queue: [OrchestraSessionMachine.Input] = [.start]
    func closeStream() {
      stream?.close()
      stream = nil
      lock.withLock { current = nil }
    }
    defer { closeStream() }

    while machine.phase != .stopped {
      let input: OrchestraSessionMachine.Input
      if isStopped {
        input = .stop
      } else if !queue.isEmpty {
        input = queue.removeFirst()
      } else {
        // Nothing to answer: read the stream (or wait) until the machine's next deadline.
        let wait = machine.nextWake.map { max(0, $0.seconds(since: clock.monotonic())) } ?? 0.25
        queue += awaitStream(stream, framer: &framer, timeout: min(0.25, wait))
        // An ended stream is read no more, whatever the machine does next.
        if queue.contains(where: { if case .streamEnded = $0 { true } else { false } }) { closeStream() }
        input = queue.isEmpty ? .tick : queue.removeFirst()
      }
      for action in machine.on(input, at: clock.monotonic(), stamp: clock.now()) {
        switch action {
        case .deliver(let i):
          deliver(i)
        case .closeStream:
          closeStream()
        case .openStream(let topics):
          closeStream()
          framer = LengthPrefixFramer()
          switch open(topics: topics) {
          case .success(let conn):
            stream = conn
            queue.append(.opened)
          case .failure(let e):
            queue.append(.streamEnded(e.description))
          }
        case .callSnapshot:
          let request = PluginRequest(
            requestId: "snapshot-\(clock.now().millis)",
            request: .toolCall(ToolRequest(toolName: "board_snapshot", arguments: nil)))
          do {
            guard case .toolCall(let t)? = try call(request).response else {
              queue.append(.snapshotFailed("unexpected answer"))
              break
            }
            queue.append(.snapshotAnswered(t))
          } catch {
            queue.append(.snapshotFailed(error.description))
          }
        case .checkHealth:
          do {
            try health()
            queue.append(.healthy)
          } catch {
            queue.append(.unhealthy(error.description))
          }
        }
      }
      // Shown as a wall time: the monotonic wait from now on.
      let shown = machine.retryAt.map { clock.now().adding(seconds: $0.seconds(since: clock.monotonic())) }
      lock.withLock { retryAt = shown }
    }
  }

  /// Reads what the stream has within `timeout`: frames, or its end.
  private func awaitStream(
    _ stream: TCPConnection?, framer: inout LengthPrefixFramer, timeout: Double
  ) -> [OrchestraSessionMachine.Input] {
    guard let stream else {
      Thread.sleep(forTimeInterval: min(timeout, 0.1))
      return []
    }
    do {
      switch try stream.read(timeout: timeout) {
      case .timedOut: return []
      case .closed:
        return [.streamEnded(framer.isMidFrame ? "connection closed mid-frame" : "server closed the connection")]
      case .bytes(let b):
        var out: [OrchestraSessionMachine.Input] = []
        for f in try framer.push(b) { out.append(.received(try PluginResponse.decode(f))) }
        return out
      }
    } catch let e as TCPConnection.Failure {
      return [.streamEnded(e.description)]
    } catch {
      return [.streamEnded("protocol error: \(error)")]
    }
  }

  /// Why a connection or request failed.
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// Connects the subscription stream and sends one `Subscribe` per topic.
  private func open(topics: [String]) -> Result<TCPConnection, Failed> {
    let conn: TCPConnection
    do { conn = try TCPConnection.connect(host: host, port: port, timeout: settings.connectTimeout) } catch {
      return .failure(Failed(description: error.description))
    }
    let registered = lock.withLock { () -> Bool in
      current = conn
      return !stopped
    }
    guard registered else {
      conn.close()
      return .failure(Failed(description: "stopped"))
    }
    for (i, topic) in topics.enumerated() {
      let sub = Subscribe(subscriptionId: "wallboard-\(clock.now().millis)-\(i)", topic: topic, filters: [:])
      do {
        try conn.write(
          LengthPrefixFramer.frame(PluginRequest(requestId: "sub-\(i)", request: .subscribe(sub)).encode()))
      } catch {
        conn.close()
        return .failure(Failed(description: error.description))
      }
    }
    return .success(conn)
  }

  /// Sends one request on a new connection and reads one response within `timeout` seconds
  /// (default: the request timeout).
  func call(_ request: PluginRequest, timeout: Double? = nil) throws(Failed) -> PluginResponse {
    let limit = timeout ?? settings.requestTimeout
    let conn: TCPConnection
    do { conn = try TCPConnection.connect(host: host, port: port, timeout: min(settings.connectTimeout, limit)) } catch
    {
      throw Failed(description: error.description)
    }
    defer { conn.close() }
    do { try conn.write(LengthPrefixFramer.frame(request.encode())) } catch {
      throw Failed(description: error.description)
    }
    var framer = LengthPrefixFramer()
    let deadline = clock.monotonic().adding(seconds: limit)
    while !isStopped {
      let left = deadline.seconds(since: clock.monotonic())
      if left <= 0 { throw Failed(description: "no answer from \(host):\(port) within \(Int(limit.rounded())) s") }
      let r: TCPConnection.ReadResult
      do { r = try conn.read(timeout: min(0.25, left)) } catch { throw Failed(description: error.description) }
      switch r {
      case .timedOut: continue
      case .closed: throw Failed(description: "\(host):\(port) closed the connection before answering")
      case .bytes(let b):
        let frames: [[UInt8]]
        do { frames = try framer.push(b) } catch { throw Failed(description: "protocol error: \(error)") }
        if let f = frames.first {
          do { return try PluginResponse.decode(f) } catch { throw Failed(description: "protocol error: \(error)") }
        }
      }
    }
    throw Failed(description: "stopped")
  }

  /// Asks the server's health; throws when it does not answer healthy or degraded.
  func health() throws(Failed) {
    let r = try call(
      PluginRequest(requestId: "health-\(clock.now().millis)", request: .health), timeout: settings.healthTimeout)
    guard case .health(let h)? = r.response else { throw Failed(description: "health: unexpected answer") }
    guard h.status == .healthy || h.status == .degraded else {
      throw Failed(description: "server unhealthy: \(h.message)")
    }
  }
}

extension OrchestraSource {
  /// `orchestra://HOST:PORT` (an IPv6 host in brackets).
  public struct Spec: SourceConfiguration {
    public var host: String
    public var port: Int
    public var name: String { "orchestra://\(host):\(port)" }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      OrchestraSource(host: host, port: port, origin: name, clock: context.clock)
    }
  }

  struct Kind: SourceKind {
    var usage: String { "orchestra://HOST:PORT" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      guard text.hasPrefix("orchestra://") else { return nil }
      let rest = text.dropFirst("orchestra://".count)
      guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
        (1...65535).contains(port), colon != rest.startIndex
      else { throw SourceSpecError(text: text, problem: "expected orchestra://HOST:PORT with a port 1–65535") }
      var host = String(rest[..<colon])
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      return Spec(host: host, port: port)
    }
  }
}

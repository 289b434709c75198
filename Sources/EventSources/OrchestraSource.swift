public import Clock
public import SourceKit
public import Transport
public import WallboardCore
internal import Wire

/// Follows an Orchestra server over its plugin protocol: `orchestra://HOST:PORT` on TCP,
/// `orchestra+quic://HOST:PORT` on QUIC with mutual TLS — the same source, another dialer.
///
/// `OrchestraSessionMachine` holds all the logic; `MachineDriver` runs it on a thread of its
/// own; the shell below does its actions through `OrchestraLink` (one long-lived subscription
/// stream, short streams for `board_snapshot` and health) and hands what it delivers on.
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
  private let dialer: any TransportDialer
  private let driver: MachineDriver<OrchestraSessionMachine>

  /// - Parameters:
  ///   - clock: the one clock (the board's); the machine reads no other.
  ///   - dialer: how streams to the server are opened (TCP, unless a test or another
  ///     transport says otherwise).
  ///   - seed: the backoff's jitter.
  public init(
    host: String, port: Int, origin: String, settings: Settings = Settings(),
    clock: Clock, dialer: (any TransportDialer)? = nil, seed: UInt64 = UInt64(UInt32.random(in: 0...UInt32.max))
  ) {
    self.host = host
    self.port = port
    self.origin = origin
    self.settings = settings
    self.clock = clock
    self.dialer = dialer ?? TCPDialer(clock: clock)
    self.driver = MachineDriver(
      OrchestraSessionMachine(origin: origin, settings: settings.session, seed: seed), clock: clock,
      name: "wallboard \(origin)")
  }

  /// When the source will next try to connect, while it waits to: the machine's monotonic
  /// retry shown as a wall time.
  public var nextAttemptAt: Instant? {
    driver.current.retryAt.map { clock.now().adding(seconds: $0.seconds(since: clock.monotonic())) }
  }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    let link = OrchestraLink(host: host, port: port, dialer: dialer, clock: clock, interrupter: Interrupter())
    driver.start(OrchestraShell(link: link, settings: settings, clock: clock, deliver: deliver))
  }

  /// Stops following; the thread ends at once (a read or a call in progress is interrupted).
  public func stop() { driver.stop() }
}

/// The I/O of an Orchestra session's actions, on the driver's thread.
final class OrchestraShell: MachineShell, @unchecked Sendable {
  typealias Machine = OrchestraSessionMachine
  private let link: OrchestraLink
  private let settings: OrchestraSource.Settings
  private let clock: Clock
  private let deliver: @Sendable (BoardInput) -> Void
  private var stream: OrchestraStream?

  init(
    link: OrchestraLink, settings: OrchestraSource.Settings, clock: Clock,
    deliver: @escaping @Sendable (BoardInput) -> Void
  ) {
    self.link = link
    self.settings = settings
    self.clock = clock
    self.deliver = deliver
  }

  func perform(_ action: Machine.Action) -> [Machine.Input] {
    switch action {
    case .deliver(let input):
      deliver(input)
      return []
    case .closeStream:
      closeStream()
      return []
    case .openStream(let topics):
      closeStream()
      do throws(OrchestraLink.Failure) {
        stream = try link.subscribe(
          topics: topics, id: "wallboard-\(clock.now().millis)", connectTimeout: settings.connectTimeout)
        return [.opened]
      } catch {
        return [.streamEnded(error.description)]
      }
    case .callSnapshot:
      let request = PluginRequest(
        requestId: "snapshot-\(clock.now().millis)",
        request: .toolCall(ToolRequest(toolName: "board_snapshot", arguments: nil)))
      do throws(OrchestraLink.Failure) {
        let answer = try link.call(
          request, timeout: settings.requestTimeout, connectTimeout: settings.connectTimeout)
        guard case .toolCall(let t)? = answer.response else { return [.snapshotFailed("unexpected answer")] }
        return [.snapshotAnswered(t)]
      } catch {
        return [.snapshotFailed(error.description)]
      }
    case .checkHealth:
      return [health()]
    case .callTool(let tool):
      let request = PluginRequest(requestId: "tool-\(clock.now().millis)", request: .toolCall(tool))
      do throws(OrchestraLink.Failure) {
        let answer = try link.call(
          request, timeout: settings.requestTimeout, connectTimeout: settings.connectTimeout)
        guard case .toolCall(let t)? = answer.response else {
          return [.toolFailed("\(tool.toolName): unexpected answer")]
        }
        return [.toolAnswered(t)]
      } catch {
        return [.toolFailed("\(tool.toolName): \(error.description)")]
      }
    }
  }

  /// Asks the server's health: healthy or degraded is `.healthy`.
  private func health() -> Machine.Input {
    let request = PluginRequest(requestId: "health-\(clock.now().millis)", request: .health)
    do throws(OrchestraLink.Failure) {
      let r = try link.call(request, timeout: settings.healthTimeout, connectTimeout: settings.connectTimeout)
      guard case .health(let h)? = r.response else { return .unhealthy("health: unexpected answer") }
      guard h.status == .healthy || h.status == .degraded else { return .unhealthy("server unhealthy: \(h.message)") }
      return .healthy
    } catch {
      return .unhealthy(error.description)
    }
  }

  func await(until deadline: Monotonic) -> [Machine.Input]? {
    guard let stream else { return nil }
    switch stream.await(until: deadline) {
    case .frames(let frames): return frames.map { .received($0) }
    case .ended(let why):
      // An ended stream is read no more, whatever the machine does next.
      closeStream()
      return [.streamEnded(why)]
    }
  }

  func interrupt(stopping: Bool) { link.interrupter.interrupt(stopping: stopping) }

  func finish() {
    closeStream()
    link.dialer.close()
  }

  private func closeStream() {
    stream?.close()
    stream = nil
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
      try Self.address(text, scheme: "orchestra://").map { Spec(host: $0.host, port: $0.port) }
    }

    /// HOST and PORT of `SCHEME` HOST:PORT (an IPv6 host in brackets); nil: another scheme.
    static func address(_ text: String, scheme: String) throws(SourceSpecError) -> (host: String, port: Int)? {
      guard text.hasPrefix(scheme) else { return nil }
      let rest = text.dropFirst(scheme.count)
      guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
        (1...65535).contains(port), colon != rest.startIndex
      else { throw SourceSpecError(text: text, problem: "expected \(scheme)HOST:PORT with a port 1–65535") }
      var host = String(rest[..<colon])
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      return (host, port)
    }
  }
}

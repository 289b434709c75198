internal import Foundation
public import WallboardCore
internal import Wire

/// Follows an Orchestra server over its plugin protocol on TCP (`orchestra://HOST:PORT`).
///
/// One long-lived subscription connection (one `Subscribe` per topic), a `board_snapshot`
/// bootstrap on every (re)connect on a short connection — live events that arrive meanwhile
/// wait in the socket and are applied after it, those the snapshot already reflects skipped —
/// and a `HealthRequest` every few seconds. Any failure closes the connection and retries with
/// exponential backoff and jitter; a sequence gap triggers a resync. Every change of status is
/// delivered at once as a `.connection` input. A server that answers only health (as upstream
/// orchestrators do today) shows as healthy with no event stream.
public final class OrchestraSource: @unchecked Sendable {
  /// Timings; tests shorten them.
  public struct Settings: Sendable {
    public var connectTimeout = 5.0
    public var requestTimeout = 10.0
    public var healthInterval = 5.0
    /// A health check gets this long to connect and answer; a failed one ends the session.
    public var healthTimeout = 2.0
    public var backoffInitial = 1.0
    public var backoffMax = 30.0
    /// Live this long, and the backoff starts again from `backoffInitial`.
    public var stableAfter = 60.0
    /// Nothing heard for this long (no event, ack or health answer): the connection is dropped
    /// and made again. The board shows the source stale from the same limit.
    public var silenceLimit = 30.0
    /// At most one resync (`board_snapshot` after a gap) per this many seconds; gaps meanwhile
    /// share it.
    public var resyncInterval = 2.0
    public init() {}
  }

  public let host: String
  public let port: Int
  public let origin: String
  public let settings: Settings
  private let decoder: EventDecoder
  private let lock = NSLock()
  private var stopped = false
  private var current: TCPConnection?
  private var retryAt: Instant?
  private var jitter = SplitMix64(seed: UInt64(UInt32.random(in: 0...UInt32.max)))

  public init(host: String, port: Int, origin: String, settings: Settings = Settings()) {
    self.host = host
    self.port = port
    self.origin = origin
    self.settings = settings
    self.decoder = EventDecoder()
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

  static func now() -> Instant { Instant(millis: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }

  /// Why a session ended.
  struct Ended: Error, CustomStringConvertible {
    var description: String
    /// The server answered health but refused the event stream.
    var healthOnly = false
  }

  private func run(_ deliver: @escaping @Sendable (BoardInput) -> Void) {
    var attempt = 0
    var lastError: String?
    var healthOnly = false
    while !isStopped {
      if !healthOnly {
        let status: ConnectionStatus = attempt == 0 ? .connecting : attempt >= 5 ? .offline : .reconnecting
        deliver(.connection(origin: origin, status: status, at: Self.now(), detail: lastError))
      }
      let started = Date()
      var session = Session(source: self, deliver: deliver)
      do {
        try session.run()
        break  // stopped
      } catch {
        if isStopped { break }
        lastError = error.description
        healthOnly = error.healthOnly
      }
      if session.wentLive && Date().timeIntervalSince(started) >= settings.stableAfter { attempt = 0 }
      attempt += 1
      let base =
        healthOnly
        ? settings.backoffMax : min(settings.backoffMax, settings.backoffInitial * pow(2, Double(attempt - 1)))
      let delay = base * lock.withLock { jitter.double(0.8...1.2) }
      let at = Self.now().adding(seconds: delay)
      lock.withLock { retryAt = at }
      if !healthOnly {
        // A few quick retries show as reconnecting; a server that stays away is offline.
        let status: ConnectionStatus = attempt >= 5 ? .offline : .reconnecting
        deliver(.connection(origin: origin, status: status, at: Self.now(), detail: lastError))
      }
      sleep(seconds: delay, healthOnly: healthOnly, deliver: deliver)
      lock.withLock { retryAt = nil }
    }
    deliver(.connection(origin: origin, status: .offline, at: Self.now(), detail: "stopped"))
  }

  /// Sleeps in small steps so that `stop()` is noticed; a health-only server keeps being asked.
  private func sleep(seconds: Double, healthOnly: Bool, deliver: @escaping @Sendable (BoardInput) -> Void) {
    let end = Date().addingTimeInterval(seconds)
    var nextHealth = Date().addingTimeInterval(settings.healthInterval)
    while !isStopped && Date() < end {
      Thread.sleep(forTimeInterval: min(0.1, max(0, end.timeIntervalSinceNow)))
      if healthOnly && Date() >= nextHealth {
        nextHealth = Date().addingTimeInterval(settings.healthInterval)
        if (try? health()) != nil {
          deliver(.connection(origin: origin, status: .live, at: Self.now(), detail: Session.healthOnlyDetail))
        } else {
          deliver(.connection(origin: origin, status: .reconnecting, at: Self.now(), detail: "health check failed"))
        }
      }
    }
  }

  // MARK: One request on a short connection

  /// Sends one request on a new connection and reads one response within `timeout` seconds
  /// (default: the request timeout).
  func call(_ request: PluginRequest, timeout: Double? = nil) throws(Ended) -> PluginResponse {
    let limit = timeout ?? settings.requestTimeout
    let conn: TCPConnection
    do { conn = try TCPConnection.connect(host: host, port: port, timeout: min(settings.connectTimeout, limit)) } catch
    {
      throw Ended(description: error.description)
    }
    defer { conn.close() }
    do { try conn.write(LengthPrefixFramer.frame(request.encode())) } catch {
      throw Ended(description: error.description)
    }
    var framer = LengthPrefixFramer()
    let deadline = Date().addingTimeInterval(limit)
    while !isStopped {
      let left = deadline.timeIntervalSinceNow
      if left <= 0 {
        throw Ended(description: "no answer from \(host):\(port) within \(Int(settings.requestTimeout)) s")
      }
      let r: TCPConnection.ReadResult
      do { r = try conn.read(timeout: min(0.25, left)) } catch { throw Ended(description: error.description) }
      switch r {
      case .timedOut: continue
      case .closed: throw Ended(description: "\(host):\(port) closed the connection before answering")
      case .bytes(let b):
        let frames: [[UInt8]]
        do { frames = try framer.push(b) } catch { throw Ended(description: "protocol error: \(error)") }
        if let f = frames.first {
          do { return try PluginResponse.decode(f) } catch { throw Ended(description: "protocol error: \(error)") }
        }
      }
    }
    throw Ended(description: "stopped")
  }

  /// Asks the server's health; throws when it does not answer healthy or degraded.
  func health() throws(Ended) -> HealthResult {
    let r = try call(
      PluginRequest(requestId: "health-\(Self.now().millis)", request: .health), timeout: settings.healthTimeout)
    guard case .health(let h)? = r.response else { throw Ended(description: "health: unexpected answer") }
    guard h.status == .healthy || h.status == .degraded else {
      throw Ended(description: "server unhealthy: \(h.message)")
    }
    return h
  }

  func register(_ c: TCPConnection?) -> Bool {
    lock.withLock {
      current = c
      return !stopped
    }
  }
}

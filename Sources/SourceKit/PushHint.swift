public import Clock
internal import WallboardCore
public import Wire

/// What a running `orchestra serve` says of itself in `~/.orchestra/run/<slug>.info`
/// (`orchestra-storage.md` §3): its process, its TCP address and its workspace.
public struct RunInfo: Hashable, Sendable {
  public var pid: Int32
  public var host: String
  public var port: Int
  public var workspace: String

  public init(pid: Int32, host: String, port: Int, workspace: String) {
    self.pid = pid
    self.host = host
    self.port = port
    self.workspace = workspace
  }

  /// The largest `.info` file read.
  public static let maxBytes = 16 * 1024

  /// The slug upstream names the file by: the workspace's base name, lower-cased, every
  /// character but `a-z0-9_-` as `-`.
  public static func slug(of workspace: String) -> String {
    let base = workspace.split(separator: "/").last.map(String.init) ?? ""
    return String(
      base.lowercased().unicodeScalars.map { c -> Character in
        (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "_" || c == "-" ? Character(c) : "-"
      })
  }

  /// Reads an `.info` file's bytes: `{"pid":…, "tcp_addr":"host:port", "workspace":"/abs"}`.
  /// Nil when it is not one (or names no TCP address).
  public static func parse(_ bytes: [UInt8]) -> RunInfo? {
    guard bytes.count <= maxBytes,
      case .object(let o)? = try? JSONParser.parse(bytes, limits: JSONLimits(maxDepth: 3)),
      case .number(let pid)? = o["pid"], pid >= 1, pid <= Double(Int32.max), pid == pid.rounded(),
      case .string(let addr)? = o["tcp_addr"], case .string(let ws)? = o["workspace"]
    else { return nil }
    guard let colon = addr.lastIndex(of: ":"), let port = Int(addr[addr.index(after: colon)...]),
      (1...65535).contains(port)
    else { return nil }
    var host = String(addr[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.isEmpty || host == "0.0.0.0" { host = "127.0.0.1" }
    if host == "::" { host = "::1" }
    return RunInfo(pid: Int32(pid), host: host, port: port, workspace: ws)
  }
}

/// The logic of listening to a newer `orchestra serve`'s push (`features` events on its TCP
/// port) as a hint to read the store now. Pure: inputs at monotonic instants in, actions out;
/// `WorkspaceMachine` wraps it, and the shell (`OrchestraWorkspaceSource`) does the file reads
/// and the socket.
///
/// The push is never the truth — upstream publishes nothing for label, estimate or dependency
/// changes, and its bus drops events when a subscriber is slow — so a hint only makes the store
/// be read sooner; without a server (or an older one, which has no push) nothing changes.
///
/// Only a loopback server is heard (`PushHost`: the shell resolves the host and answers
/// `.refused` for any other, which `note` then says). Every failure backs off with the shared
/// `Backoff` — a refusal, a failed connect, and a connection that ends before it held
/// `stableAfter` seconds (a server that accepts and hangs up is not called every second) — and
/// pushes read the store at most once per `minReadInterval`, the rest of a burst in one read.
public struct PushHintMachine: Sendable {
  public enum Input: Sendable {
    case start
    /// Time passed.
    case tick
    /// The `.info` file as read: the server, or nil (no file, not one, another workspace, or
    /// its process gone).
    case info(RunInfo?)
    case connected
    case connectFailed(String)
    /// The host is not one the hint connects to (not a loopback address); nothing was tried.
    case refused(PushHost.Refusal)
    case received(PluginResponse)
    case ended(String)
    case stop
  }

  public enum Action: Hashable, Sendable {
    case readInfo
    /// Connect to the server and subscribe to `features`.
    case connect(host: String, port: Int)
    case close
    /// Read the store now.
    case readStore(reason: String)
  }

  public enum Phase: Hashable, Sendable { case idle, looking, connecting, listening, waiting, stopped }

  public private(set) var phase: Phase = .idle
  /// When the shell should call again with `.tick` while nothing else happens.
  public private(set) var nextWake: Monotonic?
  /// The server heard: "127.0.0.1:50234", or nil.
  public private(set) var listeningTo: String?
  /// The last refusal, until a server is heard or none is named: "push from 203.0.113.5:50234
  /// refused: not a loopback address (203.0.113.5)". The same refusal again leaves it as it is.
  public private(set) var refusal: String?
  /// What the board's detail says of the push: "push from 127.0.0.1:50234", the refusal, or nil.
  public var note: String? { listeningTo.map { "push from \($0)" } ?? refusal }
  /// How long a connection must have held for its end to start the backoff from its first step.
  public var stableAfter = 30.0
  /// The least time between two reads of the store that pushes ask for.
  public var minReadInterval = 0.5
  /// How often the `.info` file is looked at while no server is there.
  public var lookInterval = 10.0
  private var backoff: Backoff
  private var attempt = 0
  private var target: RunInfo?
  private var listeningSince: Monotonic?
  private var lastRead: Monotonic?
  /// A push heard within `minReadInterval` of the last read: read at `nextWake`.
  private var pendingRead: String?

  public init(seed: UInt64, lookInterval: Double = 10) {
    backoff = Backoff(initial: 1, max: 30, seed: seed)
    self.lookInterval = lookInterval
  }

  /// Takes one input at `now` on the monotonic clock (every timer runs on it).
  public mutating func on(_ input: Input, at now: Monotonic) -> [Action] {
    switch (input, phase) {
    case (.stop, _):
      let was = phase
      phase = .stopped
      nextWake = nil
      listeningTo = nil
      refusal = nil
      return was == .connecting || was == .listening ? [.close] : []
    case (_, .stopped):
      return []
    case (.start, .idle):
      phase = .looking
      return [.readInfo]
    case (.info(let info?), .looking):
      target = info
      phase = .connecting
      nextWake = nil
      return [.connect(host: info.host, port: info.port)]
    case (.info(nil), .looking):
      refusal = nil
      attempt = 0
      return wait(lookInterval, at: now)
    case (.connected, .connecting):
      phase = .listening
      refusal = nil
      listeningSince = now
      listeningTo = target.map { "\($0.host):\($0.port)" }
      // What changed while nobody listened is read now.
      lastRead = now
      return [.readStore(reason: "push connected")]
    case (.connectFailed, .connecting):
      attempt += 1
      return wait(backoff.delay(attempt: attempt), at: now)
    case (.refused(let r), .connecting):
      refusal = "push from \(target.map { "\($0.host):\($0.port)" } ?? r.host) refused: \(r.why)"
      attempt += 1
      return wait(backoff.delay(attempt: attempt), at: now)
    case (.received(let r), .listening):
      guard case .eventDelivery(let d)? = r.response, !d.isAcknowledgement, d.topic == "features" else { return [] }
      let reason = "pushed \(d.eventType.isEmpty ? "features" : d.eventType)"
      if let last = lastRead, now < last.adding(seconds: minReadInterval) {
        // Within the interval: one read when it is over, for the whole burst.
        pendingRead = reason
        nextWake = last.adding(seconds: minReadInterval)
        return []
      }
      return read(reason, at: now)
    case (.tick, .listening):
      guard let reason = pendingRead, let wake = nextWake, now >= wake else { return [] }
      return read(reason, at: now)
    case (.ended, .listening):
      listeningTo = nil
      pendingRead = nil
      // A connection that held starts the backoff again; one that ended at once goes on with it.
      if let since = listeningSince, now >= since.adding(seconds: stableAfter) { attempt = 0 }
      attempt += 1
      return [.close] + wait(backoff.delay(attempt: attempt), at: now)
    case (.tick, .waiting):
      guard let wake = nextWake, now >= wake else { return [] }
      phase = .looking
      nextWake = nil
      return [.readInfo]
    default:
      return []
    }
  }

  private mutating func read(_ reason: String, at now: Monotonic) -> [Action] {
    pendingRead = nil
    nextWake = nil
    lastRead = now
    return [.readStore(reason: reason)]
  }

  private mutating func wait(_ seconds: Double, at now: Monotonic) -> [Action] {
    phase = .waiting
    nextWake = now.adding(seconds: seconds)
    return []
  }
}

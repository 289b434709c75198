public import Clock

/// How to reach a NATS server (a hub) and who to be there.
public struct NATSOptions: Sendable {
  /// The server's name or address, and port (TLS is `caFile`'s, not the port's).
  public var host: String
  public var port: Int
  /// The client's name, as the server shows it (connz, logs).
  public var name: String
  /// NKey authentication: the public key is derived and the server's nonce signed with this seed
  /// (`natsOptions_SetNKey` with our own signer; the seed never goes to libnats).
  public var seed: NKeySeed?
  /// TLS: the PEM CA the server's certificate must chain to; the host is verified against it.
  public var caFile: String?
  /// The prefix of reply subjects (`natsOptions_SetCustomInboxPrefix`), so a user's permissions can
  /// allow only its own inbox ("_INBOX_wall1").
  public var inboxPrefix: String?
  /// Seconds to wait for the connection (TCP, TLS and the server's answer).
  public var connectTimeout: Double = 2
  /// Seconds to wait for any JetStream request (`jsOptions.Wait`): stream and bucket calls,
  /// acknowledged publishes, consumer creation.
  public var requestTimeout: Double = 2
  /// Seconds between reconnection attempts once connected.
  public var reconnectWait: Double = 0.5
  /// Seconds between the client's pings, and how many may go unanswered before the connection
  /// is taken as lost: a server gone silent (a cable pulled) is noticed within about
  /// `pingInterval × (maxPingsOut + 1)` (the library's default is two minutes a ping).
  public var pingInterval: Double = 5
  public var maxPingsOut = 2
  /// Reconnection attempts once connected; −1: for ever (the library's own reconnect).
  public var maxReconnect: Int = -1
  /// The clock the bounded waits of `close()` and `cancel()` (for libnats's last callbacks) run on;
  /// libnats's own timeouts are its own.
  public var clock: Clock = .system

  public init(host: String, port: Int, name: String = "wallboard") {
    self.host = host
    self.port = port
    self.name = name
  }

  /// "host:port", with brackets for an IPv6 address, as errors and URLs write it.
  public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

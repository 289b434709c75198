public import Clock
public import Transport

/// Opens streams to one Orchestra server over QUIC (`orchestra+quic://HOST:PORT`): one
/// connection, kept while it is up and made again when it is not, one bidirectional stream per
/// `open` (one request, or one subscription).
///
/// The certificates are read again for each new connection, so fixing a file needs no restart.
public final class QUICDialer: TransportDialer, @unchecked Sendable {
  /// The certificate folder (`ca.crt`, and `wallboard-client.crt` + `.key` when present).
  public let certificates: String
  public let settings: QUICConnection.Settings
  private let clock: Clock
  private let lock = Lock()
  private var connection: QUICConnection?

  public init(certificates: String, settings: QUICConnection.Settings = QUICConnection.Settings(), clock: Clock) {
    self.certificates = certificates
    self.settings = settings
    self.clock = clock
  }

  deinit { close() }

  public func open(host: String, port: Int, until deadline: Monotonic) throws(TransportError) -> any Transport {
    let peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    lock.lock()
    defer { lock.unlock() }
    do throws(QUICError) {
      if let c = connection, c.isUp {
        do throws(QUICError) { return try c.openStream(until: deadline) } catch {
          // The connection failed under us: one more try on a new one.
          if c.isUp { throw error }
        }
      }
      connection?.close()
      connection = nil
      let credentials = try TLSCredentials(directory: certificates)
      let c = try QUICConnection.connect(
        host: host, port: port, credentials: credentials, settings: settings, until: deadline, clock: clock)
      connection = c
      return try c.openStream(until: deadline)
    } catch {
      throw TransportError(.connect, peer: peer, reason: error.description)
    }
  }

  /// Closes the connection, if one is open.
  public func close() {
    let c = lock.withLock { () -> QUICConnection? in
      defer { connection = nil }
      return connection
    }
    c?.close()
  }
}

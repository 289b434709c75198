internal import CNATS
internal import Clock

#if canImport(Glibc)
  internal import Glibc
#endif

/// What libnats's connection callbacks reach through their closure pointer: the caller's events,
/// the NKey seed for the nonce, and whether the closed callback (libnats's last) came.
final class ConnectionContext: @unchecked Sendable {
  let library: NATSLibrary
  let address: String
  let events: @Sendable (NATSConnection.Event) -> Void
  let seed: [UInt8]?
  let crypto: NATSCrypto?
  /// What the wait for the closed callback is measured on.
  let clock: Clock
  private let condition = Condition()
  private var closedSeen = false

  init(
    library: NATSLibrary, address: String, events: @escaping @Sendable (NATSConnection.Event) -> Void,
    seed: [UInt8]?, crypto: NATSCrypto?, clock: Clock
  ) {
    self.clock = clock
    self.library = library
    self.address = address
    self.events = events
    self.seed = seed
    self.crypto = crypto
  }

  /// Whether the closed callback came within `timeout` seconds.
  func waitClosed(timeout: Double) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return clock.wait(until: clock.monotonic().adding(seconds: timeout), on: condition) { closedSeen }
  }

  static func from(_ closure: UnsafeMutableRawPointer?) -> ConnectionContext {
    Unmanaged<ConnectionContext>.fromOpaque(closure!).takeUnretainedValue()
  }

  static let disconnected: natsConnectionHandler = { _, closure in from(closure).events(.disconnected) }
  static let reconnected: natsConnectionHandler = { _, closure in from(closure).events(.reconnected) }

  /// libnats's last callback for the connection: after it, the retain made for libnats goes.
  static let closed: natsConnectionHandler = { _, closure in
    let context = from(closure)
    context.events(.closed)
    context.condition.withLock {
      context.closedSeen = true
      context.condition.broadcast()
    }
    Unmanaged<ConnectionContext>.fromOpaque(closure!).release()
  }

  /// Asynchronous errors: permission violations, slow consumers, missed heartbeats.
  static let failed: natsErrHandler = { nc, _, status, closure in
    let context = from(closure)
    var text: UnsafePointer<CChar>?
    if let nc { _ = context.library.api.pointee.natsConnection_GetLastError(nc, &text) }
    let detail = text.map { String(cString: $0) }
    context.events(.error(context.library.error("the connection to \(context.address)", status, detail: detail)))
  }

  /// Signs the server's nonce with the seed's Ed25519 key: a malloc'd 64-byte signature that
  /// libnats frees (at every connect and reconnect).
  static let sign: natsSignatureHandler = { errorText, signature, length, nonce, closure in
    let context = from(closure)
    guard let seed = context.seed, let crypto = context.crypto, let nonce, let signature, let length,
      let out = malloc(64)?.assumingMemoryBound(to: UInt8.self)
    else { return NATS_ERR }
    let signed = crypto.sign(seed: seed, message: UnsafeRawBufferPointer(start: nonce, count: strlen(nonce)), into: out)
    guard signed else {
      free(out)
      errorText?.pointee = strdup("Ed25519 signing of the server's nonce failed (libcrypto)")
      return NATS_ERR
    }
    signature.pointee = out
    length.pointee = 64
    return NATS_OK
  }
}

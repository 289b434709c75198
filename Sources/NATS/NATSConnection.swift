internal import CNATS
internal import Clock

#if canImport(Glibc)
  internal import Glibc
#endif

/// One connection to a NATS server (`natsConnection`, with its JetStream context `jsCtx`): core
/// publish and subscribe, and, in extensions, JetStream streams, acknowledged publishes, ordered
/// consumers and key-value buckets.
///
/// Threads: every call may come from any thread; libnats is thread-safe. Nothing waits for ever:
/// the connection has `connectTimeout`, JetStream calls `requestTimeout`, a flush its own. Events
/// and subscription handlers are called on libnats's threads; a caller hands them to its own.
///
/// Once connected, libnats reconnects by itself (`maxReconnect`, `reconnectWait`) and re-creates
/// ordered consumers; `Event` says when the connection drops and comes back.
///
/// Ownership: the handles are destroyed in `deinit`, after `close()`. The context the callbacks
/// reach (events, the seed) is retained for libnats and released by the closed callback, the last
/// one libnats makes; subscriptions retain their connection.
public final class NATSConnection: @unchecked Sendable {
  /// What happens to the connection after it was made.
  public enum Event: Sendable {
    /// The connection dropped (libnats reconnects by itself, or the connection is closing).
    case disconnected
    /// The connection is back; ordered consumers carry on.
    case reconnected
    /// The connection is closed for good: `close()`, or the reconnect attempts ran out.
    case closed
    /// An asynchronous error: a publish or subscription the server refused ("Permissions
    /// Violation", kind `notPermitted`), a slow consumer, missed heartbeats.
    case error(NATSError)
  }

  let library: NATSLibrary
  let handle: OpaquePointer
  let js: OpaquePointer
  let context: ConnectionContext
  /// "host:port", for errors.
  public let address: String
  let requestTimeout: Double
  private let lock = Lock()
  private var closed = false

  private init(
    library: NATSLibrary, handle: OpaquePointer, js: OpaquePointer, context: ConnectionContext, address: String,
    requestTimeout: Double
  ) {
    self.library = library
    self.handle = handle
    self.js = js
    self.context = context
    self.address = address
    self.requestTimeout = requestTimeout
  }

  deinit {
    close()
    library.api.pointee.jsCtx_Destroy(js)
    library.api.pointee.natsConnection_Destroy(handle)
  }

  /// Connects (`natsConnection_Connect`) and makes the JetStream context. `events` is called on
  /// libnats's threads from then on, until `.closed`.
  public static func connect(
    _ options: NATSOptions, events: @escaping @Sendable (Event) -> Void
  ) throws(NATSError) -> NATSConnection {
    let operation = "connect to \(options.address)"
    let library = try NATSLibrary.load()
    let a = library.api
    var publicKey: String?
    var crypto: NATSCrypto?
    if let seed = options.seed {
      crypto = try NATSCrypto.load()
      publicKey = try seed.publicKey()
    }
    var caText: String?
    if let caFile = options.caFile {
      let bytes = try CappedFile.read(caFile, operation: "\(operation) (read the CA file)")
      caText = String(decoding: bytes, as: UTF8.self)
    }
    var created: OpaquePointer?
    let s = a.pointee.natsOptions_Create(&created)
    guard s == NATS_OK, let opts = created else { throw library.error(operation, s) }
    defer { a.pointee.natsOptions_Destroy(opts) }

    let context = ConnectionContext(
      library: library, address: options.address, events: events, seed: options.seed?.seed, crypto: crypto,
      clock: options.clock)
    let closure = Unmanaged.passRetained(context).toOpaque()
    // Until the connection is made, the retain is ours to give back; then the closed callback's.
    var handedOver = false
    defer { if !handedOver { Unmanaged<ConnectionContext>.fromOpaque(closure).release() } }
    func check(_ call: String, _ s: natsStatus) throws(NATSError) {
      guard s == NATS_OK else { throw library.error("\(operation) (\(call))", s) }
    }
    let url = "\(options.caFile == nil ? "nats" : "tls")://\(options.address)"
    try check("natsOptions_SetURL", a.pointee.natsOptions_SetURL(opts, url))
    try check("natsOptions_SetName", a.pointee.natsOptions_SetName(opts, options.name))
    try check("natsOptions_SetTimeout", a.pointee.natsOptions_SetTimeout(opts, milliseconds(options.connectTimeout)))
    try check(
      "natsOptions_SetMaxReconnect", a.pointee.natsOptions_SetMaxReconnect(opts, Int32(clamping: options.maxReconnect)))
    try check(
      "natsOptions_SetReconnectWait",
      a.pointee.natsOptions_SetReconnectWait(opts, milliseconds(options.reconnectWait)))
    try check(
      "natsOptions_SetPingInterval", a.pointee.natsOptions_SetPingInterval(opts, milliseconds(options.pingInterval)))
    try check("natsOptions_SetMaxPingsOut", a.pointee.natsOptions_SetMaxPingsOut(opts, Int32(options.maxPingsOut)))
    if let caText {
      try check("natsOptions_SetSecure", a.pointee.natsOptions_SetSecure(opts, true))
      try check(
        "natsOptions_SetCATrustedCertificates", a.pointee.natsOptions_SetCATrustedCertificates(opts, caText))
      // The host dialled must be the certificate's, whatever libnats was built to do by default.
      try check(
        "natsOptions_SetExpectedHostname", a.pointee.natsOptions_SetExpectedHostname(opts, options.host))
    }
    if let prefix = options.inboxPrefix {
      try check("natsOptions_SetCustomInboxPrefix", a.pointee.natsOptions_SetCustomInboxPrefix(opts, prefix))
    }
    if let publicKey {
      try check("natsOptions_SetNKey", a.pointee.natsOptions_SetNKey(opts, publicKey, ConnectionContext.sign, closure))
    }
    try check(
      "natsOptions_SetDisconnectedCB",
      a.pointee.natsOptions_SetDisconnectedCB(opts, ConnectionContext.disconnected, closure))
    try check(
      "natsOptions_SetReconnectedCB",
      a.pointee.natsOptions_SetReconnectedCB(opts, ConnectionContext.reconnected, closure))
    try check("natsOptions_SetClosedCB", a.pointee.natsOptions_SetClosedCB(opts, ConnectionContext.closed, closure))
    try check(
      "natsOptions_SetErrorHandler", a.pointee.natsOptions_SetErrorHandler(opts, ConnectionContext.failed, closure))

    var connected: OpaquePointer?
    let rc = a.pointee.natsConnection_Connect(&connected, opts)
    // A connection that was not made makes no callback (libnats releases it at once).
    guard rc == NATS_OK, let nc = connected else { throw library.error(operation, rc) }
    handedOver = true

    var jo = jsOptions()
    _ = a.pointee.jsOptions_Init(&jo)
    jo.Wait = milliseconds(options.requestTimeout)
    var made: OpaquePointer?
    let jrc = a.pointee.natsConnection_JetStream(&made, nc, &jo)
    guard jrc == NATS_OK, let js = made else {
      let error = library.error("\(operation) (natsConnection_JetStream)", jrc)
      a.pointee.natsConnection_Close(nc)
      _ = context.waitClosed(timeout: 5)
      a.pointee.natsConnection_Destroy(nc)
      throw error
    }
    return NATSConnection(
      library: library, handle: nc, js: js, context: context, address: options.address,
      requestTimeout: options.requestTimeout)
  }

  /// Whether the connection is up now (not reconnecting, not closed).
  public var isConnected: Bool {
    library.api.pointee.natsConnection_Status(handle) == NATS_CONN_STATUS_CONNECTED
  }

  /// The largest message the server accepts (its `max_payload`), in bytes.
  public var maxPayload: Int { Int(library.api.pointee.natsConnection_GetMaxPayload(handle)) }

  /// Publishes on core NATS (`natsConnection_Publish`): no acknowledgement; a refusal by the
  /// server's permissions arrives later as an `.error` event.
  public func publish(subject: String, bytes: [UInt8]) throws(NATSError) {
    let s = bytes.withUnsafeBytes {
      library.api.pointee.natsConnection_Publish(handle, subject, $0.baseAddress, Int32($0.count))
    }
    guard s == NATS_OK else { throw library.error("publish to \(subject)", s) }
  }

  /// Subscribes on core NATS (`natsConnection_Subscribe`); `handler` gets each message's bytes on
  /// a libnats thread until the subscription is cancelled.
  public func subscribe(
    subject: String, handler: @escaping @Sendable ([UInt8]) -> Void
  ) throws(NATSError) -> NATSSubscription {
    let library = self.library
    let box = SubscriptionContext(library: library, clock: context.clock) { msg in handler(Self.data(library, msg)) }
    let closure = Unmanaged.passRetained(box).toOpaque()
    var sub: OpaquePointer?
    let s = library.api.pointee.natsConnection_Subscribe(&sub, handle, subject, SubscriptionContext.message, closure)
    guard s == NATS_OK, let sub else {
      Unmanaged<SubscriptionContext>.fromOpaque(closure).release()
      throw library.error("subscribe to \(subject)", s)
    }
    return NATSSubscription(connection: self, handle: sub, box: box, closure: closure)
  }

  /// Sends what is buffered and waits for the server's answer (`natsConnection_FlushTimeout`).
  public func flush(timeout: Double) throws(NATSError) {
    let s = library.api.pointee.natsConnection_FlushTimeout(handle, milliseconds(timeout))
    guard s == NATS_OK else { throw library.error("flush to \(address)", s) }
  }

  /// Closes the connection (`natsConnection_Close`) and waits (at most 5 s) for its closed
  /// callback. Idempotent; calls made afterwards fail with kind `closed`. Not from an `events`
  /// call: the closed callback comes on that same thread, so the wait would run its 5 s out.
  public func close() {
    let first = lock.withLock {
      defer { closed = true }
      return !closed
    }
    guard first else { return }
    library.api.pointee.natsConnection_Close(handle)
    _ = context.waitClosed(timeout: 5)
  }

  /// A message's bytes.
  static func data(_ library: NATSLibrary, _ msg: OpaquePointer) -> [UInt8] {
    let count = Int(library.api.pointee.natsMsg_GetDataLength(msg))
    guard count > 0, let p = library.api.pointee.natsMsg_GetData(msg) else { return [] }
    return Array(UnsafeRawBufferPointer(start: p, count: count))
  }
}

/// Seconds as libnats's milliseconds (at least 1: libnats refuses a zero timeout).
func milliseconds(_ seconds: Double) -> Int64 { max(1, Int64((seconds * 1000).rounded())) }

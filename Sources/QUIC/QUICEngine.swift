internal import CQUIC
internal import Clock

#if canImport(Glibc)
  internal import Glibc
#endif

/// The connection's thread and everything only it touches: the UDP socket, ngtcp2's connection,
/// GnuTLS's session, the stream data waiting to be acknowledged. Made (and its handles owned)
/// by `make`, freed when its thread ends.
final class QUICEngine: @unchecked Sendable {
  let peer: String
  let handshakeTimeout: Double
  let state: ConnectionState
  let clock: Clock
  let settings: QUICConnection.Settings
  private let credentials: TLSCredentials
  /// The libraries' functions (`QUICLibrary`, opened on the first connection).
  let q: UnsafeMutablePointer<wb_quic_api>
  private let fd: Int32
  private let wakeRead: Int32
  var conn: OpaquePointer?
  var session: gnutls_session_t?
  private let connRef: UnsafeMutablePointer<ngtcp2_crypto_conn_ref>
  /// The name or address the certificate is checked against: GnuTLS keeps the pointer
  /// (`gnutls_session_set_verify_cert` does not copy it), so it lives as long as the session.
  private var verifyName: UnsafeMutablePointer<CChar>?
  private let local: UnsafeMutablePointer<sockaddr_storage>
  private let remote: UnsafeMutablePointer<sockaddr_storage>
  var path = ngtcp2_path()
  /// Streams this side still has data of (unsent or unacknowledged), by id.
  var outbound: [Int64: Outbound] = [:]
  /// Open requests waiting for the server to allow another stream.
  private var waitingOpens: [Int] = []
  /// Connection credit for data that came on streams their users had closed.
  var strayCredit = 0
  /// A failure a callback found (the ALPN), reported when ngtcp2 returns.
  var callbackFailure: QUICError?
  /// When stream data was first sent after the last packet came in; nil: none since.
  private var quietSince: UInt64?
  private var moreToWrite = false
  private var rx = [UInt8](repeating: 0, count: 65_536)
  private var tx = [UInt8](repeating: 0, count: 1_500)

  /// One stream's data handed to ngtcp2, kept where it is until acknowledged (ngtcp2 does not
  /// copy it, and sends it again from there when a packet is lost).
  final class Outbound {
    struct Chunk {
      let base: UnsafeMutableRawPointer?
      let count: Int
      /// The stream offset of its first byte.
      let start: UInt64
    }
    var chunks: [Chunk] = []
    /// The chunk being sent, and how much of it is sent.
    var index = 0
    var sentInChunk = 0
    var end: UInt64 = 0
    var fin = false
    var finSent = false

    var hasUnsent: Bool { index < chunks.count || (fin && !finSent) }

    func append(_ bytes: [UInt8]) {
      guard !bytes.isEmpty else { return }
      let base = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1)
      bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
      chunks.append(Chunk(base: base, count: bytes.count, start: end))
      end += UInt64(bytes.count)
    }

    /// Frees the chunks acknowledged up to `offset`.
    func acknowledged(upTo offset: UInt64) {
      var drop = 0
      while drop < chunks.count, drop < index, chunks[drop].start + UInt64(chunks[drop].count) <= offset {
        chunks[drop].base?.deallocate()
        drop += 1
      }
      if drop > 0 {
        chunks.removeFirst(drop)
        index -= drop
      }
    }

    func freeAll() {
      for c in chunks { c.base?.deallocate() }
      chunks = []
      index = 0
    }
  }

  private init(
    peer: String, handshakeTimeout: Double, state: ConnectionState, clock: Clock, settings: QUICConnection.Settings,
    credentials: TLSCredentials, fd: Int32, wakeRead: Int32,
    local: UnsafeMutablePointer<sockaddr_storage>, remote: UnsafeMutablePointer<sockaddr_storage>
  ) {
    self.peer = peer
    self.handshakeTimeout = handshakeTimeout
    self.state = state
    self.clock = clock
    self.settings = settings
    self.credentials = credentials
    self.q = credentials.library.api
    self.fd = fd
    self.wakeRead = wakeRead
    self.local = local
    self.remote = remote
    self.connRef = .allocate(capacity: 1)
    connRef.initialize(to: ngtcp2_crypto_conn_ref())
  }

  deinit {
    // The connection first: until it is gone it may still point into the stream data.
    if let conn { q.pointee.ngtcp2_conn_del(conn) }
    for o in outbound.values { o.freeAll() }
    if let session { q.pointee.gnutls_deinit(session) }
    free(verifyName)
    connRef.deallocate()
    local.deallocate()
    remote.deallocate()
    Glibc.close(fd)
    Glibc.close(wakeRead)
  }

  /// The ngtcp2 time: the clock's monotonic nanoseconds.
  func now() -> UInt64 { UInt64(max(0, clock.monotonic().nanoseconds)) }

  // MARK: Making one

  static func make(
    host: String, port: Int, credentials: TLSCredentials, settings: QUICConnection.Settings,
    state: ConnectionState, clock: Clock, handshakeTimeout: Double
  ) throws(QUICError) -> QUICEngine {
    let peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    let remote = UnsafeMutablePointer<sockaddr_storage>.allocate(capacity: 1)
    let local = UnsafeMutablePointer<sockaddr_storage>.allocate(capacity: 1)
    remote.initialize(to: sockaddr_storage())
    local.initialize(to: sockaddr_storage())
    let fd: Int32
    var pipeEnds: [Int32] = [-1, -1]
    do throws(QUICError) {
      fd = try UDPSocket.connect(host: host, port: port, remote: remote, local: local)
      guard pipe(&pipeEnds) == 0 else {
        Glibc.close(fd)
        throw QUICError.socket(call: "pipe", reason: String(cString: strerror(errno)))
      }
      for end in pipeEnds {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    } catch {
      remote.deallocate()
      local.deallocate()
      throw error
    }
    let engine = QUICEngine(
      peer: peer, handshakeTimeout: handshakeTimeout, state: state, clock: clock, settings: settings,
      credentials: credentials, fd: fd, wakeRead: pipeEnds[0], local: local, remote: remote)
    state.wakeFD = pipeEnds[1]
    do throws(QUICError) {
      try engine.setUpTLS(host: host)
      try engine.setUpConnection()
    } catch {
      Glibc.close(pipeEnds[1])
      state.wakeFD = -1
      throw error
    }
    return engine
  }

  private func setUpTLS(host: String) throws(QUICError) {
    var s: gnutls_session_t?
    var rc = q.pointee.gnutls_init(
      &s, UInt32(GNUTLS_CLIENT.rawValue) | UInt32(GNUTLS_NO_END_OF_EARLY_DATA.rawValue))
    guard rc == GNUTLS_E_SUCCESS, let s else { throw TLSCredentials.failure(q, "gnutls_init", rc) }
    session = s
    rc = q.pointee.gnutls_priority_set_direct(s, wb_quic_priorities(), nil)
    guard rc == GNUTLS_E_SUCCESS else { throw TLSCredentials.failure(q, "gnutls_priority_set_direct", rc) }
    rc = q.pointee.ngtcp2_crypto_gnutls_configure_client_session(s)
    guard rc == 0 else {
      throw QUICError.library(call: "ngtcp2_crypto_gnutls_configure_client_session", code: Int(rc), message: "")
    }
    connRef.pointee.user_data = Unmanaged.passUnretained(self).toOpaque()
    connRef.pointee.get_conn = { ref in
      Unmanaged<QUICEngine>.fromOpaque(ref!.pointee.user_data).takeUnretainedValue().conn
    }
    wb_quic_tls_bind(q, s, connRef)
    rc = q.pointee.gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, UnsafeMutableRawPointer(credentials.handle))
    guard rc == GNUTLS_E_SUCCESS else { throw TLSCredentials.failure(q, "gnutls_credentials_set", rc) }
    var alpn = Array(settings.alpn.utf8)
    rc = alpn.withUnsafeMutableBufferPointer { buf in
      var d = gnutls_datum_t(data: buf.baseAddress, size: UInt32(buf.count))
      return q.pointee.gnutls_alpn_set_protocols(s, &d, 1, UInt32(GNUTLS_ALPN_MANDATORY.rawValue))
    }
    guard rc == GNUTLS_E_SUCCESS else { throw TLSCredentials.failure(q, "gnutls_alpn_set_protocols", rc) }
    // SNI carries a name, never an address; the certificate is checked against either.
    if !UDPSocket.isAddressLiteral(host) {
      rc = q.pointee.gnutls_server_name_set(s, GNUTLS_NAME_DNS, host, host.utf8.count)
      guard rc == GNUTLS_E_SUCCESS else { throw TLSCredentials.failure(q, "gnutls_server_name_set", rc) }
    }
    verifyName = strdup(host)
    q.pointee.gnutls_session_set_verify_cert(s, verifyName, 0)
  }

  private func setUpConnection() throws(QUICError) {
    var dcid = ngtcp2_cid()
    var scid = ngtcp2_cid()
    var bytes = [UInt8](repeating: 0, count: 18)
    _ = q.pointee.gnutls_rnd(GNUTLS_RND_RANDOM, &bytes, 18)
    q.pointee.ngtcp2_cid_init(&dcid, bytes, 18)
    _ = q.pointee.gnutls_rnd(GNUTLS_RND_RANDOM, &bytes, 17)
    q.pointee.ngtcp2_cid_init(&scid, bytes, 17)

    var callbacks = ngtcp2_callbacks()
    wb_quic_client_callbacks(q, &callbacks)
    Self.setApplicationCallbacks(&callbacks)

    var s = ngtcp2_settings()
    wb_quic_settings_default(q, &s)
    s.initial_ts = now()
    s.initial_rtt = UInt64(settings.initialRTT * 1e9)
    s.handshake_timeout = UInt64(handshakeTimeout * 1e9)
    s.max_stream_window = UInt64(settings.streamWindow * 4)
    s.max_window = UInt64(settings.connectionWindow * 2)

    var p = ngtcp2_transport_params()
    wb_quic_transport_params_default(q, &p)
    p.initial_max_stream_data_bidi_local = UInt64(settings.streamWindow)
    p.initial_max_stream_data_bidi_remote = 0
    p.initial_max_stream_data_uni = 0
    p.initial_max_data = UInt64(settings.connectionWindow)
    p.initial_max_streams_bidi = 0
    p.initial_max_streams_uni = 0
    p.max_idle_timeout = UInt64(settings.idleTimeout * 1e9)

    path.local.addr = UnsafeMutableRawPointer(local).assumingMemoryBound(to: ngtcp2_sockaddr.self)
    path.local.addrlen = ngtcp2_socklen(UDPSocket.length(of: local))
    path.remote.addr = UnsafeMutableRawPointer(remote).assumingMemoryBound(to: ngtcp2_sockaddr.self)
    path.remote.addrlen = ngtcp2_socklen(UDPSocket.length(of: remote))

    var c: OpaquePointer?
    let rc = wb_quic_client_new(
      q, &c, &dcid, &scid, &path, &callbacks, &s, &p, Unmanaged.passUnretained(self).toOpaque())
    guard rc == 0, let c else { throw libraryError("ngtcp2_conn_client_new", rc) }
    conn = c
    q.pointee.ngtcp2_conn_set_tls_native_handle(c, UnsafeMutableRawPointer(session))
    q.pointee.ngtcp2_conn_set_keep_alive_timeout(c, UInt64(settings.keepAlive * 1e9))
  }

  func libraryError(_ call: String, _ rc: Int32) -> QUICError {
    .library(call: call, code: Int(rc), message: q.pointee.ngtcp2_strerror(rc).map { String(cString: $0) } ?? "?")
  }

  // MARK: The thread

  func start() {
    Threads.start(named: "quic \(peer)") { [self] in run() }
  }

  private func run() {
    while true {
      let (commands, phase) = state.cond.withLock { () -> ([ConnectionState.Command], ConnectionState.Phase) in
        let c = state.commands
        state.commands = []
        return (c, state.phase)
      }
      if case .failed = phase { break }
      var closing = false
      for command in commands {
        if case .close = command { closing = true } else { apply(command) }
      }
      if closing {
        sendClose()
        state.fail(.closed)
        break
      }
      if case .up = phase { openWaiting() }
      guard writeOut() else { break }
      guard wait() else { break }
      guard handleTimers() else { break }
    }
    finish()
  }

  /// Fails what waits, closes the wake pipe's write end; the rest is freed with the engine.
  private func finish() {
    state.cond.withLock {
      if case .failed = state.phase {} else { state.phase = .failed(.closed) }
      let error: QUICError = if case .failed(let e) = state.phase { e } else { .closed }
      for token in waitingOpens { state.opened[token] = .failure(error) }
      if state.wakeFD >= 0 { Glibc.close(state.wakeFD) }
      state.wakeFD = -1
      state.cond.broadcast()
    }
    waitingOpens = []
  }

  private func apply(_ command: ConnectionState.Command) {
    guard let conn else { return }
    switch command {
    case .open(let token):
      waitingOpens.append(token)
      if case .up = state.cond.withLock({ state.phase }) { openWaiting() }
    case .forget(let token):
      waitingOpens.removeAll { $0 == token }
      let late = state.cond.withLock { state.opened.removeValue(forKey: token) }
      if case .success(let b)? = late {
        _ = wb_quic_shutdown_stream(q, conn, b.id, 0)
      }
    case .write(let id, let bytes, let fin):
      let o = outbound[id] ?? Outbound()
      outbound[id] = o
      o.append(bytes)
      if fin { o.fin = true }
    case .consumed(let id, let n):
      _ = q.pointee.ngtcp2_conn_extend_max_stream_offset(conn, id, UInt64(n))
      q.pointee.ngtcp2_conn_extend_max_offset(conn, UInt64(n))
    case .release(let id, let unread, let reset):
      if unread > 0 { q.pointee.ngtcp2_conn_extend_max_offset(conn, UInt64(unread)) }
      if reset { _ = wb_quic_shutdown_stream(q, conn, id, 0) }
    case .close: break
    }
  }

  /// Opens the streams asked for, as far as the server's limit allows.
  private func openWaiting() {
    guard let conn else { return }
    while let token = waitingOpens.first {
      var id: Int64 = -1
      let rc = q.pointee.ngtcp2_conn_open_bidi_stream(conn, &id, nil)
      if rc == wb_quic_err_streams_blocked() { return }
      waitingOpens.removeFirst()
      state.cond.withLock {
        if rc == 0 {
          let b = StreamBuffer(id: id)
          state.streams[id] = b
          state.opened[token] = .success(b)
        } else {
          state.opened[token] = .failure(libraryError("ngtcp2_conn_open_bidi_stream", rc))
        }
        state.cond.broadcast()
      }
    }
  }

  /// Waits in `poll` for a datagram, a wake-up or the next timer; reads what came. False: the
  /// connection ended.
  private func wait() -> Bool {
    guard let conn else { return false }
    let t = now()
    var timeout: Int32
    let expiry = q.pointee.ngtcp2_conn_get_expiry(conn)
    if moreToWrite {
      timeout = 0
    } else if expiry <= t {
      timeout = 0
    } else {
      timeout = Int32(min((expiry - t + 999_999) / 1_000_000, 86_400_000))
    }
    if let q = quietSince {
      let limit = q + UInt64(settings.lossTimeout * 1e9)
      timeout = min(timeout, limit <= t ? 0 : Int32(min((limit - t + 999_999) / 1_000_000, 86_400_000)))
    }
    var fds = [
      pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    let r = poll(&fds, 2, timeout)
    if r < 0 && errno != EINTR {
      return failAndClose(.socket(call: "poll", reason: String(cString: strerror(errno))))
    }
    if fds[1].revents != 0 {
      var drain = [UInt8](repeating: 0, count: 256)
      while Glibc.read(wakeRead, &drain, drain.count) > 0 {}
    }
    if fds[0].revents != 0 { return receive() }
    return true
  }

  /// Reads the datagrams waiting (a bounded number a turn) into ngtcp2.
  private func receive() -> Bool {
    guard let conn else { return false }
    for _ in 0..<64 {
      let n = rx.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      if n < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK { break }
        if errno == EINTR { continue }
        if errno == ECONNREFUSED {
          return failAndClose(.socket(call: "recv", reason: "Connection refused (no QUIC server on that UDP port)"))
        }
        return failAndClose(.socket(call: "recv", reason: String(cString: strerror(errno))))
      }
      quietSince = nil
      let rc = rx.withUnsafeBytes { wb_quic_read_pkt(q, conn, &path, $0.baseAddress, n, now()) }
      if rc != 0 { return readFailed(rc) }
      if strayCredit > 0 {
        q.pointee.ngtcp2_conn_extend_max_offset(conn, UInt64(strayCredit))
        strayCredit = 0
      }
    }
    return true
  }

  /// ngtcp2 refused what came: the peer closed, TLS failed, or a callback did.
  private func readFailed(_ rc: Int32) -> Bool {
    guard let conn else { return false }
    if rc == wb_quic_err_draining() || rc == wb_quic_err_closing() {
      state.fail(peerClose())
      return false
    }
    if rc == wb_quic_err_crypto() {
      let alert = q.pointee.ngtcp2_conn_get_tls_alert(conn)
      // UINT_MAX: the certificate was not verified (the handshake failed before).
      let status = session.map { q.pointee.gnutls_session_get_verify_cert_status($0) } ?? 0
      let error: QUICError =
        status != 0 && status != UInt32.max
        ? .certificate(statusText(status))
        : alert == 120
          ? .alpnRefused(expected: settings.alpn) : .tlsAlert(code: alert, name: alertName(alert), sent: true)
      let n = tx.withUnsafeMutableBytes { wb_quic_write_close_tls(q, conn, $0.baseAddress, $0.count, alert, now()) }
      if n > 0 { send(count: Int(n)) }
      state.fail(error)
      return false
    }
    if rc == wb_quic_err_callback_failure(), let failure = callbackFailure {
      return failAndClose(failure)
    }
    return failAndClose(libraryError("ngtcp2_conn_read_pkt", rc))
  }

  /// Why the peer closed: its CONNECTION_CLOSE; a CRYPTO_ERROR is the TLS alert it sent.
  private func peerClose() -> QUICError {
    guard let conn else { return .closed }
    var application: Int32 = 0
    var reason = [UInt8](repeating: 0, count: 256)
    var length = 0
    let code = wb_quic_close_error(q, conn, &application, &reason, reason.count, &length)
    let text = String(decoding: reason[0..<length], as: UTF8.self)
    if application == 0, (0x100...0x1ff).contains(code) {
      let alert = UInt8(code - 0x100)
      return .tlsAlert(code: alert, name: alertName(alert), sent: false)
    }
    return .closedByPeer(code: code, application: application != 0, reason: text)
  }

  /// The connection's timers: loss detection, acknowledgements, keep-alive, idle, handshake.
  private func handleTimers() -> Bool {
    guard let conn else { return false }
    let t = now()
    if let q = quietSince, t >= q + UInt64(settings.lossTimeout * 1e9) {
      return failAndClose(.noAnswer(seconds: settings.lossTimeout))
    }
    guard q.pointee.ngtcp2_conn_get_expiry(conn) <= t else { return true }
    let rc = q.pointee.ngtcp2_conn_handle_expiry(conn, t)
    if rc == 0 { return true }
    if rc == wb_quic_err_idle_close() {
      state.fail(.idle)
      return false
    }
    if rc == wb_quic_err_handshake_timeout() {
      state.fail(.handshakeTimeout(seconds: handshakeTimeout))
      return false
    }
    return failAndClose(libraryError("ngtcp2_conn_handle_expiry", rc))
  }

  /// Writes what there is to send: stream data (a packet a call, streams in turn) and what the
  /// connection itself owes (acknowledgements, handshake, keep-alive), at most 64 packets a
  /// turn. False: the connection ended.
  private func writeOut() -> Bool {
    guard let conn else { return false }
    var packets = 0
    var blocked = Set<Int64>()
    while packets < 64 {
      let t = now()
      var taken: Int = -1
      let n: Int
      if let (id, o) = outbound.first(where: { !blocked.contains($0.key) && $0.value.hasUnsent }) {
        let c: Outbound.Chunk? = o.index < o.chunks.count ? o.chunks[o.index] : nil
        let base = c.map { $0.base! + o.sentInChunk }
        let length = c.map { $0.count - o.sentInChunk } ?? 0
        let fin = o.fin && o.index >= o.chunks.count - 1
        n = tx.withUnsafeMutableBytes { buf in
          wb_quic_write_stream(
            q, conn, &path, buf.baseAddress, buf.count, &taken, 0, fin ? 1 : 0, id,
            base?.assumingMemoryBound(to: UInt8.self), length, t)
        }
        if n < 0 {
          let e = Int32(n)
          if e == wb_quic_err_stream_data_blocked() {
            blocked.insert(id)
            continue
          }
          if e == wb_quic_err_stream_shut_wr() || e == wb_quic_err_stream_not_found() {
            o.freeAll()
            outbound.removeValue(forKey: id)
            continue
          }
          return failAndClose(libraryError("ngtcp2_conn_writev_stream", e))
        }
        if taken >= 0 {
          if quietSince == nil { quietSince = t }
          advance(o, by: taken, fin: fin && taken == length)
        } else {
          blocked.insert(id)
        }
      } else {
        n = tx.withUnsafeMutableBytes { buf in
          wb_quic_write_stream(q, conn, &path, buf.baseAddress, buf.count, &taken, 0, 0, -1, nil, 0, t)
        }
        if n < 0 { return failAndClose(libraryError("ngtcp2_conn_write_pkt", Int32(n))) }
      }
      if n == 0 { break }
      guard send(count: n) else { return false }
      packets += 1
    }
    moreToWrite = packets >= 64
    q.pointee.ngtcp2_conn_update_pkt_tx_time(conn, now())
    return true
  }

  private func advance(_ o: Outbound, by n: Int, fin: Bool) {
    var left = n
    while left > 0, o.index < o.chunks.count {
      let room = o.chunks[o.index].count - o.sentInChunk
      if left >= room {
        left -= room
        o.index += 1
        o.sentInChunk = 0
      } else {
        o.sentInChunk += left
        left = 0
      }
    }
    if fin { o.finSent = true }
  }

  /// Sends one datagram from `tx`. A full socket buffer drops it (QUIC sends it again); a
  /// refused one ends the connection.
  @discardableResult
  private func send(count: Int) -> Bool {
    let r = tx.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
    if r < 0 && errno == ECONNREFUSED {
      return failAndClose(.socket(call: "send", reason: "Connection refused (no QUIC server on that UDP port)"))
    }
    return true
  }

  /// This side closes in order: one CONNECTION_CLOSE with no error.
  private func sendClose() {
    guard let conn else { return }
    if wb_quic_closing_or_draining(q, conn) != 0 { return }
    let n = tx.withUnsafeMutableBytes { wb_quic_write_close(q, conn, $0.baseAddress, $0.count, 0, now()) }
    if n > 0 { send(count: Int(n)) }
  }

  /// Ends the connection with `error`, telling the peer. Always false (the connection ended).
  private func failAndClose(_ error: QUICError) -> Bool {
    sendClose()
    state.fail(error)
    return false
  }

  func alertName(_ alert: UInt8) -> String {
    guard let p = q.pointee.gnutls_alert_get_name(gnutls_alert_description_t(UInt32(alert))) else {
      return "unknown alert"
    }
    return String(cString: p)
  }

  func statusText(_ status: UInt32) -> String {
    var out = gnutls_datum_t()
    guard q.pointee.gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &out, 0) == 0,
      let d = out.data
    else { return "status 0x\(String(status, radix: 16))" }
    defer { q.pointee.gnutls_free(d) }
    return String(cString: d)
  }
}

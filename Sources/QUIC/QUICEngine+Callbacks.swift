internal import CQUIC

/// ngtcp2's application callbacks: C function pointers whose `user_data` is the engine. They run
/// on the connection's thread, inside ngtcp2's calls, and only record what happened.
extension QUICEngine {
  static func engine(_ userData: UnsafeMutableRawPointer?) -> QUICEngine {
    Unmanaged<QUICEngine>.fromOpaque(userData!).takeUnretainedValue()
  }

  static func setApplicationCallbacks(_ cb: inout ngtcp2_callbacks) {
    cb.get_new_connection_id = { _, cid, token, length, userData in
      let q = QUICEngine.engine(userData).q
      guard let cid, let token,
        q.pointee.gnutls_rnd(GNUTLS_RND_RANDOM, &cid.pointee.data, length) == 0,
        q.pointee.gnutls_rnd(GNUTLS_RND_RANDOM, token, Int(NGTCP2_STATELESS_RESET_TOKENLEN)) == 0
      else { return wb_quic_err_callback_failure() }
      cid.pointee.datalen = length
      return 0
    }
    cb.handshake_completed = { _, userData in
      QUICEngine.engine(userData).checkALPN() ? 0 : wb_quic_err_callback_failure()
    }
    cb.handshake_confirmed = { _, userData in
      let e = QUICEngine.engine(userData)
      e.state.cond.withLock {
        if case .handshaking = e.state.phase { e.state.phase = .up }
        e.state.cond.broadcast()
      }
      return 0
    }
    cb.recv_stream_data = { _, flags, id, _, data, length, userData, _ in
      QUICEngine.engine(userData).received(
        id: id, data: data, length: length, fin: flags & UInt32(NGTCP2_STREAM_DATA_FLAG_FIN) != 0)
      return 0
    }
    cb.acked_stream_data_offset = { _, id, offset, length, userData, _ in
      QUICEngine.engine(userData).outbound[id]?.acknowledged(upTo: offset + UInt64(length))
      return 0
    }
    cb.stream_reset = { _, id, _, code, userData, _ in
      QUICEngine.engine(userData).ended(id: id, reset: code)
      return 0
    }
    cb.stream_close = { _, _, id, code, userData, _ in
      let e = QUICEngine.engine(userData)
      e.outbound.removeValue(forKey: id)?.freeAll()
      e.ended(id: id, reset: code)
      return 0
    }
  }

  /// After the handshake: the server must have chosen our application protocol
  /// (`GNUTLS_ALPN_MANDATORY` does not make GnuTLS check it on a client).
  func checkALPN() -> Bool {
    var d = gnutls_datum_t()
    var got: String?
    if let session, q.pointee.gnutls_alpn_get_selected_protocol(session, &d) == GNUTLS_E_SUCCESS, let p = d.data {
      got = String(decoding: UnsafeBufferPointer(start: p, count: Int(d.size)), as: UTF8.self)
    }
    guard got == settings.alpn else {
      callbackFailure = .alpn(expected: settings.alpn, got: got)
      return false
    }
    return true
  }

  /// Stream bytes, in order, for the stream's reader; bytes of a stream its user closed are
  /// credited to the connection at once.
  func received(id: Int64, data: UnsafePointer<UInt8>?, length: Int, fin: Bool) {
    let kept = state.cond.withLock { () -> Bool in
      guard let b = state.streams[id] else { return false }
      if length > 0, let data { b.inbox.append(Array(UnsafeBufferPointer(start: data, count: length))) }
      if fin { b.fin = true }
      state.cond.broadcast()
      return true
    }
    if !kept { strayCredit += length }
  }

  /// The stream ended without its data's end (a reset, or closed before the FIN): its reader
  /// is told, unless everything came.
  func ended(id: Int64, reset code: UInt64) {
    state.cond.withLock {
      guard let b = state.streams[id], !b.fin, b.reset == nil else { return }
      b.reset = code
      state.cond.broadcast()
    }
  }
}

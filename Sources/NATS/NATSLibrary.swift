internal import CNATS

/// libnats, opened with `dlopen` the first time a NATS connection is made (`wb_nats_load`): a
/// board that never dials `nats://` does not map it. `api` is the table of its functions, filled
/// once and kept for the process's life. Loading it makes libnats ignore SIGPIPE process-wide
/// (its `nats_Open`), as the tests' and the QUIC code's own handlers do anyway.
final class NATSLibrary: @unchecked Sendable {
  let api: UnsafeMutablePointer<wb_nats_api>

  private init(api: UnsafeMutablePointer<wb_nats_api>) { self.api = api }

  private static let shared: Result<NATSLibrary, NATSError> = {
    let api = UnsafeMutablePointer<wb_nats_api>.allocate(capacity: 1)
    var why = [CChar](repeating: 0, count: 512)
    guard wb_nats_load(api, &why, why.count) == 0 else {
      api.deallocate()
      return .failure(NATSError(.libraryUnavailable, operation: "load libnats", detail: text(why)))
    }
    return .success(NATSLibrary(api: api))
  }()

  /// The library, opened on the first call; why not, when it cannot be.
  static func load() throws(NATSError) -> NATSLibrary { try shared.get() }

  /// The error of a call that returned `status`: the status by name and in words, the JetStream
  /// code when not 0, and libnats's last error on this thread (or `detail` when given).
  func error(
    _ operation: String, _ status: natsStatus, jsError: jsErrCode = jsErrCode(rawValue: 0), detail: String? = nil
  ) -> NATSError {
    let code = Int(jsError.rawValue)
    let last = api.pointee.nats_GetLastError(nil).map { String(cString: $0) }
    return NATSError(
      Self.kind(status, jsError: code), operation: operation, status: String(cString: wb_nats_status_name(status)),
      statusText: api.pointee.natsStatus_GetText(status).map { String(cString: $0) },
      jsErrorCode: code == 0 ? nil : code, detail: detail ?? last)
  }

  /// What a caller tells apart, from libnats's status and the server's JetStream code.
  static func kind(_ status: natsStatus, jsError: Int) -> NATSError.Kind {
    switch status {
    case NATS_TIMEOUT: return .timeout
    case NATS_NOT_FOUND: return .notFound
    case NATS_NOT_PERMITTED: return .notPermitted
    case NATS_CONNECTION_AUTH_FAILED: return .authorizationFailed
    case NATS_SSL_ERROR, NATS_SECURE_CONNECTION_WANTED, NATS_SECURE_CONNECTION_REQUIRED: return .tls
    case NATS_NO_SERVER: return .noServer
    case NATS_MAX_PAYLOAD: return .payloadTooLarge
    case NATS_CONNECTION_CLOSED: return .closed
    default:
      // JSStreamNotFoundErr, JSNoMessageFoundErr
      if jsError == 10059 || jsError == 10037 { return .notFound }
      return jsError != 0 ? .jetStream : .other
    }
  }

  static func text(_ chars: [CChar]) -> String {
    String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// libcrypto's Ed25519 (OpenSSL 3), for NKeys: opened with `dlopen` on first use and kept.
final class NATSCrypto: @unchecked Sendable {
  let api: UnsafeMutablePointer<wb_nats_crypto>

  private init(api: UnsafeMutablePointer<wb_nats_crypto>) { self.api = api }

  private static let shared: Result<NATSCrypto, NATSError> = {
    let api = UnsafeMutablePointer<wb_nats_crypto>.allocate(capacity: 1)
    var why = [CChar](repeating: 0, count: 512)
    guard wb_nats_crypto_load(api, &why, why.count) == 0 else {
      api.deallocate()
      return .failure(
        NATSError(.libraryUnavailable, operation: "load libcrypto (Ed25519)", detail: NATSLibrary.text(why)))
    }
    return .success(NATSCrypto(api: api))
  }()

  static func load() throws(NATSError) -> NATSCrypto { try shared.get() }

  /// The Ed25519 public key of a 32-byte seed.
  func publicKey(seed: [UInt8]) -> [UInt8]? {
    precondition(seed.count == 32, "an Ed25519 seed is 32 bytes")
    var out = [UInt8](repeating: 0, count: 32)
    let rc = seed.withUnsafeBufferPointer { s in
      out.withUnsafeMutableBufferPointer { wb_nats_ed25519_public(api, s.baseAddress, $0.baseAddress) }
    }
    return rc == 0 ? out : nil
  }

  /// The Ed25519 signature (64 bytes) of `message` by the key of a 32-byte seed, written to `into`.
  func sign(seed: [UInt8], message: UnsafeRawBufferPointer, into signature: UnsafeMutablePointer<UInt8>) -> Bool {
    precondition(seed.count == 32, "an Ed25519 seed is 32 bytes")
    return seed.withUnsafeBufferPointer { s in
      wb_nats_ed25519_sign(
        api, s.baseAddress, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, signature) == 0
    }
  }
}

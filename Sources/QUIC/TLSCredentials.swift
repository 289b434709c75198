internal import CQUIC

#if canImport(Glibc)
  internal import Glibc
#endif

/// What a QUIC client trusts and presents, from an Orchestra certificate folder: `ca.crt` (the
/// CA that signs the server's certificate; required) and, when both are there, the board's own
/// `wallboard-client.crt` and `wallboard-client.key` (PKCS#8; presented when the server asks).
/// Wraps GnuTLS's `gnutls_certificate_credentials_t`, freed in `deinit`.
public final class TLSCredentials: @unchecked Sendable {
  /// A PEM file larger than this is not a certificate or a key.
  public static let fileCap = 64 * 1024

  /// The folder's files, as errors name them.
  public let caPath: String
  /// The client certificate presented, when there is one.
  public let clientCertificatePath: String?
  let handle: gnutls_certificate_credentials_t
  let library: QUICLibrary

  /// Reads `ca.crt` and, when present, `wallboard-client.crt` + `.key` from `directory`.
  public convenience init(directory: String, clientName: String = "wallboard-client") throws(QUICError) {
    let cert = directory + "/\(clientName).crt"
    let key = directory + "/\(clientName).key"
    let hasCert = access(cert, F_OK) == 0
    let hasKey = access(key, F_OK) == 0
    if hasCert != hasKey {
      let missing = hasCert ? key : cert
      throw .credentials(path: missing, reason: "missing: a client certificate needs both its .crt and its .key")
    }
    try self.init(ca: directory + "/ca.crt", certificate: hasCert ? cert : nil, key: hasKey ? key : nil)
  }

  /// `ca`: the PEM CA file; `certificate` and `key`: the client's own, or neither.
  public init(ca: String, certificate: String?, key: String?) throws(QUICError) {
    precondition((certificate == nil) == (key == nil), "a client certificate goes with its key")
    let library = try QUICLibrary.load()
    let q = library.api
    var h: gnutls_certificate_credentials_t?
    let rc = q.pointee.gnutls_certificate_allocate_credentials(&h)
    guard rc == GNUTLS_E_SUCCESS, let h else {
      throw Self.failure(q, "gnutls_certificate_allocate_credentials", rc)
    }
    self.library = library
    handle = h
    caPath = ca
    clientCertificatePath = certificate
    let caBytes = try Self.read(ca)
    let count = Self.withDatum(caBytes) { q.pointee.gnutls_certificate_set_x509_trust_mem(h, $0, GNUTLS_X509_FMT_PEM) }
    if count < 0 { throw .credentials(path: ca, reason: Self.text(q, count)) }
    if count == 0 { throw .credentials(path: ca, reason: "no certificate in it") }
    if let certificate, let key {
      let c = try Self.read(certificate)
      let k = try Self.read(key)
      let r = Self.withDatum(c) { cd in
        Self.withDatum(k) { kd in
          q.pointee.gnutls_certificate_set_x509_key_mem2(h, cd, kd, GNUTLS_X509_FMT_PEM, nil, 0)
        }
      }
      if r < 0 { throw .credentials(path: certificate, reason: "with \(key): " + Self.text(q, r)) }
    }
  }

  deinit { library.api.pointee.gnutls_certificate_free_credentials(handle) }

  /// The file's bytes, at most `fileCap`; a regular file only.
  static func read(_ path: String) throws(QUICError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw .credentials(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw .credentials(path: path, reason: String(cString: strerror(errno))) }
    guard (st.st_mode & S_IFMT) == S_IFREG else { throw .credentials(path: path, reason: "not a regular file") }
    guard st.st_size <= fileCap else {
      throw .credentials(path: path, reason: "\(st.st_size) bytes, more than a certificate's \(fileCap)")
    }
    var bytes = [UInt8](repeating: 0, count: fileCap + 1)
    var n = 0
    while n < bytes.count {
      let r = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + n, $0.count - n) }
      if r < 0 && errno == EINTR { continue }
      guard r >= 0 else { throw .credentials(path: path, reason: String(cString: strerror(errno))) }
      if r == 0 { break }
      n += r
    }
    guard n <= fileCap else { throw .credentials(path: path, reason: "more than a certificate's \(fileCap) bytes") }
    return Array(bytes[0..<n])
  }

  static func withDatum<R>(_ bytes: [UInt8], _ body: (UnsafePointer<gnutls_datum_t>) -> R) -> R {
    var copy = bytes
    return copy.withUnsafeMutableBufferPointer { buf in
      var d = gnutls_datum_t(data: buf.baseAddress, size: UInt32(buf.count))
      return body(&d)
    }
  }

  static func text(_ q: UnsafeMutablePointer<wb_quic_api>, _ rc: Int32) -> String {
    q.pointee.gnutls_strerror(rc).map { String(cString: $0) } ?? "error \(rc)"
  }

  static func failure(_ q: UnsafeMutablePointer<wb_quic_api>, _ call: String, _ rc: Int32) -> QUICError {
    .library(call: call, code: Int(rc), message: text(q, rc))
  }
}

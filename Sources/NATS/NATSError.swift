/// Why a NATS call failed: what was being done, what libnats said (its status by name and in
/// words, the JetStream error code when the server gave one, the library's last error text), and
/// the kind a caller tells apart.
public struct NATSError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What a caller must tell apart.
  public enum Kind: Hashable, Sendable {
    /// Nothing came back in time (a request, a flush, a connect that got no answer; a JetStream
    /// call the server refused for permissions also ends here: the denial itself is asynchronous).
    case timeout
    /// The stream, message, bucket or key is not there.
    case notFound
    /// The server refused a publish or a subscription ("Permissions Violation").
    case notPermitted
    /// The server refused the credentials ("Authorization Violation").
    case authorizationFailed
    /// The TLS handshake failed (an unknown CA, a name or address mismatch, TLS on one side only).
    case tls
    /// No server could be reached at the address.
    case noServer
    /// The message is larger than the server's max_payload.
    case payloadTooLarge
    /// libnats (or libcrypto) could not be loaded.
    case libraryUnavailable
    /// An NKey seed (or the file holding it) is not valid.
    case badSeed
    /// A file could not be read.
    case file
    /// The connection is closed.
    case closed
    /// The server answered a JetStream request with an error (`jsErrorCode` says which).
    case jetStream
    /// Anything else libnats reported.
    case other
  }

  /// The kind.
  public var kind: Kind
  /// What failed: "connect to 127.0.0.1:4222", "publish to wb.TEAM.in", "get board from wb_TEAM".
  public var operation: String
  /// libnats's status by its C name ("NATS_TIMEOUT"), nil when the failure is not libnats's.
  public var status: String?
  /// The status in libnats's words ("Timeout").
  public var statusText: String?
  /// The JetStream error code (10058: stream name in use, 10059: stream not found…), when any.
  public var jsErrorCode: Int?
  /// More detail: libnats's last error text, the connection's error, or the reason in our words.
  public var detail: String?

  public init(
    _ kind: Kind, operation: String, status: String? = nil, statusText: String? = nil, jsErrorCode: Int? = nil,
    detail: String? = nil
  ) {
    self.kind = kind
    self.operation = operation
    self.status = status
    self.statusText = statusText
    self.jsErrorCode = jsErrorCode
    self.detail = detail
  }

  public var description: String {
    var text = "\(operation) failed"
    switch (status, statusText) {
    case (let s?, let t?): text += ": \(t) (\(s))"
    case (let s?, nil): text += ": \(s)"
    case (nil, let t?): text += ": \(t)"
    case (nil, nil): break
    }
    if let jsErrorCode { text += ", JetStream error \(jsErrorCode)" }
    if let detail, !detail.isEmpty, detail != statusText { text += ": \(detail)" }
    return text
  }
}

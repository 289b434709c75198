/// Why a QUIC connection (or one of its streams) failed: the step, with what the peer, TLS or
/// the library said — the TLS alert, the QUIC error code, the certificate's verification status.
public enum QUICError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A certificate file could not be read or is not what it should be (path, why).
  case credentials(path: String, reason: String)
  /// The host did not resolve (host, the resolver's word).
  case resolve(host: String, reason: String)
  /// A socket call failed (the call, errno's text).
  case socket(call: String, reason: String)
  /// The peer's certificate did not verify against the configured CA for the name or address
  /// dialled (GnuTLS's verification status, in words).
  case certificate(String)
  /// The TLS handshake failed with this alert (its number and GnuTLS's name for it); `sent` when
  /// this side sent it, else the peer did (a client certificate it refused, say).
  case tlsAlert(code: UInt8, name: String, sent: Bool)
  /// The server chose another application protocol than `orchestra-plugin` (nil: none).
  case alpn(expected: String, got: String?)
  /// The server answered with an application protocol this side did not offer: the handshake
  /// ended with alert 120 (no_application_protocol).
  case alpnRefused(expected: String)
  /// The peer closed the connection: a transport or application error code and its reason.
  case closedByPeer(code: UInt64, application: Bool, reason: String)
  /// The handshake was not confirmed before the deadline: nothing (or nothing valid) came back.
  case handshakeTimeout(seconds: Double)
  /// Data was sent and nothing at all came back for this long: the peer is gone.
  case noAnswer(seconds: Double)
  /// The connection was idle past its idle timeout.
  case idle
  /// The peer reset the stream (its application error code).
  case streamReset(code: UInt64)
  /// The stream limit the peer allows was not raised before the deadline.
  case noStream
  /// ngtcp2 or GnuTLS refused a call (the call, the code, the library's message).
  case library(call: String, code: Int, message: String)
  /// This side closed the connection (a source that stops).
  case closed
  /// The QUIC libraries could not be opened (which, and the package to install).
  case unavailable(String)

  public var description: String {
    switch self {
    case .credentials(let path, let reason): "certificate \(path): \(reason)"
    case .resolve(let host, let reason): "cannot resolve \(host): \(reason)"
    case .socket(let call, let reason): "\(call): \(reason)"
    case .certificate(let status): "the server's certificate was refused: \(status)"
    case .tlsAlert(let code, let name, let sent):
      sent
        ? "TLS handshake failed: sent alert \(code) (\(name))"
        : "TLS handshake failed: the server sent alert \(code) (\(name))"
    case .alpn(let expected, let got):
      "the server does not speak \(expected) (ALPN: \(got.map { "\"\($0)\"" } ?? "none"))"
    case .alpnRefused(let expected):
      "the server does not speak \(expected) (it chose another application protocol: TLS alert 120)"
    case .closedByPeer(let code, let application, let reason):
      "the server closed the connection (\(application ? "application" : "QUIC") error 0x\(String(code, radix: 16))"
        + (reason.isEmpty ? ")" : ": \(reason))")
    case .handshakeTimeout(let s):
      "no QUIC handshake within \(Self.seconds(s)) (no QUIC server there, or it does not answer)"
    case .noAnswer(let s): "no answer for \(Self.seconds(s)): the server is gone"
    case .idle: "the connection was idle past its timeout"
    case .streamReset(let code): "the server reset the stream (error \(code))"
    case .noStream: "the server allows no new stream"
    case .library(let call, let code, let message): "\(call) failed: \(message) (\(code))"
    case .closed: "connection closed"
    case .unavailable(let why): "QUIC is not available here: \(why)"
    }
  }

  static func seconds(_ s: Double) -> String {
    s == s.rounded() ? "\(Int(s)) s" : "\(Double(Int(s * 10)) / 10) s"
  }
}

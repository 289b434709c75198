internal import QUIC
public import SourceKit

/// `orchestra+quic://HOST:PORT`: the Orchestra source over QUIC with mutual TLS (ALPN
/// `orchestra-plugin`), as upstream's orchestrator listens. The certificates come from
/// `--certs` (default `~/.orchestra/certs`): `ca.crt` checks the server, and the board's own
/// `wallboard-client.crt` + `.key` are presented when they are there.
public enum OrchestraQUICSource {
  public struct Spec: SourceConfiguration {
    public var host: String
    public var port: Int
    public var name: String { "orchestra+quic://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      OrchestraSource(
        host: host, port: port, origin: name, clock: context.clock,
        dialer: QUICDialer(certificates: context.certificateFolder, clock: context.clock))
    }
  }

  struct Kind: SourceKind {
    var usage: String { "orchestra+quic://HOST:PORT" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      try OrchestraSource.Kind.address(text, scheme: "orchestra+quic://").map { Spec(host: $0.host, port: $0.port) }
    }
  }
}

public import Clock

/// The seam between a source's shell and the bytes it exchanges with a server: TCP today
/// (`TCPTransport`), QUIC streams and a broker next, and `FakeTransport` in tests.
///
/// One transport is one ordered, reliable byte stream to one peer (a TCP connection, one QUIC
/// stream). A dialer opens them; the shell writes requests and reads what comes with a deadline
/// on the one clock, so that no read blocks forever and a test can step the time.
///
/// Threads: a transport is used by one thread (the driver's), which alone closes it; any other
/// thread may call `interrupt()`, which makes a read in progress, or the next one, return
/// `.idle` at once (it is sticky until a read takes it), so a machine's new input (a stop, a
/// hint) is never left waiting for the deadline.
public protocol Transport: AnyObject, Sendable {
  /// Who is at the other end, as errors name it: "127.0.0.1:50234".
  var peer: String { get }
  /// Writes every byte, or fails.
  func write(_ bytes: [UInt8]) throws(TransportError)
  /// What the peer sent, up to a bounded chunk; `.idle` when the deadline passed or the read
  /// was interrupted first; `.closed` when the peer ended the stream in order.
  func read(until deadline: Monotonic) throws(TransportError) -> TransportRead
  /// Says the request is whole: nothing more will be written (a QUIC stream's FIN). The
  /// default does nothing: the plain TCP endpoint reads one request per connection, and a
  /// half-closed connection would end a subscription there.
  func finishWriting() throws(TransportError)
  /// Makes a read in progress (or the next) return `.idle` now. From any thread.
  func interrupt()
  /// Ends the stream and frees what it holds; reads and writes after it fail, a second call does
  /// nothing. From the thread that uses it.
  func close()
}

extension Transport {
  public func finishWriting() throws(TransportError) {}
}

/// What one read of a transport gave.
public enum TransportRead: Hashable, Sendable {
  case bytes([UInt8])
  /// Nothing yet: the deadline passed, or `interrupt()` was called.
  case idle
  /// The peer ended the stream in order.
  case closed
}

/// Opens transports to one kind of peer address.
public protocol TransportDialer: Sendable {
  /// Opens a stream to `host:port`, giving up at `deadline`.
  func open(host: String, port: Int, until deadline: Monotonic) throws(TransportError) -> any Transport
  /// Lets go of what the dialer keeps between streams (a QUIC connection); the next `open`
  /// makes it again. The default keeps nothing.
  func close()
}

extension TransportDialer {
  public func close() {}
}

/// Why a transport could not be opened or used: what was tried with whom, and the system's
/// (or the library's) word for why.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Step: Hashable, Sendable {
    /// The host name did not resolve.
    case resolve
    /// No address of it accepted the connection (or the handshake failed).
    case connect
    /// The peer did not answer within the deadline.
    case timeout
    case write
    case read
    /// The transport was closed by this side (a source that stops).
    case closed
  }

  public var step: Step
  /// "127.0.0.1:50234", or the host alone for `.resolve`.
  public var peer: String
  /// The cause, as the C library (or the TLS library) says it: "Connection refused".
  public var reason: String

  public init(_ step: Step, peer: String, reason: String) {
    self.step = step
    self.peer = peer
    self.reason = reason
  }

  public var description: String {
    switch step {
    case .resolve: "cannot resolve \(peer): \(reason)"
    case .connect: "cannot connect to \(peer): \(reason)"
    case .timeout: "no answer from \(peer) \(reason)"
    case .write: "write to \(peer) failed: \(reason)"
    case .read: "read from \(peer) failed: \(reason)"
    case .closed: "\(peer): \(reason)"
    }
  }
}

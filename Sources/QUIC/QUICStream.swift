public import Clock
public import Transport

/// One bidirectional stream of a `QUICConnection`: one request and its answer (or a
/// subscription's frames), as a `Transport`.
///
/// Reads wait on the connection's lock for data, the stream's end, the connection's failure, an
/// `interrupt()` or the deadline on the one clock; each read gives its bytes' credit back to
/// the server, so a window is refilled as frames are consumed.
public final class QUICStream: Transport, @unchecked Sendable {
  /// The most one read returns.
  static let chunk = 65_536

  let buffer: StreamBuffer
  let connection: QUICConnection
  private var closed = false

  init(buffer: StreamBuffer, connection: QUICConnection) {
    self.buffer = buffer
    self.connection = connection
  }

  deinit { close() }

  public var id: Int64 { buffer.id }
  public var peer: String { connection.peer }
  private var state: ConnectionState { connection.state }

  public func write(_ bytes: [UInt8]) throws(TransportError) { try send(bytes, fin: false) }

  /// Sends the stream's FIN: the request is whole.
  public func finishWriting() throws(TransportError) { try send([], fin: true) }

  private func send(_ bytes: [UInt8], fin: Bool) throws(TransportError) {
    state.cond.lock()
    defer { state.cond.unlock() }
    if case .failed(let e) = state.phase { throw TransportError(.write, peer: peer, reason: e.description) }
    guard !closed else { throw TransportError(.closed, peer: peer, reason: "stream closed") }
    if fin { buffer.finSent = true }
    state.commands.append(.write(buffer.id, bytes, fin: fin))
    state.wake()
  }

  public func read(until deadline: Monotonic) throws(TransportError) -> TransportRead {
    let clock = connection.clock
    state.cond.lock()
    defer { state.cond.unlock() }
    while true {
      guard !closed else { throw TransportError(.closed, peer: peer, reason: "stream closed") }
      if !buffer.inbox.isEmpty { return .bytes(take()) }
      if buffer.fin { return .closed }
      if let code = buffer.reset {
        throw TransportError(.read, peer: peer, reason: QUICError.streamReset(code: code).description)
      }
      if case .failed(let e) = state.phase { throw TransportError(.read, peer: peer, reason: e.description) }
      if buffer.interrupted {
        buffer.interrupted = false
        return .idle
      }
      if clock.monotonic() >= deadline { return .idle }
      _ = clock.wait(until: deadline, on: state.cond)
    }
  }

  /// Up to `chunk` bytes from the front, their credit queued. Under the lock.
  private func take() -> [UInt8] {
    let out = buffer.inbox.take(max: Self.chunk)
    state.commands.append(.consumed(buffer.id, out.count))
    state.wake()
    return out
  }

  public func interrupt() {
    state.cond.withLock {
      buffer.interrupted = true
      state.cond.broadcast()
    }
  }

  /// Ends the stream: reset unless both sides ended it in order; what was left unread is
  /// credited to the connection.
  public func close() {
    state.cond.withLock {
      guard !closed else { return }
      closed = true
      state.streams.removeValue(forKey: buffer.id)
      let orderly = buffer.fin && buffer.finSent && buffer.inbox.isEmpty
      let unread = buffer.inbox.removeAll()
      state.commands.append(.release(buffer.id, unread: unread, reset: !orderly))
      state.wake()
      state.cond.broadcast()
    }
  }
}

internal import Clock
internal import SourceKit
internal import Transport
internal import Wire

/// One Orchestra server's plugin protocol over a `TransportDialer`: the one connect/read shell
/// every Orchestra source uses — the `orchestra://` source's subscription stream, its
/// `board_snapshot` and health calls, and a workspace's push hint. Frames are 4-byte
/// length-prefixed protobuf, at most `LengthPrefixFramer`'s cap each way.
///
/// Its blocking reads wait at most until a deadline and are woken by `interrupter` (a stop ends
/// them at once).
struct OrchestraLink: Sendable {
  /// Why a call or a stream failed, as the source's detail says it.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let host: String
  let port: Int
  let dialer: any TransportDialer
  let clock: Clock
  let interrupter: Interrupter

  /// "host:port" (an IPv6 host as written).
  var address: String { "\(host):\(port)" }

  /// Opens a stream and sends one `Subscribe` per topic, numbered from `id`.
  func subscribe(topics: [String], id: String, connectTimeout: Double) throws(Failure) -> OrchestraStream {
    let transport = try open(timeout: connectTimeout)
    for (i, topic) in topics.enumerated() {
      let sub = Subscribe(subscriptionId: "\(id)-\(i)", topic: topic, filters: [:])
      let request = PluginRequest(requestId: "sub-\(i)", request: .subscribe(sub))
      do throws(TransportError) { try transport.write(LengthPrefixFramer.frame(request.encode())) } catch {
        transport.close()
        throw Failure(description: error.description)
      }
    }
    do throws(TransportError) { try transport.finishWriting() } catch {
      transport.close()
      throw Failure(description: error.description)
    }
    guard interrupter.register(transport) else {
      transport.close()
      throw Failure(description: "stopped")
    }
    return OrchestraStream(transport: transport, interrupter: interrupter)
  }

  /// Sends one request on a new stream and reads one response within `timeout` seconds.
  func call(_ request: PluginRequest, timeout: Double, connectTimeout: Double) throws(Failure) -> PluginResponse {
    let transport = try open(timeout: min(connectTimeout, timeout))
    defer { transport.close() }
    guard interrupter.register(transport) else { throw Failure(description: "stopped") }
    defer { interrupter.unregister(transport) }
    do throws(TransportError) {
      try transport.write(LengthPrefixFramer.frame(request.encode()))
      try transport.finishWriting()
    } catch {
      throw Failure(description: error.description)
    }
    var framer = LengthPrefixFramer()
    let deadline = clock.monotonic().adding(seconds: timeout)
    while !interrupter.isStopped {
      guard clock.monotonic() < deadline else {
        throw Failure(description: "no answer from \(address) within \(Int(timeout.rounded())) s")
      }
      let read: TransportRead
      do throws(TransportError) { read = try transport.read(until: deadline) } catch {
        throw Failure(description: error.description)
      }
      switch read {
      case .idle: continue
      case .closed: throw Failure(description: "\(address) closed the connection before answering")
      case .bytes(let b):
        do {
          if let f = try framer.push(b).first { return try PluginResponse.decode(f) }
        } catch {
          throw Failure(description: "protocol error: \(error)")
        }
      }
    }
    throw Failure(description: "stopped")
  }

  private func open(timeout: Double) throws(Failure) -> any Transport {
    do throws(TransportError) {
      return try dialer.open(host: host, port: port, until: clock.monotonic().adding(seconds: timeout))
    } catch {
      throw Failure(description: error.description)
    }
  }
}

/// A subscription stream: the server's frames as they come.
final class OrchestraStream: @unchecked Sendable {
  /// What one wait on the stream gave.
  enum Read {
    /// Frames (none when the deadline passed or the wait was interrupted).
    case frames([PluginResponse])
    /// The stream ended: closed, reset, or a frame that is not one.
    case ended(String)
  }

  private let transport: any Transport
  private let interrupter: Interrupter
  private var framer = LengthPrefixFramer()

  init(transport: any Transport, interrupter: Interrupter) {
    self.transport = transport
    self.interrupter = interrupter
  }

  /// Reads what comes until `deadline`: whole frames, decoded, or the stream's end.
  func await(until deadline: Monotonic) -> Read {
    do {
      switch try transport.read(until: deadline) {
      case .idle: return .frames([])
      case .closed:
        return .ended(framer.isMidFrame ? "connection closed mid-frame" : "server closed the connection")
      case .bytes(let b):
        return .frames(try framer.push(b).map { f in try PluginResponse.decode(f) })
      }
    } catch let e as TransportError {
      return .ended(e.description)
    } catch {
      return .ended("protocol error: \(error)")
    }
  }

  func close() {
    interrupter.unregister(transport)
    transport.close()
  }
}

internal import Clock
internal import NATS

/// What an ordered consumer delivers, gathered from libnats's thread for a caller that reads a
/// stream to some point (a publisher reading its board back, `fleet` reading the reports): at
/// most `maxBytes` of messages; past that it stops gathering and a wait gives up.
final class StreamCollector: @unchecked Sendable {
  let maxBytes: Int
  private let condition = Condition()
  private var messages: [NATSConnection.StreamMessage] = []
  private var bytes = 0
  private var over = false

  init(maxBytes: Int) { self.maxBytes = maxBytes }

  /// Whether more than `maxBytes` came (what came is then dropped).
  var overflowed: Bool { condition.withLock { over } }

  func add(_ m: NATSConnection.StreamMessage) {
    condition.withLock {
      guard !over else { return }
      bytes += m.bytes.count
      if bytes > maxBytes {
        over = true
        messages.removeAll()
      } else {
        messages.append(m)
      }
      condition.broadcast()
    }
  }

  /// The messages once `done` holds of them; nil at `deadline` or past `maxBytes`.
  func wait(
    until deadline: Monotonic, clock: Clock, for done: ([NATSConnection.StreamMessage]) -> Bool
  ) -> [NATSConnection.StreamMessage]? {
    condition.lock()
    defer { condition.unlock() }
    let finished = clock.wait(until: deadline, on: condition) { over || done(messages) }
    return finished && !over ? messages : nil
  }
}

import Foundation
import NATS

/// What libnats's threads handed a test (events, messages), kept in order; a test waits for what
/// it expects with a deadline instead of sleeping.
final class Recorder<T: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [T] = []

  func append(_ item: T) {
    condition.withLock {
      items.append(item)
      condition.broadcast()
    }
  }

  var all: [T] { condition.withLock { items } }

  /// Waits at most `timeout` seconds until `done` holds for what came; whether it did.
  @discardableResult
  func wait(_ timeout: Double = 10, until done: ([T]) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !done(items) {
      if !condition.wait(until: deadline) { return done(items) }
    }
    return true
  }

  /// Waits until `count` items came.
  @discardableResult
  func wait(count: Int, _ timeout: Double = 10) -> Bool { wait(timeout) { $0.count >= count } }
}

extension NATSConnection.Event {
  var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
  var isReconnected: Bool { if case .reconnected = self { true } else { false } }
  var isClosed: Bool { if case .closed = self { true } else { false } }
  var error: NATSError? { if case .error(let e) = self { e } else { nil } }
}

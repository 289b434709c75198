internal import Clock
internal import SourceKit
internal import Transport

/// What a shell's blocking I/O is woken by: the transports it is reading now, interrupted
/// together, and a stop that makes every wait after it end at once. Shared by the driver's
/// thread (which registers what it reads) and whoever stops or wakes the source.
final class Interrupter: @unchecked Sendable {
  private let lock = Lock()
  private var stopped = false
  private var reading: [ObjectIdentifier: any Transport] = [:]

  var isStopped: Bool { lock.withLock { stopped } }

  /// Wakes every registered read; after a stop, also every later one.
  func interrupt(stopping: Bool) {
    let now = lock.withLock { () -> [any Transport] in
      if stopping { stopped = true }
      return Array(reading.values)
    }
    for t in now { t.interrupt() }
  }

  /// Registers `transport` as read now; false (and nothing registered) once stopped.
  func register(_ transport: any Transport) -> Bool {
    lock.withLock {
      guard !stopped else { return false }
      reading[ObjectIdentifier(transport)] = transport
      return true
    }
  }

  func unregister(_ transport: any Transport) {
    _ = lock.withLock { reading.removeValue(forKey: ObjectIdentifier(transport)) }
  }
}

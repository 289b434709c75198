internal import CNATS
internal import Clock

#if canImport(Glibc)
  internal import Glibc
#endif

/// A subscription (`natsSubscription`): core, or a JetStream ordered consumer. Its handler runs on
/// libnats's delivery thread until `cancel()`, which `deinit` calls too. Retains its connection.
public final class NATSSubscription: @unchecked Sendable {
  let connection: NATSConnection
  let box: SubscriptionContext
  private let closure: UnsafeMutableRawPointer
  private let lock = Lock()
  private var handle: OpaquePointer?

  init(connection: NATSConnection, handle: OpaquePointer, box: SubscriptionContext, closure: UnsafeMutableRawPointer) {
    self.connection = connection
    self.handle = handle
    self.box = box
    self.closure = closure
    let api = connection.library.api
    _ = api.pointee.natsSubscription_SetOnCompleteCB(handle, SubscriptionContext.complete, closure)
  }

  deinit { cancel() }

  /// Unsubscribes (`natsSubscription_Unsubscribe`; an ordered consumer is deleted on the server),
  /// waits (at most 5 s) until libnats says no handler call is running or will run, and destroys
  /// the subscription. Idempotent. Called from the handler itself, it returns at once and the
  /// subscription is destroyed when that handler call returns.
  public func cancel() {
    let taken: OpaquePointer? = lock.withLock {
      defer { handle = nil }
      return handle
    }
    guard let sub = taken else { return }
    let api = connection.library.api
    let fromHandler = box.beginCancel(destroying: sub)
    _ = api.pointee.natsSubscription_Unsubscribe(sub)
    if fromHandler { return }
    if box.waitCompleted(timeout: 5) {
      api.pointee.natsSubscription_Destroy(sub)
      Unmanaged<SubscriptionContext>.fromOpaque(closure).release()
    } else {
      // libnats did not say it is done with the closure: keep it (a few bytes) rather than free
      // what a late callback could reach.
      api.pointee.natsSubscription_Destroy(sub)
    }
  }
}

/// What a subscription's callbacks reach through their closure pointer: the delivery, whether the
/// subscription was cancelled, and whether libnats's completion callback (its last) came.
final class SubscriptionContext: @unchecked Sendable {
  let library: NATSLibrary
  /// Turns one message into the caller's handler call (the message is destroyed afterwards).
  let deliver: (OpaquePointer) -> Void
  /// What the wait for the completion callback is measured on.
  let clock: Clock
  private let condition = Condition()
  private var cancelled = false
  private var completed = false
  private var delivering: pthread_t?
  /// Set when the handler itself cancelled: the completion callback destroys the subscription.
  private var destroyOnComplete: OpaquePointer?

  init(library: NATSLibrary, clock: Clock, deliver: @escaping (OpaquePointer) -> Void) {
    self.library = library
    self.clock = clock
    self.deliver = deliver
  }

  /// Marks the subscription cancelled (no handler call starts after this); whether the caller is
  /// the handler itself, in which case `sub` is destroyed by the completion callback.
  func beginCancel(destroying sub: OpaquePointer) -> Bool {
    condition.withLock {
      cancelled = true
      guard let d = delivering, pthread_equal(d, pthread_self()) != 0 else { return false }
      destroyOnComplete = sub
      return true
    }
  }

  /// Whether libnats's completion callback came within `timeout` seconds.
  func waitCompleted(timeout: Double) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return clock.wait(until: clock.monotonic().adding(seconds: timeout), on: condition) { completed }
  }

  static let message: natsMsgHandler = { _, _, msg, closure in
    guard let msg else { return }
    let box = Unmanaged<SubscriptionContext>.fromOpaque(closure!).takeUnretainedValue()
    let go = box.condition.withLock {
      if !box.cancelled { box.delivering = pthread_self() }
      return !box.cancelled
    }
    if go {
      box.deliver(msg)
      box.condition.withLock { box.delivering = nil }
    }
    box.library.api.pointee.natsMsg_Destroy(msg)
  }

  /// libnats's last callback for the subscription: no message callback runs after it.
  static let complete: natsOnCompleteCB = { closure in
    let box = Unmanaged<SubscriptionContext>.fromOpaque(closure!).takeUnretainedValue()
    let destroy = box.condition.withLock {
      box.completed = true
      box.condition.broadcast()
      defer { box.destroyOnComplete = nil }
      return box.destroyOnComplete
    }
    if let destroy {
      box.library.api.pointee.natsSubscription_Destroy(destroy)
      Unmanaged<SubscriptionContext>.fromOpaque(closure!).release()
    }
  }
}

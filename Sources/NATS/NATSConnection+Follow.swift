internal import CNATS

extension NATSConnection {
  /// Where an ordered consumer starts.
  public enum Start: Sendable, Hashable {
    /// At this stream sequence — or, when retention already dropped it, silently at the stream's
    /// first kept message: compare the first sequence received with the one asked for.
    case sequence(UInt64)
    /// The last message of each subject.
    case lastPerSubject
    /// The first message kept.
    case all
  }

  /// One message of a stream, as an ordered consumer delivers it.
  public struct StreamMessage: Sendable, Hashable {
    /// The stream sequence (the metadata's, not the consumer's, which restarts at 1 when libnats
    /// re-creates the consumer after a reconnect).
    public var sequence: UInt64
    public var subject: String
    public var bytes: [UInt8]
    /// When the stream stored it, in nanoseconds since the epoch, by the server's clock.
    public var timestamp: Int64
    /// Messages left in the stream after this one for the consumer, when it was sent.
    public var pending: UInt64

    public init(sequence: UInt64, subject: String, bytes: [UInt8], timestamp: Int64, pending: UInt64) {
      self.sequence = sequence
      self.subject = subject
      self.bytes = bytes
      self.timestamp = timestamp
      self.pending = pending
    }
  }

  /// Follows `subject` in `stream` with an ordered consumer (`js_Subscribe`, `Ordered`, no
  /// durable; the stream named so libnats does not look it up with `$JS.API.STREAM.NAMES`).
  /// `handler` gets each message on a libnats thread, in stream order, across reconnections.
  public func follow(
    stream: String, subject: String, from start: Start, handler: @escaping @Sendable (StreamMessage) -> Void
  ) throws(NATSError) -> NATSSubscription {
    let library = self.library
    let a = library.api
    let box = SubscriptionContext(library: library, clock: context.clock) { msg in
      var meta: UnsafeMutablePointer<jsMsgMetaData>?
      guard a.pointee.natsMsg_GetMetaData(&meta, msg) == NATS_OK, let meta else { return }
      defer { a.pointee.jsMsgMetaData_Destroy(meta) }
      let subject = a.pointee.natsMsg_GetSubject(msg).map { String(cString: $0) } ?? ""
      handler(
        StreamMessage(
          sequence: meta.pointee.Sequence.Stream, subject: subject, bytes: Self.data(library, msg),
          timestamp: meta.pointee.Timestamp, pending: meta.pointee.NumPending))
    }
    let closure = Unmanaged.passRetained(box).toOpaque()
    var sub: OpaquePointer?
    var code = jsErrCode(rawValue: 0)
    let s = stream.withCString { name in
      var so = jsSubOptions()
      _ = a.pointee.jsSubOptions_Init(&so)
      so.Stream = name
      so.Ordered = true
      switch start {
      case .sequence(let n):
        so.Config.DeliverPolicy = js_DeliverByStartSequence
        so.Config.OptStartSeq = n
      case .lastPerSubject: so.Config.DeliverPolicy = js_DeliverLastPerSubject
      case .all: so.Config.DeliverPolicy = js_DeliverAll
      }
      return a.pointee.js_Subscribe(&sub, js, subject, SubscriptionContext.message, closure, nil, &so, &code)
    }
    guard s == NATS_OK, let sub else {
      Unmanaged<SubscriptionContext>.fromOpaque(closure).release()
      throw library.error("follow \(subject) in \(stream)", s, jsError: code)
    }
    return NATSSubscription(connection: self, handle: sub, box: box, closure: closure)
  }
}

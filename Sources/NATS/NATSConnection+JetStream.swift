internal import CNATS

#if canImport(Glibc)
  internal import Glibc
#endif

extension NATSConnection {
  /// A stream as Wallboard makes them: file storage, limits retention, the oldest discarded.
  public struct StreamConfig: Sendable, Hashable {
    public var name: String
    public var subjects: [String]
    /// Seconds a message is kept (0: no limit).
    public var maxAge: Double
    /// Bytes the stream keeps (−1: no limit).
    public var maxBytes: Int64
    /// The largest message accepted (−1: the server's max_payload).
    public var maxMessageSize: Int32
    /// Seconds a message id is remembered for deduplication; at most `maxAge` (the server refuses
    /// more, JetStream error 10052).
    public var duplicates: Double
    public var denyDelete: Bool
    public var denyPurge: Bool
    /// Direct gets (`$JS.API.DIRECT.GET.<stream>`) allowed.
    public var allowDirect: Bool

    public init(
      name: String, subjects: [String], maxAge: Double = 0, maxBytes: Int64 = -1, maxMessageSize: Int32 = -1,
      duplicates: Double = 120, denyDelete: Bool = false, denyPurge: Bool = false, allowDirect: Bool = false
    ) {
      self.name = name
      self.subjects = subjects
      self.maxAge = maxAge
      self.maxBytes = maxBytes
      self.maxMessageSize = maxMessageSize
      self.duplicates = duplicates
      self.denyDelete = denyDelete
      self.denyPurge = denyPurge
      self.allowDirect = allowDirect
    }
  }

  /// A stream's state as the server reported it.
  public struct StreamState: Sendable, Hashable {
    public var firstSequence: UInt64
    public var lastSequence: UInt64
    public var messages: UInt64
    public var bytes: UInt64
    /// When the stream was created, in nanoseconds since the epoch, by the server's clock: a
    /// stream deleted and made again has another.
    public var created: Int64

    public init(firstSequence: UInt64, lastSequence: UInt64, messages: UInt64, bytes: UInt64, created: Int64) {
      self.firstSequence = firstSequence
      self.lastSequence = lastSequence
      self.messages = messages
      self.bytes = bytes
      self.created = created
    }
  }

  /// What the stream said of an acknowledged publish.
  public struct PublishAck: Sendable, Hashable {
    /// The message's stream sequence; for a duplicate, the original's.
    public var sequence: UInt64
    /// The message id was seen within the stream's duplicates window: not stored again.
    public var duplicate: Bool

    public init(sequence: UInt64, duplicate: Bool) {
      self.sequence = sequence
      self.duplicate = duplicate
    }
  }

  /// Makes the stream (`js_AddStream`), or brings it to `config` when it exists with another
  /// (`js_UpdateStream` on JetStream error 10058); the same config again changes nothing.
  public func ensureStream(_ config: StreamConfig) throws(NATSError) -> StreamState {
    let a = library.api
    // C strings that live through both calls.
    let name = strdup(config.name)
    var subjects = config.subjects.map { UnsafePointer(strdup($0)) }
    defer {
      free(name)
      subjects.forEach { free(UnsafeMutablePointer(mutating: $0)) }
    }
    var cfg = jsStreamConfig()
    _ = a.pointee.jsStreamConfig_Init(&cfg)
    cfg.Storage = js_FileStorage
    cfg.Retention = js_LimitsPolicy
    cfg.Discard = js_DiscardOld
    cfg.MaxAge = nanoseconds(config.maxAge)
    cfg.MaxBytes = config.maxBytes
    cfg.MaxMsgSize = config.maxMessageSize
    cfg.Duplicates = nanoseconds(config.duplicates)
    cfg.DenyDelete = config.denyDelete
    cfg.DenyPurge = config.denyPurge
    cfg.AllowDirect = config.allowDirect
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(rawValue: 0)
    var call = "create stream \(config.name)"
    let s = subjects.withUnsafeMutableBufferPointer { list in
      cfg.Name = UnsafePointer(name)
      cfg.Subjects = list.baseAddress
      cfg.SubjectsLen = Int32(list.count)
      let added = a.pointee.js_AddStream(&info, js, &cfg, nil, &code)
      guard added != NATS_OK && code == JSStreamNameExistErr else { return added }
      call = "update stream \(config.name)"
      code = jsErrCode(rawValue: 0)
      return a.pointee.js_UpdateStream(&info, js, &cfg, nil, &code)
    }
    guard s == NATS_OK, let info else { throw library.error(call, s, jsError: code) }
    defer { a.pointee.jsStreamInfo_Destroy(info) }
    return Self.state(info)
  }

  /// The stream's state (`js_GetStreamInfo`); nil when there is no such stream.
  public func streamInfo(_ name: String) throws(NATSError) -> StreamState? {
    let a = library.api
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(rawValue: 0)
    let s = a.pointee.js_GetStreamInfo(&info, js, name, nil, &code)
    if s == NATS_NOT_FOUND || code == JSStreamNotFoundErr { return nil }
    guard s == NATS_OK, let info else { throw library.error("get the info of stream \(name)", s, jsError: code) }
    defer { a.pointee.jsStreamInfo_Destroy(info) }
    return Self.state(info)
  }

  /// Publishes to a stream and waits for its acknowledgement (`js_Publish`, at most
  /// `requestTimeout`), with `messageId` as the Nats-Msg-Id header: the stream stores an id once
  /// within its duplicates window and acknowledges a repeat as a duplicate of the original.
  public func publish(subject: String, bytes: [UInt8], messageId: String) throws(NATSError) -> PublishAck {
    let a = library.api
    let operation = "publish to \(subject)"
    try checkPayload(bytes.count, operation)
    var ack: UnsafeMutablePointer<jsPubAck>?
    var code = jsErrCode(rawValue: 0)
    let s = messageId.withCString { id in
      var po = jsPubOptions()
      _ = a.pointee.jsPubOptions_Init(&po)
      po.MsgId = id
      return bytes.withUnsafeBytes {
        a.pointee.js_Publish(&ack, js, subject, $0.baseAddress, Int32($0.count), &po, &code)
      }
    }
    guard s == NATS_OK, let ack else { throw library.error(operation, s, jsError: code) }
    defer { a.pointee.jsPubAck_Destroy(ack) }
    return PublishAck(sequence: ack.pointee.Sequence, duplicate: ack.pointee.Duplicate)
  }

  /// The last message on `subject` in `stream` (`js_GetLastMsg`): its stream sequence and its
  /// Nats-Msg-Id header; nil when the subject has none.
  public func lastMessage(stream: String, subject: String) throws(NATSError) -> (sequence: UInt64, messageId: String?)?
  {
    let a = library.api
    var msg: OpaquePointer?
    var code = jsErrCode(rawValue: 0)
    let s = a.pointee.js_GetLastMsg(&msg, js, stream, subject, nil, &code)
    if s == NATS_NOT_FOUND || code == JSNoMessageFoundErr { return nil }
    guard s == NATS_OK, let msg else {
      throw library.error("get the last message of \(subject) from \(stream)", s, jsError: code)
    }
    defer { a.pointee.natsMsg_Destroy(msg) }
    var value: UnsafePointer<CChar>?
    let found = a.pointee.natsMsgHeader_Get(msg, "Nats-Msg-Id", &value) == NATS_OK
    return (a.pointee.natsMsg_GetSequence(msg), found ? value.map { String(cString: $0) } : nil)
  }

  /// Refuses, before sending, what the server would refuse: more than its max_payload.
  func checkPayload(_ count: Int, _ operation: String) throws(NATSError) {
    let limit = maxPayload
    guard count <= limit else {
      throw NATSError(
        .payloadTooLarge, operation: operation,
        detail: "\(count) bytes, more than the server's max_payload of \(limit) bytes")
    }
  }

  static func state(_ info: UnsafeMutablePointer<jsStreamInfo>) -> StreamState {
    let st = info.pointee.State
    return StreamState(
      firstSequence: st.FirstSeq, lastSequence: st.LastSeq, messages: st.Msgs, bytes: st.Bytes,
      created: info.pointee.Created)
  }
}

/// Seconds as JetStream's nanoseconds.
func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000_000).rounded()) }

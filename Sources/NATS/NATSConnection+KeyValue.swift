internal import CNATS

extension NATSConnection {
  /// A key-value bucket (a stream `KV_<name>` underneath, direct gets allowed).
  public struct BucketConfig: Sendable, Hashable {
    public var name: String
    /// Values kept per key.
    public var history: UInt8
    /// The largest value (−1: the server's max_payload).
    public var maxValueSize: Int32
    /// Seconds a value is kept (0: for ever).
    public var ttl: Double
    /// Bytes the bucket keeps (−1: no limit).
    public var maxBytes: Int64

    public init(name: String, history: UInt8 = 1, maxValueSize: Int32 = -1, ttl: Double = 0, maxBytes: Int64 = -1) {
      self.name = name
      self.history = history
      self.maxValueSize = maxValueSize
      self.ttl = ttl
      self.maxBytes = maxBytes
    }
  }

  /// A value as the bucket holds it.
  public struct Entry: Sendable, Hashable {
    public var bytes: [UInt8]
    public var revision: UInt64
    /// When it was put, in nanoseconds since the epoch, by the server's clock.
    public var created: Int64

    public init(bytes: [UInt8], revision: UInt64, created: Int64) {
      self.bytes = bytes
      self.revision = revision
      self.created = created
    }
  }

  /// Makes the bucket (`js_CreateKeyValue`); the same config again changes nothing.
  public func createBucket(_ config: BucketConfig) throws(NATSError) {
    let a = library.api
    let s = config.name.withCString { (name) -> natsStatus in
      var cfg = kvConfig()
      _ = a.pointee.kvConfig_Init(&cfg)
      cfg.Bucket = name
      cfg.History = config.history
      cfg.MaxValueSize = config.maxValueSize
      cfg.TTL = nanoseconds(config.ttl)
      cfg.MaxBytes = config.maxBytes
      cfg.StorageType = js_FileStorage
      var kv: OpaquePointer?
      let s = a.pointee.js_CreateKeyValue(&kv, js, &cfg)
      if let kv { a.pointee.kvStore_Destroy(kv) }
      return s
    }
    guard s == NATS_OK else { throw library.error("create bucket \(config.name)", s) }
  }

  /// Puts a value (`kvStore_Put`); its revision. More than the server's max_payload is refused
  /// here, before anything is sent.
  public func put(bucket: String, key: String, bytes: [UInt8]) throws(NATSError) -> UInt64 {
    let operation = "put \(key) in \(bucket)"
    try checkPayload(bytes.count, operation)
    let kv = try store(bucket, operation)
    let a = library.api
    defer { a.pointee.kvStore_Destroy(kv) }
    var revision: UInt64 = 0
    let s = bytes.withUnsafeBytes { a.pointee.kvStore_Put(&revision, kv, key, $0.baseAddress, Int32($0.count)) }
    guard s == NATS_OK else { throw library.error(operation, s) }
    return revision
  }

  /// The key's value (`js_KeyValue` + `kvStore_Get`); nil when the key or the bucket is not there.
  /// A reader needs only `$JS.API.STREAM.INFO.KV_<bucket>` and
  /// `$JS.API.DIRECT.GET.KV_<bucket>.$KV.<bucket>.<key>`.
  public func get(bucket: String, key: String) throws(NATSError) -> Entry? {
    let operation = "get \(key) from \(bucket)"
    let kv: OpaquePointer
    do { kv = try store(bucket, operation) } catch  where error.kind == .notFound { return nil }
    let a = library.api
    defer { a.pointee.kvStore_Destroy(kv) }
    var made: OpaquePointer?
    let s = a.pointee.kvStore_Get(&made, kv, key)
    if s == NATS_NOT_FOUND { return nil }
    guard s == NATS_OK, let entry = made else { throw library.error(operation, s) }
    defer { a.pointee.kvEntry_Destroy(entry) }
    let count = Int(a.pointee.kvEntry_ValueLen(entry))
    var bytes: [UInt8] = []
    if count > 0, let p = a.pointee.kvEntry_Value(entry) {
      bytes = Array(UnsafeRawBufferPointer(start: p, count: count))
    }
    return Entry(bytes: bytes, revision: a.pointee.kvEntry_Revision(entry), created: a.pointee.kvEntry_Created(entry))
  }

  /// The bucket's handle (`js_KeyValue`), for one call.
  private func store(_ bucket: String, _ operation: String) throws(NATSError) -> OpaquePointer {
    var kv: OpaquePointer?
    let s = library.api.pointee.js_KeyValue(&kv, js, bucket)
    guard s == NATS_OK, let kv else { throw library.error(operation, s) }
    return kv
  }
}

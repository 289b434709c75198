/// A value with a protobuf encoding: written with `encode()`, read back with `decode(_:limits:)`.
///
/// Decoders skip unknown fields of every wire type, read a singular field that appears twice as
/// "the last one wins" (messages too, where protobuf would merge: no peer writes that), and reject a known field written with the wrong wire type (no peer of this
/// protocol writes one; saying so beats silently dropping the field). Encoders follow proto3:
/// empty strings, zeros and `false` are not written, set messages always are.
public protocol ProtoMessage: Hashable, Sendable {
  /// The message's protobuf name, for errors (`EventDelivery`, `Struct`).
  static var protoName: String { get }
  /// The name of field `number`, for errors; `nil` for an unknown field.
  static func fieldName(_ number: Int) -> String?
  /// Writes this message's fields.
  func encode(to writer: inout ProtoWriter)
  /// Reads a message from every remaining byte of `reader`.
  init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError)
}

extension ProtoMessage {
  /// This message's protobuf bytes.
  public func encode() -> [UInt8] {
    var w = ProtoWriter()
    encode(to: &w)
    return w.bytes
  }

  /// Reads a message from `bytes`, which must hold exactly one (no framing).
  @inlinable
  public static func decode(
    _ bytes: [UInt8], limits: ProtoLimits = ProtoLimits()
  ) throws(ProtoError) -> Self {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(ProtoError) in try decode(raw, limits: limits) }
    }
    return try result.get()
  }

  /// Reads a message from raw bytes.
  @inlinable
  public static func decode(
    _ bytes: UnsafeRawBufferPointer, limits: ProtoLimits = ProtoLimits()
  ) throws(ProtoError) -> Self {
    guard bytes.count <= limits.maxMessageBytes else {
      throw ProtoError(
        .messageTooLarge(bytes: bytes.count, limit: limits.maxMessageBytes), message: protoName)
    }
    var reader = ProtoReader(bytes)
    return try Self(from: &reader, limits: limits)
  }
}

extension ProtoReader {
  /// Calls `read` with every field of this reader's message, in order; an error is placed in
  /// `message` and the field being read.
  mutating func fields<M: ProtoMessage>(
    of message: M.Type, _ read: (inout ProtoReader, ProtoTag) throws(ProtoError) -> Void
  ) throws(ProtoError) {
    try fields(of: M.protoName, names: M.fieldName, read)
  }

  /// `fields(of:_:)` for a message that has no `ProtoMessage` type (`Struct.FieldsEntry`).
  mutating func fields(
    of message: String, names: (Int) -> String?,
    _ read: (inout ProtoReader, ProtoTag) throws(ProtoError) -> Void
  ) throws(ProtoError) {
    var field = 0
    do {
      while true {
        field = 0
        guard let tag = try tag() else { return }
        field = tag.field
        try read(&self, tag)
      }
    } catch {
      throw error.within(message, fieldNumber: field, field: names(field))
    }
  }

  /// A `map<string, string>` entry (key = 1, value = 2), added to `map` (a later key wins).
  mutating func stringMapEntry(
    _ tag: ProtoTag, into map: inout [String: String], entry: String, limits: ProtoLimits
  ) throws(ProtoError) {
    if map.count >= limits.maxEntries {
      throw ProtoError(.tooManyEntries(limit: limits.maxEntries), offset: tag.offset)
    }
    var r = try message(tag)
    var key = ""
    var value = ""
    try r.fields(of: entry, names: Self.entryFieldName) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: key = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 2: value = try r.string(tag, maxBytes: limits.maxStringBytes)
      default: try r.skip(tag)
      }
    }
    map[key] = value
  }

  /// `key` and `value`, the fields of every map entry.
  static func entryFieldName(_ number: Int) -> String? {
    number == 1 ? "key" : number == 2 ? "value" : nil
  }

  /// An empty message (`HealthRequest`) or one this version does not model: its fields are
  /// checked for well-formedness and skipped.
  mutating func skipMessage(_ tag: ProtoTag, named name: String) throws(ProtoError) {
    var r = try message(tag)
    try r.fields(of: name, names: { _ in nil }) { (r, tag) throws(ProtoError) in try r.skip(tag) }
  }
}

extension ProtoWriter {
  /// A `map<string, string>` as entries (key = 1, value = 2), sorted by key so that the bytes
  /// are the same on every run.
  mutating func stringMap(_ field: Int, _ map: [String: String]) {
    for key in map.keys.sorted() {
      lengthDelimited(field) { w in
        w.string(1, key)
        w.string(2, map[key]!)
      }
    }
  }
}

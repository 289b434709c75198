public import WallboardCore

// google.protobuf.Struct, Value, ListValue and Timestamp, as the JSON values and instants they
// stand for.

/// `google.protobuf.Struct` (1: `map<string, Value> fields`) as a JSON object.
///
/// Entries keep their wire order; a repeated key is kept, and the object's lookup answers with
/// the last one, as protobuf's "last entry wins" does.
extension JSONObject: ProtoMessage {
  public static var protoName: String { "Struct" }
  public static func fieldName(_ number: Int) -> String? { number == 1 ? "fields" : nil }

  public func encode(to writer: inout ProtoWriter) {
    for m in members {
      writer.lengthDelimited(1) { w in
        w.string(1, m.key)
        w.message(2, m.value)
      }
    }
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self = try reader.structObject(limits: limits, depth: 1)
  }
}

/// `google.protobuf.Value` as a JSON value: a oneof of 1 `null_value` (enum), 2 `number_value`
/// (double), 3 `string_value`, 4 `bool_value`, 5 `struct_value`, 6 `list_value`.
///
/// A Value with no kind set reads as `null`; a non-finite number is rejected.
extension JSONValue: ProtoMessage {
  public static var protoName: String { "Value" }
  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "null_value"
    case 2: return "number_value"
    case 3: return "string_value"
    case 4: return "bool_value"
    case 5: return "struct_value"
    case 6: return "list_value"
    default: return nil
    }
  }

  public func encode(to writer: inout ProtoWriter) {
    switch self {
    case .null: writer.int32(1, 0)
    case .number(let x): writer.double(2, x)
    case .string(let s): writer.string(3, s)
    case .bool(let b): writer.bool(4, b)
    case .object(let o): writer.message(5, o)
    case .array(let items):
      writer.lengthDelimited(6) { w in
        for item in items { w.message(1, item) }
      }
    }
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self = try reader.value(limits: limits, depth: 0)
  }
}

/// `google.protobuf.Timestamp` (1 `seconds` int64, 2 `nanos` int32) as an instant.
///
/// Reading keeps whole milliseconds (nanos round down) and rejects nanos outside
/// 0…999,999,999 and times outside the years `Instant` supports, 1970…9999.
extension Instant: ProtoMessage {
  public static var protoName: String { "Timestamp" }
  public static func fieldName(_ number: Int) -> String? {
    number == 1 ? "seconds" : number == 2 ? "nanos" : nil
  }

  /// 9999-12-31T23:59:59Z, the last second `Instant` can parse.
  static let maxSeconds: Int64 = 253_402_300_799

  public func encode(to writer: inout ProtoWriter) {
    let seconds = millis.floorDiv1000
    let nanos = Int32(millis - seconds * 1000) * 1_000_000
    if seconds != 0 { writer.int64(1, seconds) }
    if nanos != 0 { writer.int32(2, nanos) }
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    let start = reader.offset
    var seconds: Int64 = 0
    var nanos: Int32 = 0
    var nanosAt = start
    try reader.fields(of: Instant.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: seconds = try r.int64(tag)
      case 2:
        nanosAt = tag.offset
        nanos = try r.int32(tag)
      default: try r.skip(tag)
      }
    }
    guard nanos >= 0 && nanos <= 999_999_999 else {
      throw ProtoError(
        .nanosOutOfRange(nanos), message: Self.protoName, field: "nanos", fieldNumber: 2,
        offset: nanosAt)
    }
    guard seconds >= 0 && seconds <= Self.maxSeconds else {
      throw ProtoError(.timestampOutOfRange(seconds: seconds), message: Self.protoName, offset: start)
    }
    self.init(millis: seconds * 1000 + Int64(nanos / 1_000_000))
  }
}

extension Int64 {
  /// This many milliseconds in whole seconds, rounded towards negative infinity.
  fileprivate var floorDiv1000: Int64 {
    let q = self / 1000
    return self % 1000 < 0 ? q - 1 : q
  }
}

extension ProtoReader {
  /// A `Struct` from every remaining byte, `depth` levels of Struct and ListValue deep.
  mutating func structObject(limits: ProtoLimits, depth: Int) throws(ProtoError) -> JSONObject {
    guard depth <= limits.maxDepth else {
      throw ProtoError(.tooDeep(type: "Struct", limit: limits.maxDepth), offset: offset)
    }
    var object = JSONObject()
    // Payloads are small objects: one allocation instead of growing 1, 2, 4.
    if !isAtEnd { object.members.reserveCapacity(4) }
    try fields(of: JSONObject.self) { (r, tag) throws(ProtoError) in
      guard tag.field == 1 else { return try r.skip(tag) }
      if object.members.count >= limits.maxEntries {
        throw ProtoError(.tooManyEntries(limit: limits.maxEntries), offset: tag.offset)
      }
      var entry = try r.message(tag)
      var key = ""
      var value = JSONValue.null
      try entry.fields(of: "Struct.FieldsEntry", names: ProtoReader.entryFieldName) {
        (r, tag) throws(ProtoError) in
        switch tag.field {
        case 1: key = try r.string(tag, maxBytes: limits.maxStringBytes)
        case 2:
          var v = try r.message(tag)
          value = try v.value(limits: limits, depth: depth)
        default: try r.skip(tag)
        }
      }
      object.members.append(JSONObject.Member(key: key, value: value))
    }
    return object
  }

  /// A `Value` from every remaining byte, inside `depth` levels of Struct and ListValue.
  mutating func value(limits: ProtoLimits, depth: Int) throws(ProtoError) -> JSONValue {
    var value = JSONValue.null
    try fields(of: JSONValue.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1:
        _ = try r.int32(tag)
        value = .null
      case 2:
        let x = try r.double(tag)
        guard x.isFinite else { throw ProtoError(.nonFiniteNumber(x), offset: tag.offset) }
        value = .number(x)
      case 3: value = .string(try r.string(tag, maxBytes: limits.maxStringBytes))
      case 4: value = .bool(try r.bool(tag))
      case 5:
        var s = try r.message(tag)
        value = .object(try s.structObject(limits: limits, depth: depth + 1))
      case 6:
        var l = try r.message(tag)
        value = .array(try l.list(limits: limits, depth: depth + 1))
      default: try r.skip(tag)
      }
    }
    return value
  }

  /// A `ListValue` (1: repeated `Value values`) from every remaining byte.
  mutating func list(limits: ProtoLimits, depth: Int) throws(ProtoError) -> [JSONValue] {
    guard depth <= limits.maxDepth else {
      throw ProtoError(.tooDeep(type: "ListValue", limit: limits.maxDepth), offset: offset)
    }
    var items: [JSONValue] = []
    try fields(of: "ListValue", names: { $0 == 1 ? "values" : nil }) { (r, tag) throws(ProtoError) in
      guard tag.field == 1 else { return try r.skip(tag) }
      if items.count >= limits.maxEntries {
        throw ProtoError(.tooManyEntries(limit: limits.maxEntries), offset: tag.offset)
      }
      var v = try r.message(tag)
      items.append(try v.value(limits: limits, depth: depth))
    }
    return items
  }
}

/// Caps on what one protobuf message may contain; each is checked before what it guards is built.
public struct ProtoLimits: Hashable, Sendable {
  /// The largest message, in bytes (the Orchestra protocol's frame cap).
  public var maxMessageBytes = 16 * 1024 * 1024
  /// The deepest nesting of `Struct` and `ListValue` (a top-level `Struct` is depth 1).
  public var maxDepth = 64
  /// The longest string (a key or a value), in UTF-8 bytes.
  public var maxStringBytes = 1024 * 1024
  /// The most elements in one list or entries in one map.
  public var maxEntries = 100_000

  public init(
    maxMessageBytes: Int = 16 * 1024 * 1024, maxDepth: Int = 64, maxStringBytes: Int = 1024 * 1024,
    maxEntries: Int = 100_000
  ) {
    self.maxMessageBytes = maxMessageBytes
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
    self.maxEntries = maxEntries
  }
}

/// The four protobuf wire types this protocol uses (groups, 3 and 4, are not supported).
public enum WireType: UInt8, Hashable, Sendable, CustomStringConvertible {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case fixed32 = 5

  /// `2 (length-delimited)`.
  public var description: String {
    switch self {
    case .varint: return "0 (varint)"
    case .fixed64: return "1 (fixed64)"
    case .lengthDelimited: return "2 (length-delimited)"
    case .fixed32: return "5 (fixed32)"
    }
  }
}

/// Why bytes are not an acceptable protobuf message: what was wrong, in which message and field,
/// and at which byte.
///
/// The message and field are the innermost ones being read when the problem was found; `offset`
/// counts from the start of the whole (top-level) message.
public struct ProtoError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Problem: Hashable, Sendable {
    /// The bytes ended inside a varint.
    case truncatedVarint
    /// A varint longer than 10 bytes, or one whose value does not fit in 64 bits.
    case overlongVarint
    /// A fixed-width value needs more bytes than are left.
    case truncatedFixed(needed: Int, left: Int)
    /// A length prefix larger than what is left of the enclosing message.
    case lengthPastEnd(length: UInt64, left: Int)
    /// Field number 0, or one above 2^29 − 1.
    case invalidFieldNumber(UInt64)
    /// Wire types 3 and 4 (groups), 6 and 7 (undefined).
    case unsupportedWireType(UInt8)
    /// A known field written with a different wire type than its declaration's.
    case wrongWireType(expected: WireType, found: WireType)
    /// A string that is not valid UTF-8.
    case invalidUTF8
    /// A string longer than `ProtoLimits.maxStringBytes`.
    case stringTooLong(bytes: Int, limit: Int)
    /// A list or map with more than `ProtoLimits.maxEntries` entries.
    case tooManyEntries(limit: Int)
    /// A `Struct` or `ListValue` nested deeper than `ProtoLimits.maxDepth`.
    case tooDeep(type: String, limit: Int)
    /// A message larger than `ProtoLimits.maxMessageBytes`.
    case messageTooLarge(bytes: Int, limit: Int)
    /// A `Value.number_value` that is NaN or infinite (JSON cannot hold it).
    case nonFiniteNumber(Double)
    /// A `Timestamp` whose nanos are outside 0…999,999,999.
    case nanosOutOfRange(Int32)
    /// A `Timestamp` outside the years `Instant` supports (1970…9999).
    case timestampOutOfRange(seconds: Int64)
  }

  public var problem: Problem
  /// The message being read (`EventDelivery`, `Struct.FieldsEntry`), when known.
  public var message: String?
  /// The field's name in that message (`payload`), when it is a known field.
  public var field: String?
  /// The field's number, when the problem is inside a field.
  public var fieldNumber: Int?
  /// Zero-based byte offset of the item that was wrong (a tag, a varint, a length prefix).
  public var offset: Int?

  public init(
    _ problem: Problem, message: String? = nil, field: String? = nil, fieldNumber: Int? = nil,
    offset: Int? = nil
  ) {
    self.problem = problem
    self.message = message
    self.field = field
    self.fieldNumber = fieldNumber
    self.offset = offset
  }

  /// This error, placed in `message` (and its field) unless an inner message already claimed it.
  func within(_ message: String, fieldNumber: Int, field: String?) -> ProtoError {
    guard self.message == nil else { return self }
    var e = self
    e.message = message
    if fieldNumber != 0 {
      e.fieldNumber = e.fieldNumber ?? fieldNumber
      e.field = field
    }
    return e
  }

  /// `EventDelivery.payload (field 4) at byte 12: length 900 runs past the end (40 bytes left)`,
  /// or `truncated varint at byte 3` when no message is known.
  public var description: String {
    var context = message ?? ""
    if let field { context += context.isEmpty ? field : "." + field }
    if let fieldNumber { context += (context.isEmpty ? "" : " ") + "(field \(fieldNumber))" }
    let at = offset.map { "at byte \($0)" }
    if context.isEmpty { return [problemText, at].compactMap { $0 }.joined(separator: " ") }
    return [context, at].compactMap { $0 }.joined(separator: " ") + ": " + problemText
  }

  /// The problem alone, as a phrase.
  public var problemText: String {
    switch problem {
    case .truncatedVarint: return "truncated varint"
    case .overlongVarint: return "varint longer than 10 bytes or wider than 64 bits"
    case .truncatedFixed(let needed, let left):
      return "a \(needed)-byte value runs past the end (\(left) bytes left)"
    case .lengthPastEnd(let length, let left):
      return "length \(length) runs past the end (\(left) bytes left)"
    case .invalidFieldNumber(let n): return "invalid field number \(n)"
    case .unsupportedWireType(let w):
      let name = [3: " (start group)", 4: " (end group)"][w] ?? ""
      return "wire type \(w)\(name) is not supported"
    case .wrongWireType(let expected, let found):
      return "expected wire type \(expected), found \(found)"
    case .invalidUTF8: return "string is not valid UTF-8"
    case .stringTooLong(let bytes, let limit): return "string of \(bytes) bytes is longer than \(limit)"
    case .tooManyEntries(let limit): return "more than \(limit) entries"
    case .tooDeep(let type, let limit): return "\(type) nested deeper than \(limit)"
    case .messageTooLarge(let bytes, let limit): return "message of \(bytes) bytes is larger than \(limit)"
    case .nonFiniteNumber(let x): return "number \(x) is not finite (JSON cannot hold it)"
    case .nanosOutOfRange(let n): return "nanos \(n) outside 0…999999999"
    case .timestampOutOfRange(let s): return "seconds \(s) outside the years 1970…9999"
    }
  }
}

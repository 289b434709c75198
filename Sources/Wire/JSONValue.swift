// Wire: pure, size-capped decoders — JSON values and their parser, JSON Lines framing, and the
// JSON → `Event` decoder of the event contract. No I/O, no clocks, no Foundation; imports only
// WallboardCore.

/// A JSON value (RFC 8259), as `JSONParser` reads it and `serialized(pretty:)` writes it.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// Always finite: the parser rejects numbers that overflow, and the serializer requires it.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// What kind of value this is, with an article, for messages: `a string`, `null`, `an array`.
  public var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A JSON object whose members keep their document order.
///
/// Duplicate keys are kept as written; `subscript(key:)` answers with the last one. Two objects
/// are equal when they have the same members in the same order.
public struct JSONObject: Hashable, Sendable, RandomAccessCollection {
  /// One `"key": value` member.
  public struct Member: Hashable, Sendable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// The members in document order.
  public var members: [Member]

  public init() { members = [] }

  public init(members: [Member]) { self.members = members }

  public init(_ pairs: [(String, JSONValue)]) {
    members = pairs.map { Member(key: $0.0, value: $0.1) }
  }

  /// The value of the last member named `key`, or `nil` when there is none.
  public subscript(key: String) -> JSONValue? {
    get {
      // Comparing lengths first skips most of String's slower unequal-compare path.
      let length = key.utf8.count
      var i = members.count
      while i > 0 {
        i -= 1
        let k = members[i].key
        if k.utf8.count == length && k == key { return members[i].value }
      }
      return nil
    }
  }

  /// The keys in document order (duplicates included).
  public var keys: [String] { members.map(\.key) }

  /// Appends a member (duplicates allowed: the last one wins on lookup).
  public mutating func append(_ key: String, _ value: JSONValue) {
    members.append(Member(key: key, value: value))
  }

  public var startIndex: Int { members.startIndex }
  public var endIndex: Int { members.endIndex }
  public subscript(position: Int) -> (key: String, value: JSONValue) {
    let m = members[position]
    return (m.key, m.value)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}

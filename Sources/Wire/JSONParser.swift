/// Caps on what one JSON document may contain; each violation is its own `JSONError`.
public struct JSONLimits: Hashable, Sendable {
  /// Arrays and objects nested deeper than this are rejected.
  public var maxDepth = 64
  /// Longest string (key or value), in UTF-8 bytes after unescaping.
  public var maxStringBytes = 65_536
  /// Most elements in one array or members in one object.
  public var maxContainerElements = 100_000
  /// Longest number literal, in bytes.
  public var maxNumberBytes = 64

  public init(
    maxDepth: Int = 64, maxStringBytes: Int = 65_536, maxContainerElements: Int = 100_000,
    maxNumberBytes: Int = 64
  ) {
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
    self.maxContainerElements = maxContainerElements
    self.maxNumberBytes = maxNumberBytes
  }
}

/// Why a document is not (acceptable) JSON, and the byte offset where that became clear.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Zero-based byte offset into the input.
  public var offset: Int
  public var problem: String

  public init(offset: Int, problem: String) {
    self.offset = offset
    self.problem = problem
  }

  /// `at byte 17: expected ',' or '}' in object`.
  public var description: String { "at byte \(offset): \(problem)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// Exactly one value with optional surrounding whitespace; no comments, trailing commas, NaN or
/// Infinity; strings must be valid UTF-8 and their `\u` escapes well-formed (lone surrogates are
/// rejected); numbers that overflow a `Double` are rejected. Every `JSONLimits` cap is checked
/// before the value it guards is built.
public enum JSONParser {
  /// Parses one JSON document.
  public static func parse(
    _ bytes: [UInt8], limits: JSONLimits = JSONLimits()
  ) throws(JSONError)
    -> JSONValue
  {
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) in try parse(buffer, limits: limits) }
    }
    return try result.get()
  }

  /// Parses one JSON document from a string's UTF-8.
  public static func parse(
    _ string: String, limits: JSONLimits = JSONLimits()
  ) throws(JSONError)
    -> JSONValue
  {
    var s = string
    let result = s.withUTF8 { buffer in
      Result { () throws(JSONError) in try parse(buffer, limits: limits) }
    }
    return try result.get()
  }

  /// Parses one JSON document from raw bytes.
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = JSONLimits()
  )
    throws(JSONError) -> JSONValue
  {
    var p = JSONByteParser(bytes: bytes, limits: limits)
    p.skipWhitespace()
    let value = try p.value()
    p.skipWhitespace()
    if p.i < bytes.count {
      let found = describe(byte: bytes[p.i])
      throw JSONError(offset: p.i, problem: "unexpected \(found) after the value")
    }
    return value
  }

  /// `'x'` for printable ASCII, `byte 0xC3` otherwise.
  static func describe(byte b: UInt8) -> String {
    if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    let hex = String(b, radix: 16, uppercase: true)
    return "byte 0x" + (b < 16 ? "0" : "") + hex
  }
}

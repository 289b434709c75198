/// The recursive-descent machinery behind `JSONParser`: a cursor over UTF-8 bytes.
struct JSONByteParser {
  let p: UnsafeBufferPointer<UInt8>
  let limits: JSONLimits
  var i = 0
  var depth = 0
  /// Members of the objects being parsed, innermost last: each object takes its slice off the
  /// top when it closes, so growing containers costs one exact-size allocation each.
  var memberStack: [JSONObject.Member] = []
  /// Elements of the arrays being parsed, likewise.
  var elementStack: [JSONValue] = []

  init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
    self.p = bytes
    self.limits = limits
  }

  @inline(__always) var n: Int { p.count }

  func fail(_ at: Int, _ problem: String) -> JSONError { JSONError(offset: at, problem: problem) }

  @inline(__always) mutating func skipWhitespace() {
    while i < n {
      let b = p[i]
      guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
      i += 1
    }
  }

  mutating func value() throws(JSONError) -> JSONValue {
    guard i < n else { throw fail(i, "unexpected end of input, expected a value") }
    switch p[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    case let b: throw fail(i, "expected a value, found \(JSONParser.describe(byte: b))")
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONError) {
    let start = i
    let ok = word.withUTF8Buffer { w in
      guard n - i >= w.count else { return false }
      for k in 0..<w.count where p[i + k] != w[k] { return false }
      return true
    }
    guard ok else { throw fail(start, "expected a value (did you mean '\(word)'?)") }
    i += word.utf8CodeUnitCount
  }

  mutating func enter(_ start: Int) throws(JSONError) {
    depth += 1
    if depth > limits.maxDepth { throw fail(start, "nesting deeper than \(limits.maxDepth)") }
  }

  mutating func object() throws(JSONError) -> JSONValue {
    let start = i
    try enter(start)
    defer { depth -= 1 }
    i += 1
    skipWhitespace()
    if i < n && p[i] == UInt8(ascii: "}") {
      i += 1
      return .object(JSONObject())
    }
    if memberStack.capacity == 0 { memberStack.reserveCapacity(16) }
    let base = memberStack.count
    defer { memberStack.removeSubrange(base...) }
    while true {
      guard i < n else { throw fail(i, "unexpected end of input in object") }
      guard p[i] == UInt8(ascii: "\"") else {
        if p[i] == UInt8(ascii: "}") { throw fail(i, "trailing comma in object") }
        throw fail(i, "expected a string key in object")
      }
      if memberStack.count - base == limits.maxContainerElements {
        throw fail(i, "object with more than \(limits.maxContainerElements) members")
      }
      let key = try string()
      skipWhitespace()
      guard i < n, p[i] == UInt8(ascii: ":") else {
        throw fail(i, "expected ':' after object key")
      }
      i += 1
      skipWhitespace()
      let v = try value()
      memberStack.append(JSONObject.Member(key: key, value: v))
      skipWhitespace()
      guard i < n else { throw fail(i, "unexpected end of input in object") }
      switch p[i] {
      case UInt8(ascii: ","):
        i += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        i += 1
        return .object(JSONObject(members: Array(memberStack[base...])))
      default: throw fail(i, "expected ',' or '}' in object")
      }
    }
  }

  mutating func array() throws(JSONError) -> JSONValue {
    let start = i
    try enter(start)
    defer { depth -= 1 }
    i += 1
    skipWhitespace()
    if i < n && p[i] == UInt8(ascii: "]") {
      i += 1
      return .array([])
    }
    if elementStack.capacity == 0 { elementStack.reserveCapacity(16) }
    let base = elementStack.count
    defer { elementStack.removeSubrange(base...) }
    while true {
      guard i < n else { throw fail(i, "unexpected end of input in array") }
      if p[i] == UInt8(ascii: "]") { throw fail(i, "trailing comma in array") }
      if elementStack.count - base == limits.maxContainerElements {
        throw fail(i, "array with more than \(limits.maxContainerElements) elements")
      }
      let v = try value()
      elementStack.append(v)
      skipWhitespace()
      guard i < n else { throw fail(i, "unexpected end of input in array") }
      switch p[i] {
      case UInt8(ascii: ","):
        i += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        i += 1
        return .array(Array(elementStack[base...]))
      default: throw fail(i, "expected ',' or ']' in array")
      }
    }
  }
}

// MARK: - Strings

extension JSONByteParser {
  /// A string literal starting at the opening quote. Unescaped ASCII and valid UTF-8 are
  /// sliced straight out of the input; escapes switch to a copying path.
  mutating func string() throws(JSONError) -> String {
    let start = i
    i += 1
    let contentStart = i
    let cap = limits.maxStringBytes
    while i < n {
      let b = p[i]
      if b == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: p[contentStart..<i]), as: UTF8.self)
        i += 1
        return text
      }
      if b == UInt8(ascii: "\\") { return try escapedString(start: start, from: contentStart) }
      if b < 0x20 { throw fail(i, "control character in string (escape it as \\u00XX)") }
      if b < 0x80 { i += 1 } else { try utf8Sequence() }
      if i - contentStart > cap { throw fail(start, "string longer than \(cap) bytes") }
    }
    throw fail(start, "unterminated string")
  }

  /// The rest of a string that contains escapes, copied into a buffer as it is decoded.
  mutating func escapedString(start: Int, from contentStart: Int) throws(JSONError) -> String {
    let cap = limits.maxStringBytes
    var buf: [UInt8] = []
    buf.reserveCapacity(i - contentStart + 16)
    buf.append(contentsOf: UnsafeBufferPointer(rebasing: p[contentStart..<i]))
    while i < n {
      let b = p[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        return String(decoding: buf, as: UTF8.self)
      }
      if b == UInt8(ascii: "\\") {
        try escape(into: &buf)
      } else if b < 0x20 {
        throw fail(i, "control character in string (escape it as \\u00XX)")
      } else if b < 0x80 {
        buf.append(b)
        i += 1
      } else {
        let s = i
        try utf8Sequence()
        buf.append(contentsOf: UnsafeBufferPointer(rebasing: p[s..<i]))
      }
      if buf.count > cap { throw fail(start, "string longer than \(cap) bytes") }
    }
    throw fail(start, "unterminated string")
  }

  /// One escape sequence starting at the backslash.
  mutating func escape(into buf: inout [UInt8]) throws(JSONError) {
    let at = i
    guard i + 1 < n else { throw fail(at, "unterminated string") }
    let c = p[i + 1]
    i += 2
    switch c {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buf.append(c)
    case UInt8(ascii: "b"): buf.append(0x08)
    case UInt8(ascii: "f"): buf.append(0x0C)
    case UInt8(ascii: "n"): buf.append(0x0A)
    case UInt8(ascii: "r"): buf.append(0x0D)
    case UInt8(ascii: "t"): buf.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try hex4(at: at)
      var scalar = UInt32(unit)
      if (0xD800...0xDBFF).contains(unit) {
        guard i + 1 < n, p[i] == UInt8(ascii: "\\"), p[i + 1] == UInt8(ascii: "u") else {
          throw fail(at, "lone surrogate \\u\(hex(unit)) in string")
        }
        let low = try hex4(at: i, skipping: 2)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw fail(at, "lone surrogate \\u\(hex(unit)) in string")
        }
        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(unit) {
        throw fail(at, "lone surrogate \\u\(hex(unit)) in string")
      }
      appendUTF8(scalar, to: &buf)
    default:
      throw fail(at, "invalid escape '\\\(Character(Unicode.Scalar(c)))' in string")
    }
  }

  /// Four hex digits after a `\u` (or, with `skipping: 2`, after the next `\u`).
  mutating func hex4(at escapeStart: Int, skipping: Int = 0) throws(JSONError) -> UInt16 {
    i += skipping
    guard n - i >= 4 else { throw fail(escapeStart, "invalid \\u escape in string") }
    var v: UInt16 = 0
    for k in 0..<4 {
      let c = p[i + k]
      let d: UInt8
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - 0x30
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - 0x61 + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - 0x41 + 10
      default: throw fail(escapeStart, "invalid \\u escape in string")
      }
      v = v << 4 | UInt16(d)
    }
    i += 4
    return v
  }

  func hex(_ v: UInt16) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - s.count) + s
  }

  func appendUTF8(_ s: UInt32, to buf: inout [UInt8]) {
    switch s {
    case ..<0x80: buf.append(UInt8(s))
    case ..<0x800:
      buf.append(UInt8(0xC0 | s >> 6))
      buf.append(UInt8(0x80 | s & 0x3F))
    case ..<0x10000:
      buf.append(UInt8(0xE0 | s >> 12))
      buf.append(UInt8(0x80 | s >> 6 & 0x3F))
      buf.append(UInt8(0x80 | s & 0x3F))
    default:
      buf.append(UInt8(0xF0 | s >> 18))
      buf.append(UInt8(0x80 | s >> 12 & 0x3F))
      buf.append(UInt8(0x80 | s >> 6 & 0x3F))
      buf.append(UInt8(0x80 | s & 0x3F))
    }
  }

  /// Steps over one well-formed multi-byte UTF-8 sequence (Unicode Table 3-7): no overlong
  /// forms, no surrogates, nothing past U+10FFFF.
  mutating func utf8Sequence() throws(JSONError) {
    let b0 = p[i]
    let count: Int
    var lo: UInt8 = 0x80
    var hi: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: count = 2
    case 0xE0: count = 3; lo = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: count = 3
    case 0xED: count = 3; hi = 0x9F
    case 0xF0: count = 4; lo = 0x90
    case 0xF1...0xF3: count = 4
    case 0xF4: count = 4; hi = 0x8F
    default: throw fail(i, "invalid UTF-8 in string")
    }
    guard n - i >= count else { throw fail(i, "invalid UTF-8 in string") }
    let b1 = p[i + 1]
    guard b1 >= lo && b1 <= hi else { throw fail(i, "invalid UTF-8 in string") }
    for k in 2..<max(2, count) where p[i + k] & 0xC0 != 0x80 {
      throw fail(i, "invalid UTF-8 in string")
    }
    i += count
  }
}

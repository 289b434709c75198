extension JSONValue {
  /// This value as JSON text: members in document order, numbers as short as they round-trip.
  ///
  /// Compact by default; `pretty` puts one element per line with a 2-space indent and `": "`
  /// between key and value, and writes empty containers as `[]` / `{}`.
  public func serialized(pretty: Bool = false) -> String {
    var w = JSONWriter(pretty: pretty)
    w.write(self, indent: 0)
    return String(decoding: w.out, as: UTF8.self)
  }
}

extension JSONObject {
  /// The object as JSON text (see `JSONValue.serialized(pretty:)`).
  public func serialized(pretty: Bool = false) -> String {
    JSONValue.object(self).serialized(pretty: pretty)
  }
}

/// How numbers are written: integral values below 2^53 without a fraction (`10`, `-3`), others
/// in Swift's shortest round-trip form (`2.5`, `1e-07`). JSON has no spelling for infinity or
/// NaN, which a parsed value never holds: should a computed one reach the writer, it is written
/// `null` rather than stopping the program.
enum JSONNumberText {
  static func text(_ x: Double) -> String {
    guard x.isFinite else { return "null" }
    if x == x.rounded(.towardZero) && abs(x) < 9_007_199_254_740_992 {
      return String(Int64(x))
    }
    return x.description
  }

  /// `x` without an exponent (`0.00000015`, not `1.5e-07`), for values that must read as plain
  /// decimals. Non-finite values are `null`, as in `text(_:)`.
  static func plainDecimal(_ x: Double) -> String {
    let s = text(x)
    guard let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(s[s.index(after: e)...]) else {
      return s
    }
    var mantissa = s[..<e]
    let sign = mantissa.first == "-" ? "-" : ""
    if !sign.isEmpty { mantissa = mantissa.dropFirst() }
    let digits = String(mantissa.filter { $0 != "." })
    let point =
      (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count)
      + exponent
    if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
    if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
    return sign + digits.prefix(point) + "." + digits.dropFirst(point)
  }
}

/// Writes JSON text into a byte buffer.
struct JSONWriter {
  let pretty: Bool
  var out: [UInt8] = []

  init(pretty: Bool) {
    self.pretty = pretty
    out.reserveCapacity(256)
  }

  mutating func write(_ v: JSONValue, indent: Int) {
    switch v {
    case .null: ascii("null")
    case .bool(let b): ascii(b ? "true" : "false")
    case .number(let x): out.append(contentsOf: JSONNumberText.text(x).utf8)
    case .string(let s): string(s)
    case .array(let items):
      if items.isEmpty { return ascii("[]") }
      out.append(UInt8(ascii: "["))
      for (n, item) in items.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        write(item, indent: indent + 1)
      }
      newline(indent)
      out.append(UInt8(ascii: "]"))
    case .object(let o):
      if o.members.isEmpty { return ascii("{}") }
      out.append(UInt8(ascii: "{"))
      for (n, m) in o.members.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        string(m.key)
        ascii(pretty ? ": " : ":")
        write(m.value, indent: indent + 1)
      }
      newline(indent)
      out.append(UInt8(ascii: "}"))
    }
  }

  mutating func newline(_ indent: Int) {
    guard pretty else { return }
    out.append(0x0A)
    out.append(contentsOf: repeatElement(0x20, count: indent * 2))
  }

  mutating func ascii(_ s: StaticString) {
    s.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  /// A string literal escaped per RFC 8259: `"`, `\` and control characters.
  mutating func string(_ s: String) {
    out.append(UInt8(ascii: "\""))
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "\""): ascii("\\\"")
      case UInt8(ascii: "\\"): ascii("\\\\")
      case 0x0A: ascii("\\n")
      case 0x0D: ascii("\\r")
      case 0x09: ascii("\\t")
      case 0x08: ascii("\\b")
      case 0x0C: ascii("\\f")
      case 0..<0x20:
        ascii("\\u00")
        out.append(hexDigit(b >> 4))
        out.append(hexDigit(b & 0xF))
      default: out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  func hexDigit(_ n: UInt8) -> UInt8 { n < 10 ? 0x30 + n : 0x61 + n - 10 }
}

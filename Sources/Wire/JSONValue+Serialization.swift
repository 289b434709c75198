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
/// in Swift's shortest round-trip form (`2.5`, `1e-07`).
enum JSONNumberText {
  static func text(_ x: Double) -> String {
    precondition(x.isFinite, "JSON has no spelling for \(x)")
    if x == x.rounded(.towardZero) && abs(x) < 9_007_199_254_740_992 {
      return String(Int64(x))
    }
    return x.description
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

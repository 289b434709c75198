/// Scalars on one line: single-quoted (`''` is a quote), double-quoted (every YAML escape) and
/// plain (resolved to null, a boolean, a number or a string as `yaml.v3` resolves them).
extension FrontMatterParser {
  /// The quoted scalar that opens at byte `at` of line `n`, and the byte after its closing quote.
  func quoted(line n: Int, at: Int) throws(FrontMatterError) -> (String, Int) {
    let r = lines[n]
    let quote = bytes[at]
    var out: [UInt8] = []
    var k = at + 1
    while true {
      guard k < r.upperBound else {
        throw fail(n, .unsupported("a quoted value that does not close on its line (multi-line quoted strings)"))
      }
      let c = bytes[k]
      if c == quote {
        if quote == UInt8(ascii: "'") && k + 1 < r.upperBound && bytes[k + 1] == quote {
          out.append(quote)
          k += 2
          continue
        }
        k += 1
        break
      }
      if c == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
        k = try escape(line: n, at: k, into: &out)
        continue
      }
      out.append(c)
      k += 1
    }
    guard out.count <= limits.maxStringBytes else { throw fail(n, .stringTooLong(limit: limits.maxStringBytes)) }
    guard let s = String(validating: out, as: UTF8.self) else { throw fail(n, .syntax("a value that is not UTF-8")) }
    return (s, k)
  }

  /// The escape at byte `at` (a backslash) of line `n`, appended to `out` as UTF-8; returns the
  /// byte after it.
  func escape(line n: Int, at: Int, into out: inout [UInt8]) throws(FrontMatterError) -> Int {
    let r = lines[n]
    guard at + 1 < r.upperBound else {
      throw fail(n, .unsupported("an escaped line break (multi-line quoted strings)"))
    }
    let simple: [UInt8: UInt32] = [
      UInt8(ascii: "0"): 0, UInt8(ascii: "a"): 7, UInt8(ascii: "b"): 8, UInt8(ascii: "t"): 9, 0x09: 9,
      UInt8(ascii: "n"): 10, UInt8(ascii: "v"): 11, UInt8(ascii: "f"): 12, UInt8(ascii: "r"): 13,
      UInt8(ascii: "e"): 0x1B, 0x20: 0x20, UInt8(ascii: "\""): 0x22, UInt8(ascii: "/"): 0x2F,
      UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "N"): 0x85, UInt8(ascii: "_"): 0xA0, UInt8(ascii: "L"): 0x2028,
      UInt8(ascii: "P"): 0x2029,
    ]
    let c = bytes[at + 1]
    if let v = simple[c] {
      append(v, to: &out)
      return at + 2
    }
    let width: Int
    switch c {
    case UInt8(ascii: "x"): width = 2
    case UInt8(ascii: "u"): width = 4
    case UInt8(ascii: "U"): width = 8
    default: throw fail(n, .syntax("unknown escape `\\\(Character(UnicodeScalar(c)))`"))
    }
    guard at + 2 + width <= r.upperBound else {
      throw fail(n, .syntax("a short `\\\(Character(UnicodeScalar(c)))` escape"))
    }
    var v: UInt32 = 0
    for b in bytes[(at + 2)..<(at + 2 + width)] {
      guard let d = Self.hexDigit(b) else { throw fail(n, .syntax("a non-hex digit in an escape")) }
      v = v << 4 | UInt32(d)
    }
    guard Unicode.Scalar(v) != nil else { throw fail(n, .syntax("an escape that is not a Unicode scalar")) }
    append(v, to: &out)
    return at + 2 + width
  }

  static func hexDigit(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  func append(_ v: UInt32, to out: inout [UInt8]) {
    guard let scalar = Unicode.Scalar(v) else { return }
    out += Array(String(Character(scalar)).utf8)
  }

  /// The plain scalar from byte `from` of line `n` to a comment or the end, resolved.
  func plain(line n: Int, from: Int) throws(FrontMatterError) -> FrontMatterValue {
    let r = lines[n]
    var e = from
    while e < r.upperBound {
      let c = bytes[e]
      if c == UInt8(ascii: "#") && bytes[e - 1] == 0x20 { break }
      if c == UInt8(ascii: ":") && (e + 1 == r.upperBound || bytes[e + 1] == 0x20) {
        throw fail(n, .unsupported("`: ` inside a plain value (a nested mapping?)"))
      }
      e += 1
    }
    while e > from && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
    let text = bytes[from..<e]
    guard text.count <= limits.maxStringBytes else { throw fail(n, .stringTooLong(limit: limits.maxStringBytes)) }
    guard let s = String(validating: text, as: UTF8.self) else { throw fail(n, .syntax("a value that is not UTF-8")) }
    return Self.resolve(s)
  }

  /// What an untagged plain scalar is (YAML 1.2's core schema, as `yaml.v3` resolves it):
  /// `~`/`null` null; `true`/`false` (three spellings) booleans; decimal, hex and octal
  /// integers and floats (`1e+06`, `.inf`, `.nan`) numbers; anything else a string — so
  /// `yes`, `on` and timestamps stay strings.
  static func resolve(_ s: String) -> FrontMatterValue {
    switch s {
    case "", "~", "null", "Null", "NULL": return .null
    case "true", "True", "TRUE": return .bool(true)
    case "false", "False", "FALSE": return .bool(false)
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
    case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
    case ".nan", ".NaN", ".NAN": return .number(.nan)
    default: break
    }
    let b = Array(s.utf8)
    if b.count > 2, b[0] == UInt8(ascii: "0"), b[1] == UInt8(ascii: "x") || b[1] == UInt8(ascii: "o") {
      if let v = Int64(s.dropFirst(2), radix: b[1] == UInt8(ascii: "x") ? 16 : 8) { return .number(Double(v)) }
      return .string(s)
    }
    return isDecimal(b) ? (Double(s).map(FrontMatterValue.number) ?? .string(s)) : .string(s)
  }

  /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
  static func isDecimal(_ b: [UInt8]) -> Bool {
    var k = 0
    func digits() -> Int {
      let s = k
      while k < b.count && b[k] >= UInt8(ascii: "0") && b[k] <= UInt8(ascii: "9") { k += 1 }
      return k - s
    }
    if k < b.count && (b[k] == UInt8(ascii: "-") || b[k] == UInt8(ascii: "+")) { k += 1 }
    let whole = digits()
    var fraction = 0
    if k < b.count && b[k] == UInt8(ascii: ".") {
      k += 1
      fraction = digits()
      if whole == 0 && fraction == 0 { return false }
    } else if whole == 0 {
      return false
    }
    if k < b.count && (b[k] == UInt8(ascii: "e") || b[k] == UInt8(ascii: "E")) {
      k += 1
      if k < b.count && (b[k] == UInt8(ascii: "-") || b[k] == UInt8(ascii: "+")) { k += 1 }
      if digits() == 0 { return false }
    }
    return k == b.count
  }
}

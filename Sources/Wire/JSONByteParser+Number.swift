extension JSONByteParser {
  /// A number literal: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  ///
  /// Short literals (at most 19 digits, mantissa ≤ 2^53, decimal exponent within ±22) are
  /// converted exactly by one multiplication or division (Clinger's fast path); the rest go
  /// through the standard library's correctly rounded parser.
  mutating func number() throws(JSONError) -> Double {
    let start = i
    var negative = false
    if p[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    guard i < n, isDigit(p[i]) else { throw fail(i, "expected a digit in number") }
    if p[i] == UInt8(ascii: "0") {
      i += 1
      if i < n, isDigit(p[i]) { throw fail(start, "number with a leading zero") }
    } else {
      while i < n, isDigit(p[i]) {
        if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30) }
        digits += 1
        i += 1
      }
    }
    var fractionDigits = 0
    if i < n, p[i] == UInt8(ascii: ".") {
      i += 1
      guard i < n, isDigit(p[i]) else { throw fail(i, "expected a digit after '.' in number") }
      while i < n, isDigit(p[i]) {
        if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30) }
        digits += 1
        fractionDigits += 1
        i += 1
      }
    }
    var exponent = 0
    if i < n, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
      i += 1
      var expNegative = false
      if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
        expNegative = p[i] == UInt8(ascii: "-")
        i += 1
      }
      guard i < n, isDigit(p[i]) else { throw fail(i, "expected a digit in exponent") }
      while i < n, isDigit(p[i]) {
        if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] - 0x30) }
        i += 1
      }
      if expNegative { exponent = -exponent }
    }
    if i - start > limits.maxNumberBytes {
      throw fail(start, "number longer than \(limits.maxNumberBytes) bytes")
    }

    let e10 = exponent - fractionDigits
    if digits <= 19, mantissa <= 1 << 53, e10 >= -22, e10 <= 22 {
      var v = Double(mantissa)
      if e10 < 0 { v /= Self.powersOfTen[-e10] } else { v *= Self.powersOfTen[e10] }
      return negative ? -v : v
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
    guard let v = Double(text), v.isFinite else {
      throw fail(start, "number out of range")
    }
    return v
  }

  @inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

  /// 1e0…1e22, every one exactly representable.
  static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]
}

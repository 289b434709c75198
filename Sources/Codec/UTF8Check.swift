/// Whether bytes are well-formed UTF-8 (Unicode 15, table 3-7): no over-long forms, no
/// surrogates, nothing past U+10FFFF, no stray or missing continuation bytes.
///
/// The standard library's `String(validating:as:)` does the same but is generic over the
/// encoding, and its per-call metadata lookups cost more than the check itself; this one is a
/// plain loop with an ASCII fast path.
enum UTF8Check {
  static func isValid(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = p.count
    var i = 0
    while i < n {
      let b = p[i]
      if b < 0x80 {
        i += 1
        continue
      }
      // The allowed range of the second byte, and how many continuation bytes follow it.
      let lo: UInt8
      let hi: UInt8
      let tail: Int
      switch b {
      case 0xC2...0xDF: (lo, hi, tail) = (0x80, 0xBF, 0)
      case 0xE0: (lo, hi, tail) = (0xA0, 0xBF, 1)
      case 0xE1...0xEC, 0xEE...0xEF: (lo, hi, tail) = (0x80, 0xBF, 1)
      case 0xED: (lo, hi, tail) = (0x80, 0x9F, 1)
      case 0xF0: (lo, hi, tail) = (0x90, 0xBF, 2)
      case 0xF1...0xF3: (lo, hi, tail) = (0x80, 0xBF, 2)
      case 0xF4: (lo, hi, tail) = (0x80, 0x8F, 2)
      default: return false
      }
      guard i + 1 + tail < n else { return false }
      let second = p[i + 1]
      guard second >= lo && second <= hi else { return false }
      var k = i + 2
      let end = i + 2 + tail
      while k < end {
        guard p[k] & 0xC0 == 0x80 else { return false }
        k += 1
      }
      i = end
    }
    return true
  }
}

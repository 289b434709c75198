import TestSupport

/// Byte- and token-level mutations of text inputs, driven by a seeded generator so that every
/// case can be run again from its number.
struct Mutator {
  var random: TestRandom

  init(seed: UInt64) { random = TestRandom(state: seed) }

  /// Numbers that have broken parsers: the edges of Int, Double and JSON's exact integers.
  static let hugeNumbers = [
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
    "99999999999999999999999999", "1e308", "-1e308", "1.7976931348623157e308", "2.2250738585072014e-308",
    "5e-324", "9007199254740993", "9007199254740992", "4294967296", "2147483648", "-1", "0", "-0", "1e-400",
    "1e400", "0x10", "NaN", "Infinity", "1000001", "1000000", "1e6", "00", "1.", ".5",
  ]

  /// Bytes that are not what a parser expects: broken UTF-8, NUL, line ends, BOM, separators,
  /// combining marks, JSON punctuation and escapes.
  static let garbage: [[UInt8]] = [
    [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80], [0x00], [0x0D],
    [0x0D, 0x0A], [0x0A], [0xEF, 0xBB, 0xBF], [0xE2, 0x80, 0xA8], Array("\u{301}".utf8), Array("👩‍👩‍👧".utf8),
    [0x7F], Array("\\u0000".utf8), Array("\\ud800".utf8), [0x22], [0x7B], [0x5B], [0x7D], [0x5D], [0x2C], [0x3A],
    [0x5C], Array("=".utf8), Array("#".utf8), [0x09], [0x20],
  ]

  /// Values to put where a JSON value or a layout word was.
  static let tokens: [String] =
    [
      "null", "true", "false", "[]", "{}", "\"\"", "\"x\"", "[[[[[[[[[[", "{\"a\":{\"b\":{}}}",
      "\"9999-12-31\"", "\"1970-01-01\"", "\"2026-02-30\"", "\"9999-12-31T23:59:59Z\"", "\"2016-12-31T23:59:60Z\"",
      "\"9999-12-31T23:59:59-23:59\"", "\"1970-01-01T00:00:00+23:59\"", "\"done\"", "\"rejected\"",
      "\"In_Progress\"", "\"A\"", "\"s1\"", "\"sprint:s1\"", "[\"A\",\"B\",\"A\"]", "\"1e308\"", "\"0x10\"",
      "\"XL\"", "\"" + String(repeating: "w", count: 300) + "\"", "\"Europe/Berlin\"", "\"Mars/Olympus\"",
      "[\"sat\",\"sun\",\"mon\",\"tue\",\"wed\",\"thu\",\"fri\"]",
    ] + hugeNumbers

  mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : random.below(n) }
  mutating func chance(_ percent: Int) -> Bool { random.below(100) < percent }

  /// `bytes` with one to `most` mutations applied; `corpus` feeds splices.
  mutating func mutate(_ bytes: [UInt8], corpus: [[UInt8]], most: Int = 4) -> [UInt8] {
    var b = bytes
    for _ in 0..<(1 + below(most)) { b = mutateOnce(b, corpus: corpus) }
    return b
  }

  mutating func mutateOnce(_ input: [UInt8], corpus: [[UInt8]]) -> [UInt8] {
    var b = input
    let at = below(b.count + 1)
    switch below(13) {
    case 0 where !b.isEmpty:  // flip a bit
      let i = below(b.count)
      b[i] ^= UInt8(1 << below(8))
    case 1 where !b.isEmpty:  // replace a byte
      b[below(b.count)] = UInt8(truncatingIfNeeded: random.next())
    case 2 where !b.isEmpty:  // delete a range
      let n = 1 + below(min(24, b.count))
      let start = below(b.count - n + 1)
      b.removeSubrange(start..<(start + n))
    case 3 where !b.isEmpty:  // duplicate a range
      let n = 1 + below(min(64, b.count))
      let start = below(b.count - n + 1)
      b.insert(contentsOf: b[start..<(start + n)], at: at)
    case 4:  // splice a piece of another input
      let other = corpus[below(corpus.count)]
      guard !other.isEmpty else { break }
      let n = 1 + below(min(80, other.count))
      let start = below(other.count - n + 1)
      b.insert(contentsOf: other[start..<(start + n)], at: at)
    case 5:  // a run of digits becomes a huge (or odd) number
      let runs = digitRuns(b)
      guard let r = runs.isEmpty ? nil : runs[below(runs.count)] else { break }
      b.replaceSubrange(r, with: Array(Self.hugeNumbers[below(Self.hugeNumbers.count)].utf8))
    case 6:  // garbage bytes
      b.insert(contentsOf: Self.garbage[below(Self.garbage.count)], at: at)
    case 7:  // a value (after ':' or '=', or a word) becomes another token
      let separators: [UInt8] =
        chance(70) ? [UInt8(ascii: ":"), UInt8(ascii: "=")] : [UInt8(ascii: ":"), UInt8(ascii: "="), 0x20]
      let starts = b.indices.filter { separators.contains(b[$0]) }
      guard !starts.isEmpty else { break }
      var s = starts[below(starts.count)] + 1
      while s < b.count, b[s] == 0x20 { s += 1 }
      var e = s
      while e < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x0A, 0x20].contains(b[e]) { e += 1 }
      b.replaceSubrange(s..<e, with: Array(Self.tokens[below(Self.tokens.count)].utf8))
    case 8:  // line ends: all LF become CRLF, or a CR or CRLF goes in
      if chance(50) {
        b = b.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
      } else {
        b.insert(contentsOf: chance(50) ? [0x0D] : [0x0D, 0x0A], at: at)
      }
    case 9:  // a line duplicated, dropped, or two swapped
      var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
      guard !lines.isEmpty else { break }
      let i = below(lines.count)
      let j = below(lines.count)
      switch below(3) {
      case 0: lines.insert(lines[i], at: j)
      case 1: lines.remove(at: i)
      default: lines.swapAt(i, j)
      }
      b = Array(lines.joined(separator: [0x0A]))
    case 10:  // cut short
      b.removeSubrange(at..<b.count)
    case 11:  // a digit changed (dates, seq, points, cells)
      let runs = digitRuns(b)
      guard !runs.isEmpty else { break }
      let r = runs[below(runs.count)]
      b[r.lowerBound + below(r.count)] = UInt8(ascii: "0") + UInt8(below(10))
    default:  // a NUL, or a long run of one byte
      b.insert(
        contentsOf: chance(50) ? [0] : [UInt8](repeating: b.isEmpty ? 0x41 : b[below(b.count)], count: 1 + below(3000)),
        at: at)
    }
    return b
  }

  func digitRuns(_ b: [UInt8]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var i = 0
    while i < b.count {
      guard b[i] >= 0x30 && b[i] <= 0x39 else {
        i += 1
        continue
      }
      let start = i
      while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
      runs.append(start..<i)
    }
    return runs
  }
}

internal import TextLines

/// One `key = value` line of a data file.
struct TokenLine: Hashable, Sendable {
  var key: String
  var value: String
  /// 1-based.
  var line: Int
}

/// A data file split into `key = value` lines: blank lines and `#` comments skipped, every key
/// once, no empty keys or values. The format is documented in `assets/themes/README.md`.
struct TokenFile: Sendable {
  var file: String
  /// In file order.
  var lines: [TokenLine]
  private var indexByKey: [String: Int]

  init(parsing text: String, file: String) throws(ThemeLoadError) {
    self.file = file
    lines = []
    indexByKey = [:]
    for (number, raw) in Self.contentLines(text) {
      guard let equals = Self.firstEquals(raw) else {
        throw ThemeLoadError(file: file, line: number, reason: .notKeyValue(String(raw)))
      }
      let key = String(Self.trimmed(raw[..<equals]))
      let value = String(Self.trimmed(raw[raw.index(after: equals)...]))
      guard !key.isEmpty else { throw ThemeLoadError(file: file, line: number, reason: .emptyKey) }
      guard !value.isEmpty else {
        throw ThemeLoadError(file: file, line: number, key: key, reason: .emptyValue)
      }
      if let first = indexByKey[key] {
        throw ThemeLoadError(
          file: file, line: number, key: key, reason: .duplicateKey(firstLine: lines[first].line))
      }
      indexByKey[key] = lines.count
      lines.append(TokenLine(key: key, value: value, line: number))
    }
  }

  /// The line setting `key`, or nil.
  subscript(key: String) -> TokenLine? { indexByKey[key].map { lines[$0] } }

  /// The line setting `key`; its absence is a `missingKey` error.
  func required(_ key: String) throws(ThemeLoadError) -> TokenLine {
    guard let line = self[key] else {
      throw ThemeLoadError(file: file, key: key, reason: .missingKey)
    }
    return line
  }

  /// The error for a bad value on a line.
  func error(_ line: TokenLine, _ reason: ThemeLoadError.Reason) -> ThemeLoadError {
    ThemeLoadError(file: file, line: line.line, key: line.key, reason: reason)
  }

  /// Lines that are neither blank nor comments, trimmed, with their 1-based numbers.
  /// Lines end at `\n` or `\r\n` (`TextLines`).
  static func contentLines(_ text: String) -> [(Int, Substring)] {
    if let lines = asciiContentLines(text) { return lines }
    var result: [(Int, Substring)] = []
    for (index, raw) in TextLines.split(text).enumerated() {
      let line = trimmed(raw)
      if line.isEmpty || line.hasPrefix("#") { continue }
      result.append((index + 1, line))
    }
    return result
  }

  // The rules here are about Characters: a space, `#` or `=` followed by a combining mark is
  // another Character, none of these. In ASCII text (every bundled file) each byte is a
  // Character, so there they are applied to the bytes: walking Characters and string indices
  // cost ten times more, and the shown theme, the palettes and the variants are read before the
  // first frame (`run` reads the other themes after it), where a Raspberry Pi's slower cores wait.

  /// `contentLines` of an ASCII text, found in its bytes (as `TextLines.split` cuts and
  /// `trimmed` trims); nil when the text is not ASCII or not contiguous UTF-8.
  private static func asciiContentLines(_ text: String) -> [(Int, Substring)]? {
    let utf8 = text.utf8
    let lines = utf8.withContiguousStorageIfAvailable { bytes -> [(Int, Substring)]? in
      guard isASCII(bytes) else { return nil }
      var result: [(Int, Substring)] = []
      func take(_ number: Int, _ start: Int, _ end: Int) {
        var (start, end) = (start, end)
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        while start < end && isBlank(bytes[start]) { start += 1 }
        while end > start && isBlank(bytes[end - 1]) { end -= 1 }
        guard start < end, bytes[start] != UInt8(ascii: "#") else { return }
        result.append(
          (number, text[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]))
      }
      var number = 1
      var start = 0
      for i in 0..<bytes.count where bytes[i] == 0x0A {
        take(number, start, i)
        number += 1
        start = i + 1
      }
      take(number, start, bytes.count)
      return result
    }
    return lines ?? nil
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

  private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var all: UInt8 = 0
    for byte in bytes { all |= byte }
    return all < 0x80
  }

  /// The byte offsets of `text`'s first `=` and of its trimmed ends, when it is ASCII.
  private static func asciiOffsets(_ text: Substring) -> (equals: Int?, start: Int, end: Int)? {
    let offsets = text.utf8.withContiguousStorageIfAvailable { bytes -> (equals: Int?, start: Int, end: Int)? in
      guard isASCII(bytes) else { return nil }
      var (start, end) = (0, bytes.count)
      while start < end && isBlank(bytes[start]) { start += 1 }
      while end > start && isBlank(bytes[end - 1]) { end -= 1 }
      return (bytes.firstIndex(of: UInt8(ascii: "=")), start, end)
    }
    return offsets ?? nil
  }

  /// The index of the first `=` Character, or nil.
  static func firstEquals(_ text: Substring) -> Substring.Index? {
    guard let offsets = asciiOffsets(text) else { return text.firstIndex(of: "=") }
    return offsets.equals.map { text.utf8.index(text.utf8.startIndex, offsetBy: $0) }
  }

  /// `text` without the spaces and tabs at its ends.
  static func trimmed(_ text: Substring) -> Substring {
    if let offsets = asciiOffsets(text) {
      let utf8 = text.utf8
      return text[
        utf8.index(utf8.startIndex, offsetBy: offsets.start)..<utf8.index(utf8.startIndex, offsetBy: offsets.end)]
    }
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = text.firstIndex(where: { !isBlank($0) }) else {
      return text[text.endIndex...]
    }
    let end = text.lastIndex(where: { !isBlank($0) })!
    return text[start...end]
  }

  /// Lowercase ASCII letters, digits and `-`, not starting with `-`.
  static func isName(_ text: String) -> Bool {
    guard let first = text.utf8.first, first != UInt8(ascii: "-") else { return false }
    return text.utf8.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
    }
  }
}

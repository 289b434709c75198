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
      guard let equals = raw.firstIndex(of: "=") else {
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
    var result: [(Int, Substring)] = []
    for (index, raw) in TextLines.split(text).enumerated() {
      let line = trimmed(raw)
      if line.isEmpty || line.hasPrefix("#") { continue }
      result.append((index + 1, line))
    }
    return result
  }

  static func trimmed(_ text: Substring) -> Substring {
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

/// The front matter of an Orchestra markdown file: the YAML subset `yaml.v3` 3.0.1 writes
/// (`orchestra-storage.md` §2b), parsed by a pure, capped reader.
///
/// Framing as the plugin's reader does it: the first line exactly `---`, a closing line `---`
/// (a CR before either newline is tolerated), then the body after one newline and one blank
/// line. The YAML is one block mapping at column 0 (any key order): plain, single-quoted and
/// double-quoted scalars (every YAML escape), literal blocks (`|`, `|-`, `|+`, `|4-`) and, for
/// files edited by hand, folded ones (`>`, `>-`…), a tab past a block's indentation being
/// content; block sequences of scalars, the empty flow list `[]`, numbers, booleans and null;
/// `!!merge <<` is tolerated. Anything else YAML allows (anchors, aliases, tags, nested
/// mappings, flow mappings) is an error naming its line, never a crash or a silent skip, and
/// so is a tab that indents.
public struct FrontMatter: Hashable, Sendable {
  /// The mapping's keys in file order.
  public var keys: [String]
  /// The mapping's values by key.
  public var values: [String: FrontMatterValue]
  /// The line (1-based, in the file) of each key.
  public var lines: [String: Int]
  /// Whether the file had front matter at all (without it, all of it is body).
  public var isPresent: Bool
  /// The markdown after the front matter (its framing newline and blank line skipped).
  public var body: ArraySlice<UInt8>
  /// The file line the body starts on.
  public var bodyLine: Int

  /// The value of `key`, nil when the key is absent.
  public subscript(key: String) -> FrontMatterValue? { values[key] }

  /// What one file's front matter may hold; beyond it is an error, checked before the work.
  public struct Limits: Hashable, Sendable {
    /// Bytes from the opening `---` to the closing one.
    public var maxBytes = 64 * 1024
    public var maxLines = 2_000
    public var maxKeys = 256
    /// Bytes of one scalar (a description, a literal block).
    public var maxStringBytes = 32 * 1024
    public var maxListItems = 1_000
    public init() {}
  }

  /// Parses `bytes` (a whole file); `file` names it in errors.
  public static func parse(
    _ bytes: [UInt8], file: String, limits: Limits = Limits()
  ) throws(FrontMatterError) -> FrontMatter {
    let framing = try Framing(bytes: bytes, file: file, limits: limits)
    guard framing.present else {
      return FrontMatter(
        keys: [], values: [:], lines: [:], isPresent: false, body: bytes[...], bodyLine: 1)
    }
    var parser = FrontMatterParser(bytes: bytes, lines: framing.lines, file: file, limits: limits)
    try parser.parseMapping()
    return FrontMatter(
      keys: parser.keys, values: parser.values, lines: parser.keyLines, isPresent: true,
      body: bytes[framing.bodyStart...], bodyLine: framing.bodyLine)
  }

  /// The hand-made front matter of `export_markdown` (§2d): one `key: value` per line, taken
  /// verbatim (unquoted, so a title may hold `: ` or `#`); every value is a string.
  public static func parseVerbatim(
    _ bytes: [UInt8], file: String, limits: Limits = Limits()
  ) throws(FrontMatterError) -> FrontMatter {
    let framing = try Framing(bytes: bytes, file: file, limits: limits)
    guard framing.present else {
      return FrontMatter(
        keys: [], values: [:], lines: [:], isPresent: false, body: bytes[...], bodyLine: 1)
    }
    var out = FrontMatter(
      keys: [], values: [:], lines: [:], isPresent: true, body: bytes[framing.bodyStart...],
      bodyLine: framing.bodyLine)
    for (n, range) in framing.lines.enumerated() {
      let line = bytes[range]
      let number = n + 2
      if line.allSatisfy({ $0 == 0x20 }) { continue }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        colon + 1 == line.endIndex || bytes[colon + 1] == 0x20
      else { throw FrontMatterError(file: file, line: number, problem: .syntax("expected `key: value`")) }
      let key = String(decoding: line[..<colon], as: UTF8.self)
      var value = line[(colon + 1)...]
      while value.first == 0x20 { value = value.dropFirst() }
      while value.last == 0x20 { value = value.dropLast() }
      guard value.count <= limits.maxStringBytes else {
        throw FrontMatterError(file: file, line: number, problem: .stringTooLong(limit: limits.maxStringBytes))
      }
      guard out.values[key] == nil else {
        throw FrontMatterError(file: file, line: number, problem: .duplicateKey(key))
      }
      guard out.keys.count < limits.maxKeys else {
        throw FrontMatterError(file: file, line: number, problem: .tooManyKeys(limit: limits.maxKeys))
      }
      out.keys.append(key)
      out.values[key] = .string(String(decoding: value, as: UTF8.self))
      out.lines[key] = number
    }
    return out
  }
}

/// A front-matter value: what the board reads of YAML's scalars and lists.
public enum FrontMatterValue: Hashable, Sendable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case list([FrontMatterValue])

  /// The value as text: a string as is, a number without a needless `.0`, a boolean as
  /// `true`/`false`; nil for null and lists.
  public var text: String? {
    switch self {
    case .string(let s): return s
    case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    case .bool(let b): return b ? "true" : "false"
    case .null, .list: return nil
    }
  }
}

/// Why a front matter could not be read: the file, the line (1-based) and what was wrong.
public struct FrontMatterError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Problem: Hashable, Sendable {
    /// The file is empty.
    case empty
    /// It opens with `---` (or a prefix of it) but has no closing `---`.
    case unterminated
    case tooLarge(limit: Int)
    case tooManyLines(limit: Int)
    case tooManyKeys(limit: Int)
    case stringTooLong(limit: Int)
    case listTooLong(limit: Int)
    case duplicateKey(String)
    /// Not YAML (or not the YAML the plugin writes).
    case syntax(String)
    /// YAML the board does not read: anchors, aliases, tags, nested or flow mappings…
    case unsupported(String)
  }

  public var file: String
  public var line: Int
  public var problem: Problem

  public init(file: String, line: Int, problem: Problem) {
    self.file = file
    self.line = line
    self.problem = problem
  }

  /// Whether the file may be a write still in progress (writes are in place: truncate, then
  /// write), so worth reading again before it is called bad.
  public var mayBeTorn: Bool {
    switch problem {
    case .empty, .unterminated: return true
    default: return false
    }
  }

  public var description: String { "\(file):\(line): \(reason)" }

  /// What was wrong, without the file and line.
  public var reason: String {
    let why: String
    switch problem {
    case .empty: why = "empty file"
    case .unterminated: why = "front matter has no closing `---`"
    case .tooLarge(let l): why = "front matter is longer than \(l) bytes"
    case .tooManyLines(let l): why = "front matter has more than \(l) lines"
    case .tooManyKeys(let l): why = "front matter has more than \(l) keys"
    case .stringTooLong(let l): why = "a value is longer than \(l) bytes"
    case .listTooLong(let l): why = "a list has more than \(l) items"
    case .duplicateKey(let k): why = "key `\(k)` appears twice"
    case .syntax(let s): why = s
    case .unsupported(let s): why = "unsupported YAML: \(s)"
    }
    return why
  }
}

/// Where the front matter and the body are in a file's bytes.
struct Framing {
  var present = false
  /// The front matter's lines (between the `---` lines), CR stripped; line n is file line n + 2.
  var lines: [Range<Int>] = []
  var bodyStart = 0
  var bodyLine = 1

  init(bytes: [UInt8], file: String, limits: FrontMatter.Limits) throws(FrontMatterError) {
    guard !bytes.isEmpty else { throw FrontMatterError(file: file, line: 1, problem: .empty) }
    let opening: [UInt8] = Array("---\n".utf8)
    // A prefix of the opening line is a write cut short (writes start at the top).
    if bytes.count < 4 && opening.starts(with: bytes) || bytes == Array("---\r".utf8) {
      throw FrontMatterError(file: file, line: 1, problem: .unterminated)
    }
    let first = Self.lineEnd(bytes, from: 0)
    guard Self.isMarker(bytes, 0..<first.content) else { return }
    present = true
    var start = first.next
    var lineNumber = 2
    while true {
      guard start < bytes.count else {
        throw FrontMatterError(file: file, line: lineNumber, problem: .unterminated)
      }
      guard start <= limits.maxBytes else {
        throw FrontMatterError(file: file, line: lineNumber, problem: .tooLarge(limit: limits.maxBytes))
      }
      let end = Self.lineEnd(bytes, from: start)
      if Self.isMarker(bytes, start..<end.content) {
        bodyStart = end.next
        bodyLine = lineNumber + 1
        let blank = Self.lineEnd(bytes, from: bodyStart)
        if bodyStart < bytes.count, blank.content == bodyStart, blank.next > bodyStart {
          bodyStart = blank.next
          bodyLine += 1
        }
        return
      }
      guard lines.count < limits.maxLines else {
        throw FrontMatterError(file: file, line: lineNumber, problem: .tooManyLines(limit: limits.maxLines))
      }
      lines.append(start..<end.content)
      start = end.next
      lineNumber += 1
    }
  }

  /// The end of the line at `from`: where its content ends (before `\r\n` or `\n`) and where
  /// the next line starts.
  static func lineEnd(_ bytes: [UInt8], from: Int) -> (content: Int, next: Int) {
    var i = from
    while i < bytes.count && bytes[i] != 0x0A { i += 1 }
    let next = i < bytes.count ? i + 1 : i
    let content = i > from && bytes[i - 1] == 0x0D ? i - 1 : i
    return (content, next)
  }

  static func isMarker(_ bytes: [UInt8], _ r: Range<Int>) -> Bool {
    r.count == 3 && bytes[r.lowerBound] == 0x2D && bytes[r.lowerBound + 1] == 0x2D && bytes[r.lowerBound + 2] == 0x2D
  }
}

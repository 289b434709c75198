/// The block structure of a front matter: the mapping, its block sequences and block scalars,
/// line by line (the scalars themselves are in `FrontMatter+Scalars.swift`).
struct FrontMatterParser {
  let bytes: [UInt8]
  /// The front matter's lines, CR stripped; index n is file line n + 2.
  let lines: [Range<Int>]
  let file: String
  let limits: FrontMatter.Limits
  var i = 0
  var keys: [String] = []
  var values: [String: FrontMatterValue] = [:]
  var keyLines: [String: Int] = [:]

  init(bytes: [UInt8], lines: [Range<Int>], file: String, limits: FrontMatter.Limits) {
    self.bytes = bytes
    self.lines = lines
    self.file = file
    self.limits = limits
  }

  /// The file line of front-matter line `n`.
  func number(_ n: Int) -> Int { n + 2 }

  func fail(_ n: Int, _ problem: FrontMatterError.Problem) -> FrontMatterError {
    FrontMatterError(file: file, line: number(n), problem: problem)
  }

  /// Leading spaces of line `n`; a tab there is an error (YAML forbids tabs in indentation).
  func indent(_ n: Int) throws(FrontMatterError) -> Int {
    let r = lines[n]
    var k = r.lowerBound
    while k < r.upperBound && bytes[k] == 0x20 { k += 1 }
    if k < r.upperBound && bytes[k] == 0x09 { throw fail(n, .syntax("a tab in the indentation")) }
    return k - r.lowerBound
  }

  /// Whether line `n` holds nothing but spaces, or a comment.
  func isBlankOrComment(_ n: Int) -> Bool {
    let r = lines[n]
    var k = r.lowerBound
    while k < r.upperBound && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
    return k == r.upperBound || bytes[k] == UInt8(ascii: "#")
  }

  /// The next line at or after `from` that is not blank or a comment.
  func nextContent(from: Int) -> Int? {
    var n = from
    while n < lines.count {
      if !isBlankOrComment(n) { return n }
      n += 1
    }
    return nil
  }

  // MARK: The mapping

  /// The top-level mapping: `key: value` lines at column 0.
  mutating func parseMapping() throws(FrontMatterError) {
    while let n = nextContent(from: i) {
      i = n
      let ind = try indent(n)
      guard ind == 0 else {
        throw fail(n, .unsupported("an indented line outside a list or literal block (a nested mapping?)"))
      }
      let (key, valueStart) = try parseKey(n)
      guard keys.count < limits.maxKeys else { throw fail(n, .tooManyKeys(limit: limits.maxKeys)) }
      guard values[key] == nil else { throw fail(n, .duplicateKey(key)) }
      i = n + 1
      let value = try parseValue(line: n, from: valueStart, parentIndent: 0, inList: false)
      keys.append(key)
      values[key] = value
      keyLines[key] = number(n)
    }
  }

  /// The key of line `n` and where its value starts (after `: `).
  func parseKey(_ n: Int) throws(FrontMatterError) -> (String, Int) {
    let r = lines[n]
    var k = r.lowerBound
    let rest = bytes[r]
    if rest.starts(with: Array("!!merge ".utf8)) { k += 8 }
    guard k < r.upperBound else { throw fail(n, .syntax("expected `key: value`")) }
    let c = bytes[k]
    var key: String
    var after: Int
    switch c {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      let (s, end) = try quoted(line: n, at: k)
      key = s
      after = end
    case UInt8(ascii: "-") where k + 1 == r.upperBound || bytes[k + 1] == 0x20:
      throw fail(n, .syntax("a list where a `key: value` was expected"))
    case UInt8(ascii: "?"):
      throw fail(n, .unsupported("complex keys (`? `)"))
    case UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "{"), UInt8(ascii: "["):
      throw fail(n, .unsupported("anchors, aliases, tags and flow collections as keys"))
    default:
      var e = k
      while e < r.upperBound && !(bytes[e] == UInt8(ascii: ":") && (e + 1 == r.upperBound || bytes[e + 1] == 0x20)) {
        e += 1
      }
      guard e < r.upperBound else { throw fail(n, .syntax("expected `key: value`")) }
      var ke = e
      while ke > k && bytes[ke - 1] == 0x20 { ke -= 1 }
      key = String(decoding: bytes[k..<ke], as: UTF8.self)
      after = e
    }
    while after < r.upperBound && bytes[after] == 0x20 { after += 1 }
    guard after < r.upperBound, bytes[after] == UInt8(ascii: ":"), after + 1 == r.upperBound || bytes[after + 1] == 0x20
    else { throw fail(n, .syntax("expected `:` after the key")) }
    guard !key.isEmpty else { throw fail(n, .syntax("an empty key")) }
    return (key, after + 1)
  }

  // MARK: Values

  /// The value that starts on line `line` at byte `from` (after `key:` or `- `), and the lines
  /// below it that belong to it; `i` moves past them.
  mutating func parseValue(
    line n: Int, from start: Int, parentIndent: Int, inList: Bool
  ) throws(FrontMatterError) -> FrontMatterValue {
    let r = lines[n]
    var k = start
    while k < r.upperBound && bytes[k] == 0x20 { k += 1 }
    guard k < r.upperBound, bytes[k] != UInt8(ascii: "#") else {
      // Nothing on the line: a block sequence below, or null.
      guard let next = nextContent(from: n + 1) else { return .null }
      let ind = try indent(next)
      if isDash(next, at: lines[next].lowerBound + ind) {
        if !inList && ind >= parentIndent || inList && ind > parentIndent {
          return try parseSequence(indent: ind, from: next)
        }
      } else if ind > parentIndent {
        throw fail(next, .unsupported("a nested mapping or a multi-line plain value"))
      }
      return .null
    }
    switch bytes[k] {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      let (s, end) = try quoted(line: n, at: k)
      try expectLineEnd(n, from: end)
      return .string(s)
    case UInt8(ascii: "|"), UInt8(ascii: ">"):
      return .string(try blockScalar(line: n, header: k, parentIndent: parentIndent))
    case UInt8(ascii: "["):
      var e = k + 1
      while e < r.upperBound && bytes[e] == 0x20 { e += 1 }
      guard e < r.upperBound, bytes[e] == UInt8(ascii: "]") else {
        throw fail(n, .unsupported("flow sequences other than `[]`"))
      }
      try expectLineEnd(n, from: e + 1)
      return .list([])
    case UInt8(ascii: "{"): throw fail(n, .unsupported("flow mappings (`{…}`)"))
    case UInt8(ascii: "&"): throw fail(n, .unsupported("anchors (`&`)"))
    case UInt8(ascii: "*"): throw fail(n, .unsupported("aliases (`*`)"))
    case UInt8(ascii: "!"): throw fail(n, .unsupported("tags (`!`)"))
    case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
      throw fail(n, .syntax("a plain value cannot start with `\(Character(UnicodeScalar(bytes[k])))`"))
    case UInt8(ascii: "-") where k + 1 == r.upperBound || bytes[k + 1] == 0x20:
      throw fail(n, inList ? .unsupported("nested lists") : .syntax("a list cannot start on the key's line"))
    default:
      // A line below that is more indented (a multi-line plain value, a nested mapping) is
      // caught by whoever reads on: the mapping or the sequence.
      return try plain(line: n, from: k)
    }
  }

  /// Whether line `n` is a sequence entry (`-` then a space or the end), at byte `at` (or after
  /// its indentation).
  func isDash(_ n: Int, at: Int?) -> Bool {
    let r = lines[n]
    var k = at ?? r.lowerBound
    if at == nil { while k < r.upperBound && bytes[k] == 0x20 { k += 1 } }
    return k < r.upperBound && bytes[k] == UInt8(ascii: "-") && (k + 1 == r.upperBound || bytes[k + 1] == 0x20)
  }

  /// A block sequence whose entries are at column `indent`, starting at line `from`.
  mutating func parseSequence(indent ind: Int, from: Int) throws(FrontMatterError) -> FrontMatterValue {
    var items: [FrontMatterValue] = []
    var n = from
    while true {
      guard items.count < limits.maxListItems else { throw fail(n, .listTooLong(limit: limits.maxListItems)) }
      i = n + 1
      let item = try parseValue(line: n, from: lines[n].lowerBound + ind + 1, parentIndent: ind, inList: true)
      if case .list = item { throw fail(n, .unsupported("nested lists")) }
      items.append(item)
      guard let next = nextContent(from: i), try indent(next) == ind, isDash(next, at: lines[next].lowerBound + ind)
      else { break }
      n = next
    }
    return .list(items)
  }

  /// Only spaces or a comment may follow a quoted scalar on its line.
  func expectLineEnd(_ n: Int, from: Int) throws(FrontMatterError) {
    let r = lines[n]
    var k = from
    while k < r.upperBound && bytes[k] == 0x20 { k += 1 }
    guard k == r.upperBound || (bytes[k] == UInt8(ascii: "#") && k > from) else {
      throw fail(n, .syntax("unexpected text after a quoted value"))
    }
  }

  /// A block scalar, literal (`|`) or folded (`>`), with a chomping indicator (`-`, `+`) and an
  /// indentation indicator (`1`–`9`) in either order, whose header is at byte `header` of line
  /// `n`; its content is the lines below, more indented than `parentIndent`.
  ///
  /// Tabs (YAML 1.2 §8.1.1.1, and yaml.v3, which writes a multi-line string holding tabs as a
  /// literal block): the block's indentation is spaces only, the given one or the spaces before
  /// its first line that holds more than spaces. Past the indentation a tab is content, like any
  /// other character (a Makefile recipe in a description). A later line with fewer spaces than
  /// that and then a tab is a tab in the indentation: an error naming the line, as yaml.v3's own
  /// reader has it.
  mutating func blockScalar(line n: Int, header: Int, parentIndent: Int) throws(FrontMatterError) -> String {
    let r = lines[n]
    let folded = bytes[header] == UInt8(ascii: ">")
    var k = header + 1
    var chomp: UInt8 = 0
    var indicator = 0
    for _ in 0..<2 where k < r.upperBound {
      let c = bytes[k]
      if (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) && chomp == 0 {
        chomp = c
      } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") && indicator == 0 {
        indicator = Int(c - UInt8(ascii: "0"))
      } else {
        break
      }
      k += 1
    }
    try expectLineEnd(n, from: k)
    // The content's indentation: given, or the spaces of its first line that is not all spaces.
    var contentIndent = indicator > 0 ? parentIndent + indicator : 0
    if contentIndent == 0 {
      var m = n + 1
      while m < lines.count && spaces(m) == lines[m].count { m += 1 }
      if m < lines.count { contentIndent = spaces(m) }
      if contentIndent <= parentIndent {
        i = n + 1
        return ""
      }
    }
    var out: [UInt8] = []
    /// Whether the last content line was "more indented" (led by a space or a tab after the
    /// indentation); nil before the first.
    var lastSpaced: Bool?
    /// Empty lines since the last content line.
    var empty = 0
    var m = n + 1
    while m < lines.count {
      let l = lines[m]
      let lead = spaces(m)
      if lead < contentIndent && lead < l.count {
        // Fewer spaces than the block's, then something: the block has ended, unless what
        // follows is a tab, which cannot indent.
        if bytes[l.lowerBound + lead] == 0x09 { throw fail(m, .syntax("a tab in the indentation")) }
        break
      }
      m += 1
      guard l.count > contentIndent else {
        empty += 1
        continue
      }
      let text = bytes[(l.lowerBound + contentIndent)..<l.upperBound]
      let spaced = text.first == 0x20 || text.first == 0x09
      // The line break before this line: folded into a space between two lines of text of a
      // folded block, else kept; the empty lines between are kept, one newline each.
      if let last = lastSpaced {
        if folded && !last && !spaced {
          if empty == 0 { out.append(0x20) } else { out += repeatElement(0x0A, count: empty) }
        } else {
          out += repeatElement(0x0A, count: empty + 1)
        }
      } else {
        out += repeatElement(0x0A, count: empty)
      }
      out += text
      guard out.count <= limits.maxStringBytes else { throw fail(m - 1, .stringTooLong(limit: limits.maxStringBytes)) }
      lastSpaced = spaced
      empty = 0
    }
    // The last line break and the empty lines after it: none (`-`), the break (clip), or all
    // of them (`+`).
    if lastSpaced != nil && chomp != UInt8(ascii: "-") { out.append(0x0A) }
    if chomp == UInt8(ascii: "+") { out += repeatElement(0x0A, count: empty) }
    guard out.count <= limits.maxStringBytes else { throw fail(m - 1, .stringTooLong(limit: limits.maxStringBytes)) }
    i = m
    guard let s = String(validating: out, as: UTF8.self) else {
      throw fail(n, .syntax("a block scalar that is not UTF-8"))
    }
    return s
  }

  /// The spaces that lead line `n` (a tab after them is not counted, and not an error here).
  func spaces(_ n: Int) -> Int {
    let r = lines[n]
    var k = r.lowerBound
    while k < r.upperBound && bytes[k] == 0x20 { k += 1 }
    return k - r.lowerBound
  }
}

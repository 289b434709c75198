/// A small reader of the YAML people write by hand in configuration files: block mappings and
/// lists by indentation (spaces), flow mappings and lists (`{label: Done}`, `[a, b]`), plain,
/// single- and double-quoted scalars, comments. Not anchors, tags, block scalars or multi-line
/// flows: those are errors that name their line, never a silent skip. Depth and size are capped
/// by the caller's byte cap and `maxDepth`.
indirect enum YAMLNode: Hashable, Sendable {
  case scalar(String, quoted: Bool, line: Int)
  case map([Entry], line: Int)
  case list([YAMLNode], line: Int)

  struct Entry: Hashable, Sendable {
    var key: String
    var value: YAMLNode
  }

  struct Problem: Error, Hashable, Sendable {
    var line: Int
    var problem: String
  }

  static let maxDepth = 32

  var line: Int {
    switch self {
    case .scalar(_, _, let l), .map(_, let l), .list(_, let l): return l
    }
  }

  /// One meaningful line: its number, indentation and content without comment or trailing blanks.
  struct Line {
    var number: Int
    var indent: Int
    var text: Substring
    var isItem: Bool { text == "-" || text.hasPrefix("- ") }
  }

  static func parse(_ source: String) throws(Problem) -> YAMLNode {
    var lines: [Line] = []
    var number = 0
    // "\r\n" is one Character in Swift: split on both.
    for raw in source.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      number += 1
      var s = raw
      if s.hasSuffix("\r") { s = s.dropLast() }
      let indent = s.prefix { $0 == " " }.count
      if s.dropFirst(indent).first == "\t" {
        throw Problem(line: number, problem: "a tab in the indentation (YAML indents with spaces)")
      }
      var text = withoutComment(s.dropFirst(indent))
      while text.last == " " || text.last == "\t" { text = text.dropLast() }
      if text.isEmpty || text == "---" || text == "..." { continue }
      if let bad = text.first, "&*!%@`|>".contains(bad) {
        throw Problem(line: number, problem: "\"\(bad)\" (anchors, tags, block scalars) is not supported here")
      }
      lines.append(Line(number: number, indent: indent, text: text))
    }
    guard !lines.isEmpty else { return .map([], line: 1) }
    var reader = Reader(lines: lines)
    let node = try reader.node(depth: 0)
    if reader.index < lines.count {
      throw Problem(line: lines[reader.index].number, problem: "unexpected indentation")
    }
    return node
  }

  /// The text before a comment: `#` at the start or after a blank, outside quotes.
  static func withoutComment(_ s: Substring) -> Substring {
    var quote: Character?
    var previous: Character = " "
    for i in s.indices {
      let c = s[i]
      if let q = quote {
        if c == q { quote = nil }
      } else if (c == "\"" || c == "'") && " :[{,-".contains(previous) {
        quote = c
      } else if c == "#" && (previous == " " || previous == "\t") {
        return s[..<i]
      } else if c == "#" && i == s.startIndex {
        return s[..<i]
      }
      previous = c
    }
    return s
  }

  struct Reader {
    var lines: [Line]
    var index = 0

    mutating func node(depth: Int) throws(Problem) -> YAMLNode {
      guard depth < YAMLNode.maxDepth else {
        throw Problem(line: lines[index].number, problem: "nested deeper than \(YAMLNode.maxDepth) levels")
      }
      return lines[index].isItem ? try list(depth: depth) : try map(depth: depth)
    }

    mutating func map(depth: Int) throws(Problem) -> YAMLNode {
      let indent = lines[index].indent
      let first = lines[index].number
      var entries: [Entry] = []
      var keys: Set<String> = []
      while index < lines.count, lines[index].indent == indent, !lines[index].isItem {
        let line = lines[index]
        guard let (key, rest) = try YAMLNode.entry(line.text, line: line.number) else {
          throw Problem(line: line.number, problem: "expected \"key: value\"")
        }
        guard keys.insert(key).inserted else { throw Problem(line: line.number, problem: "key \(key) appears twice") }
        index += 1
        let value: YAMLNode
        if !rest.isEmpty {
          value = try YAMLNode.inline(rest, line: line.number, depth: depth + 1)
        } else if index < lines.count, lines[index].indent > indent {
          value = try node(depth: depth + 1)
        } else if index < lines.count, lines[index].indent == indent, lines[index].isItem {
          value = try list(depth: depth + 1)
        } else {
          value = .scalar("", quoted: false, line: line.number)
        }
        entries.append(Entry(key: key, value: value))
      }
      if index < lines.count, lines[index].indent > indent {
        throw Problem(line: lines[index].number, problem: "unexpected indentation")
      }
      return .map(entries, line: first)
    }

    mutating func list(depth: Int) throws(Problem) -> YAMLNode {
      let indent = lines[index].indent
      let first = lines[index].number
      var items: [YAMLNode] = []
      while index < lines.count, lines[index].indent == indent, lines[index].isItem {
        let line = lines[index]
        let rest = line.text.dropFirst().drop { $0 == " " }
        if rest.isEmpty {
          index += 1
          if index < lines.count, lines[index].indent > indent {
            items.append(try node(depth: depth + 1))
          } else {
            items.append(.scalar("", quoted: false, line: line.number))
          }
        } else if try YAMLNode.entry(rest, line: line.number) != nil {
          // `- key: value`: a mapping whose keys line up with this first one.
          lines[index] = Line(number: line.number, indent: indent + (line.text.count - rest.count), text: rest)
          items.append(try map(depth: depth + 1))
        } else {
          index += 1
          items.append(try YAMLNode.inline(rest, line: line.number, depth: depth + 1))
        }
      }
      return .list(items, line: first)
    }
  }

  /// `key: rest` (rest may be empty) when the text is a mapping entry; nil otherwise.
  static func entry(_ text: Substring, line: Int) throws(Problem) -> (String, Substring)? {
    if let q = text.first, q == "\"" || q == "'" {
      var scanner = Flow(text: text, line: line)
      let key = try scanner.quoted()
      let after = scanner.rest
      guard after.first == ":", after.count == 1 || after.dropFirst().first == " " else { return nil }
      return (key, after.dropFirst().drop { $0 == " " })
    }
    if let f = text.first, "[{".contains(f) { return nil }
    var i = text.startIndex
    while i < text.endIndex {
      if text[i] == ":" {
        let next = text.index(after: i)
        if next == text.endIndex || text[next] == " " {
          let key = text[..<i].trimmingBlanks
          guard !key.isEmpty else { return nil }
          return (String(key), text[next...].drop { $0 == " " })
        }
      }
      i = text.index(after: i)
    }
    return nil
  }

  /// A value on the line of its key or dash: a flow collection or a scalar.
  static func inline(_ text: Substring, line: Int, depth: Int) throws(Problem) -> YAMLNode {
    if let bad = text.first, "&*!%@`|>".contains(bad) {
      throw Problem(line: line, problem: "\"\(bad)\" (anchors, tags, block scalars) is not supported here")
    }
    var flow = Flow(text: text, line: line)
    let node = try flow.value(depth: depth)
    guard flow.rest.allSatisfy({ $0 == " " }) else {
      throw Problem(line: line, problem: "unexpected \"\(flow.rest.prefix(20))\" after a value")
    }
    return node
  }

  /// Reads flow values (`{a: b, c: [d]}`, quoted and plain scalars) from one line.
  struct Flow {
    var rest: Substring
    let line: Int
    init(text: Substring, line: Int) {
      rest = text
      self.line = line
    }

    mutating func skipBlanks() { rest = rest.drop { $0 == " " } }

    mutating func value(depth: Int, inFlow: Bool = false) throws(Problem) -> YAMLNode {
      guard depth < YAMLNode.maxDepth else {
        throw Problem(line: line, problem: "nested deeper than \(YAMLNode.maxDepth) levels")
      }
      skipBlanks()
      switch rest.first {
      case "{":
        rest = rest.dropFirst()
        var entries: [Entry] = []
        skipBlanks()
        if rest.first == "}" {
          rest = rest.dropFirst()
          return .map([], line: line)
        }
        while true {
          skipBlanks()
          let key: String
          if rest.first == "\"" || rest.first == "'" {
            key = try quoted()
          } else {
            let k = rest.prefix { $0 != ":" && $0 != "," && $0 != "}" }
            key = String(k.trimmingBlanks)
            rest = rest.dropFirst(k.count)
          }
          guard rest.first == ":" else { throw Problem(line: line, problem: "expected \":\" after \(key) in { }") }
          rest = rest.dropFirst()
          entries.append(Entry(key: key, value: try value(depth: depth + 1, inFlow: true)))
          skipBlanks()
          if rest.first == "," {
            rest = rest.dropFirst()
            continue
          }
          guard rest.first == "}" else { throw Problem(line: line, problem: "expected \",\" or \"}\"") }
          rest = rest.dropFirst()
          return .map(entries, line: line)
        }
      case "[":
        rest = rest.dropFirst()
        var items: [YAMLNode] = []
        skipBlanks()
        if rest.first == "]" {
          rest = rest.dropFirst()
          return .list([], line: line)
        }
        while true {
          items.append(try value(depth: depth + 1, inFlow: true))
          skipBlanks()
          if rest.first == "," {
            rest = rest.dropFirst()
            continue
          }
          guard rest.first == "]" else { throw Problem(line: line, problem: "expected \",\" or \"]\"") }
          rest = rest.dropFirst()
          return .list(items, line: line)
        }
      case "\"", "'":
        return .scalar(try quoted(), quoted: true, line: line)
      default:
        let stop: (Character) -> Bool = inFlow ? { ",]}".contains($0) } : { _ in false }
        let plain = rest.prefix { !stop($0) }
        rest = rest.dropFirst(plain.count)
        let s = plain.trimmingBlanks
        return .scalar(s == "~" || s == "null" ? "" : String(s), quoted: false, line: line)
      }
    }

    /// A quoted scalar: `'…'` with `''` for a quote, or `"…"` with backslash escapes.
    mutating func quoted() throws(Problem) -> String {
      let q = rest.first!
      rest = rest.dropFirst()
      var out = ""
      while let c = rest.first {
        rest = rest.dropFirst()
        if c == q {
          if q == "'" && rest.first == "'" {
            out.append("'")
            rest = rest.dropFirst()
            continue
          }
          return out
        }
        if q == "\"" && c == "\\" {
          guard let e = rest.first else { break }
          rest = rest.dropFirst()
          switch e {
          case "n": out.append("\n")
          case "t": out.append("\t")
          case "\\", "\"", "/": out.append(e)
          case "0": out.append("\0")
          case "x", "u", "U":
            let n = e == "x" ? 2 : e == "u" ? 4 : 8
            guard let v = UInt32(String(rest.prefix(n)), radix: 16), rest.count >= n, let u = Unicode.Scalar(v) else {
              throw Problem(line: line, problem: "bad \\\(e) escape")
            }
            out.unicodeScalars.append(u)
            rest = rest.dropFirst(n)
          default: throw Problem(line: line, problem: "unknown escape \\\(e)")
          }
          continue
        }
        out.append(c)
      }
      throw Problem(line: line, problem: "a quoted value does not end on its line")
    }
  }
}

extension Substring {
  var trimmingBlanks: Substring {
    var s = self.drop { $0 == " " }
    while s.last == " " { s = s.dropLast() }
    return s
  }
}

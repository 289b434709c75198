import Foundation
import TestSupport
import Testing
import WorkspaceFormats

/// The front matter yaml.v3 writes, read back: every shape, CRLF, errors with their line, caps.
@Suite("Front matter: the YAML subset the markdown plugin writes")
struct FrontMatterTests {
  static let tree = Paths.fixtures.appendingPathComponent("markdown/plugin/.projects/orchestra-swift")

  static func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: tree.appendingPathComponent(name)))
  }

  /// LF → CRLF, as a file edited on Windows would be.
  static func crlf(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for b in bytes {
      if b == 0x0A { out.append(0x0D) }
      out.append(b)
    }
    return out
  }

  @Test(arguments: [false, true])
  func everyQuotingShapeOfTheFixture(crlf: Bool) throws {
    var bytes = try Self.fixture("features/FEAT-QUO.md")
    if crlf { bytes = Self.crlf(bytes) }
    let fm = try FrontMatter.parse(bytes, file: "FEAT-QUO.md")
    #expect(fm.isPresent)
    #expect(fm.keys == fm.keys.sorted(), "yaml.v3 sorts the keys")
    #expect(fm["title"] == .string(#"Fix: the board's "login" # page"#))
    #expect(fm["created_at"] == .string("2026-03-01T09:00:00Z"), "timestamps stay strings")
    #expect(fm["description"] == .string("First line\nsecond line"))
    #expect(fm["version"] == .number(0))
    #expect(
      fm["labels"]
        == .list([
          .string("sprint:s1"), .string("area: ui"), .string("yes"), .string("2026-03-01"),
          .string("\u{1F680} launch"), .string("multi\nline"),
        ]))
    #expect(fm["depends_on"] == .list([.string("FEAT-ABC")]))
    #expect(fm["x_empty"] == .string(""))
    #expect(fm["x_null_word"] == .string("null"))
    #expect(fm["x_number"] == .number(7))
    #expect(fm["x_big"] == .number(1_000_000))
    #expect(fm["x_neg"] == .number(-0.5))
    #expect(fm["x_bool"] == .bool(true))
    #expect(fm["x_true_word"] == .string("true"))
    #expect(fm["x_tab"] == .string("a\tb"))
    #expect(fm["x_emoji"] == .string("ship it \u{1F680}"))
    #expect(fm["x_lead"] == .string(" leading"))
    #expect(fm["x_trail"] == .string("trailing "))
    #expect(fm["x_dash"] == .string("- item"))
    #expect(fm["x_hash"] == .string("#hashtag"))
    #expect(fm["x_quote"] == .string("it's 'quoted'"))
    #expect(fm["x_colon"] == .string("a:b"))
    #expect(fm["x_time"] == .string("12:30"))
    #expect(fm["x_dots"] == .string("...more"))
    #expect(fm["x_clip"] == .string("one\ntwo\n"))
    #expect(fm["x_keep"] == .string("one\n\n"))
    #expect(fm["x_indent"] == .string("  indented\nnext"))
    #expect(fm["x_trailing_space_lines"] == .string("a \nb"))
    #expect(fm["x_empty_list"] == .list([]))
    #expect(fm["x_unicode"] == .string("café — ü"))
    #expect(fm["x_octal"] == .string("0o17"))
    #expect(fm["x_float_word"] == .string("1e3"))
    #expect(fm.lines["assignee"] == 2)
    let body = String(decoding: fm.body, as: UTF8.self)
    #expect(body.hasPrefix(crlf ? "# Fix the login page\r\n" : "# Fix the login page\n"), "one blank line skipped")
    let lf = try Self.fixture("features/FEAT-QUO.md")
    let before = String(decoding: lf, as: UTF8.self).components(separatedBy: "# Fix the login page")[0]
    #expect(fm.bodyLine == before.filter { $0 == "\n" }.count + 1)
  }

  @Test(arguments: [false, true])
  func everyEscape(crlf: Bool) throws {
    var bytes = try Self.fixture("features/FEAT-ESC.md")
    if crlf { bytes = Self.crlf(bytes) }
    let fm = try FrontMatter.parse(bytes, file: "FEAT-ESC.md")
    #expect(
      fm["description"]
        == .string(
          "quote \" backslash \\ slash / nl \n tab \t cr \r nul \0 bell \u{07} bs \u{08} esc \u{1B} vt \u{0B} ff \u{0C} space   nel \u{85} nbsp \u{A0} ls \u{2028} ps \u{2029} hex A u é U \u{1F680}"
        ))
    #expect(fm["labels"] == .list([]))
    #expect(fm["status"] == .string("In_Review"))
  }

  @Test func whatThePythonEmitterWritesReadsBackAsItWas() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    let strings = [
      "plain", "", "null", "~", "true", "False", "yes", "off", "y", "7", "-0.5", "1e+06", "0x1F", "12:30",
      "2026-03-01", "2026-03-01T09:00:00Z", "2026-03-01 09:00:00", "a: b", "a #b", "#x", "- x", "-x", "? x", ":x",
      "[x]", "{x}", "&a", "*a", "!t", "|x", ">x", "'q'", "\"dq\"", "%p", "@a", "`b", " lead", "trail ", "---x", "...x",
      "it's", "tab\there", "bell\u{07}", "\u{1F680}", "é ü — 中文", "a\nb", "a\nb\n", "a\n\n", " a\nb", "a \nb",
      "a\n\tb", "x\u{FEFF}y", "\\back", "<<x", "a,b", "a]b",
      // Tabs in multi-line strings: yaml.v3 writes a literal block and the tabs as they are.
      "\tgo build\nx", "build:\n\tgo build ./...\n\tgo vet ./...", "a\n\t\nb", "a\t\nb\t", "x\n\n\t\n",
      "\t\n\t\n\n",
    ]
    var mapping: [String: Any] = [:]
    for (i, s) in strings.enumerated() { mapping[String(format: "k%02d", i)] = s }
    mapping["list"] = strings.filter { !$0.hasPrefix(" ") || !$0.contains("\n") }
    mapping["n1"] = 7
    mapping["n2"] = 1e6
    mapping["n3"] = -0.5
    mapping["b"] = true
    mapping["empty"] = [String]()
    let text = try writer.render(mapping)
    for crlf in [false, true] {
      var bytes = Array("---\n\(text)---\n\nbody\n".utf8)
      if crlf { bytes = Self.crlf(bytes) }
      let fm = try FrontMatter.parse(bytes, file: "rendered")
      for (i, s) in strings.enumerated() {
        #expect(fm[String(format: "k%02d", i)] == .string(s), "\(s.debugDescription) written as \(text)")
      }
      let list = strings.filter { !$0.hasPrefix(" ") || !$0.contains("\n") }
      #expect(fm["list"] == .list(list.map(FrontMatterValue.string)))
      #expect(fm["n1"] == .number(7) && fm["n2"] == .number(1e6) && fm["n3"] == .number(-0.5))
      #expect(fm["b"] == .bool(true) && fm["empty"] == .list([]))
    }
  }

  @Test func framing() throws {
    let none = try FrontMatter.parse(Array("# Just a body\n".utf8), file: "f.md")
    #expect(!none.isPresent && String(decoding: none.body, as: UTF8.self) == "# Just a body\n")
    let noBlank = try FrontMatter.parse(Array("---\nid: A\n---\nbody".utf8), file: "f.md")
    #expect(String(decoding: noBlank.body, as: UTF8.self) == "body")
    let onlyOneBlankSkipped = try FrontMatter.parse(Array("---\nid: A\n---\n\n\nbody".utf8), file: "f.md")
    #expect(String(decoding: onlyOneBlankSkipped.body, as: UTF8.self) == "\nbody")
    let merge = try FrontMatter.parse(Array("---\n!!merge <<: x\nid: A\n---\n".utf8), file: "f.md")
    #expect(merge["<<"] == .string("x") && merge["id"] == .string("A"))
    let comments = try FrontMatter.parse(Array("---\n# note\nid: A # trailing\n\nb: 'x' # c\n---\n".utf8), file: "f")
    #expect(comments["id"] == .string("A") && comments["b"] == .string("x"))
  }

  /// A write cut anywhere inside the front matter is a torn file (worth reading again).
  @Test func everyCutOfAFileIsTornOrComplete() throws {
    let bytes = try Self.fixture("features/FEAT-QUO.md")
    let closing = try #require(String(decoding: bytes, as: UTF8.self).range(of: "\n---\n")).upperBound
    let end = String(decoding: bytes, as: UTF8.self).utf8.distance(
      from: String(decoding: bytes, as: UTF8.self).startIndex, to: closing)
    for cut in 0..<(end - 1) {
      do {
        _ = try FrontMatter.parse(Array(bytes[0..<cut]), file: "cut")
        Issue.record("a cut at \(cut) parsed")
      } catch {
        #expect(error.mayBeTorn, "cut at \(cut): \(error)")
      }
    }
    #expect(try FrontMatter.parse(Array(bytes[0..<end]), file: "cut").keys.count > 10)
  }

  @Test(arguments: [
    ("---\nid: A\nnested:\n    key: v\n---\n", 4, "nested mapping"),
    ("---\nid: A\nflow: {a: 1}\n---\n", 3, "flow mappings"),
    ("---\nid: &anchor A\n---\n", 2, "anchors"),
    ("---\nid: *alias\n---\n", 2, "aliases"),
    ("---\nid: !!str A\n---\n", 2, "tags"),
    ("---\nid: [a, b]\n---\n", 2, "flow sequences"),
    ("---\nid: A\nid: B\n---\n", 3, "appears twice"),
    ("---\nid: \"open\n---\n", 2, "does not close"),
    ("---\nid: \"bad \\q\"\n---\n", 2, "unknown escape"),
    ("---\nid: a: b\n---\n", 2, "nested mapping"),
    ("---\nlabels:\n    - a\n    - b: c\n---\n", 4, "nested mapping"),
    ("---\nlabels:\n    - - a\n---\n", 3, "nested lists"),
    ("---\n  id: A\n---\n", 2, "indented"),
    ("---\njust words\n---\n", 2, "key: value"),
    ("---\nid: A\n\tb: c\n---\n", 3, "tab"),
    ("---\nid: 'x' y\n---\n", 2, "after a quoted"),
    ("---\n? complex\n---\n", 2, "complex keys"),
  ])
  func unsupportedYAMLIsAnErrorNamingItsLine(text: String, line: Int, says: String) {
    for crlf in [false, true] {
      var bytes = Array(text.utf8)
      if crlf { bytes = Self.crlf(bytes) }
      do {
        let fm = try FrontMatter.parse(bytes, file: "bad.md")
        Issue.record("parsed: \(fm.values)")
      } catch {
        #expect(error.file == "bad.md" && error.line == line, "\(error)")
        #expect(error.description.hasPrefix("bad.md:\(line): ") && error.description.contains(says), "\(error)")
        #expect(!error.mayBeTorn)
      }
    }
  }

  @Test func capsAreCheckedAndNamed() {
    var limits = FrontMatter.Limits()
    limits.maxBytes = 100
    limits.maxLines = 5
    limits.maxKeys = 3
    limits.maxStringBytes = 10
    limits.maxListItems = 2
    func problem(_ text: String) -> FrontMatterError.Problem? {
      do {
        _ = try FrontMatter.parse(Array(text.utf8), file: "f", limits: limits)
        return nil
      } catch { return error.problem }
    }
    #expect(problem("---\n" + String(repeating: "# comment line\n", count: 4) + "---\n") == nil)
    #expect(problem("---\n" + String(repeating: "#\n", count: 6) + "---\n") == .tooManyLines(limit: 5))
    #expect(
      problem("---\n" + String(repeating: "# a long comment line\n", count: 5) + "x: y\n---\n") == .tooLarge(limit: 100)
    )
    #expect(problem("---\na: 1\nb: 2\nc: 3\nd: 4\n---\n") == .tooManyKeys(limit: 3))
    #expect(problem("---\na: 12345678901\n---\n") == .stringTooLong(limit: 10))
    #expect(problem("---\na: \"12345678901\"\n---\n") == .stringTooLong(limit: 10))
    #expect(problem("---\na: |\n    123456\n    7890\n---\n") == .stringTooLong(limit: 10))
    #expect(problem("---\na:\n    - 1\n    - 2\n    - 3\n---\n") == .listTooLong(limit: 2))
    #expect(problem("") == .empty)
    #expect(problem("--") == .unterminated)
  }

  @Test func theExportsVerbatimLines() throws {
    let bytes = Array(
      try Data(
        contentsOf: Paths.fixtures.appendingPathComponent("markdown/export/.projects/web/features/FEAT-EXP.md")))
    #expect(throws: FrontMatterError.self) { try FrontMatter.parse(bytes, file: "FEAT-EXP.md") }
    let fm = try FrontMatter.parseVerbatim(bytes, file: "FEAT-EXP.md")
    #expect(fm["title"] == .string("Fix: login # twice"))
    #expect(fm["assignee"] == .string(""))
    #expect(fm["project_slug"] == .string("web"))
    #expect(fm.lines["estimate"] == 10)
  }
}

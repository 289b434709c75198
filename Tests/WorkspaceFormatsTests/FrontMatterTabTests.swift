import Foundation
import TestSupport
import Testing
import WorkspaceFormats

/// Tabs in block scalars: YAML indents with spaces only, but once a block's indentation is set
/// by its spaces, a tab after it is content (a Makefile recipe in a `description: |-`, as
/// yaml.v3 writes a multi-line string holding tabs). A tab that indents a key or a list entry is
/// still an error naming its file and line.
@Suite("Front matter: tabs inside block scalars")
struct FrontMatterTabTests {
  static let tree = Paths.fixtures.appendingPathComponent("markdown/tabs/.projects/orchestra-go")

  static func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: tree.appendingPathComponent(name)))
  }

  static func parse(_ text: String, crlf: Bool = false) throws(FrontMatterError) -> FrontMatter {
    var bytes = Array(text.utf8)
    if crlf { bytes = FrontMatterTests.crlf(bytes) }
    return try FrontMatter.parse(bytes, file: "tabs.md")
  }

  static let recipe =
    "Add the targets CI calls to the Makefile:\n\nbuild:\n\tgo build ./...\n\tgo vet ./...\n\ntest: build\n"
    + "\tgo test -race ./...\n\nRecipes are indented with a tab, as make requires."

  @Test(arguments: [false, true])
  func aMakefileRecipeInALiteralBlock(crlf: Bool) throws {
    var bytes = try Self.fixture("features/FEAT-MAK.md")
    if crlf { bytes = FrontMatterTests.crlf(bytes) }
    let fm = try FrontMatter.parse(bytes, file: "FEAT-MAK.md")
    #expect(fm["description"] == .string(Self.recipe))
    #expect(fm["estimate"] == .string("S"), "the key after the block")
    #expect(fm.lines["estimate"] == 15)
    #expect(fm["labels"] == .list([.string("build"), .string("sprint:s2")]))
    #expect(fm.keys == fm.keys.sorted())
    let body = String(decoding: fm.body, as: UTF8.self)
    #expect(
      body.hasPrefix(crlf ? "# Makefile targets for build and test\r\n" : "# Makefile targets for build and test\n"))
  }

  @Test(arguments: [false, true])
  func tabsWhereverYAMLv3PutsThem(crlf: Bool) throws {
    var bytes = try Self.fixture("features/FEAT-TAB.md")
    if crlf { bytes = FrontMatterTests.crlf(bytes) }
    let fm = try FrontMatter.parse(bytes, file: "FEAT-TAB.md")
    #expect(
      fm["description"] == .string("\tIndented with a tab from the first line\nmiddle\ttab\n\t\nends with a tab\t"))
    #expect(fm["labels"] == .list([.string("sprint:s2"), .string("go:\n\tfmt")]), "a block in a list item")
    #expect(fm["x_clip"] == .string("\tone\ntwo\n"))
    #expect(fm["x_keep"] == .string("\tkept\n\n"))
    #expect(fm["x_next"] == .string("after the blocks"))
    #expect(fm.lines["x_next"] == 26)
    #expect(fm["status"] == .string("todo"))
  }

  /// A write cut anywhere inside these front matters is a torn file, never a wrong value.
  @Test(arguments: ["features/FEAT-MAK.md", "features/FEAT-TAB.md"])
  func everyCutIsTornOrComplete(name: String) throws {
    let bytes = try Self.fixture(name)
    let whole = try FrontMatter.parse(bytes, file: name)
    let text = String(decoding: bytes, as: UTF8.self)
    let closing = try #require(text.range(of: "\n---\n")).upperBound
    let end = text.utf8.distance(from: text.startIndex, to: closing)
    for cut in 0..<(end - 1) {
      do {
        _ = try FrontMatter.parse(Array(bytes[0..<cut]), file: "cut")
        Issue.record("a cut at \(cut) parsed")
      } catch {
        #expect(error.mayBeTorn, "cut at \(cut): \(error)")
      }
    }
    #expect(try FrontMatter.parse(Array(bytes[0..<end]), file: "cut").values == whole.values)
  }

  /// The same front matter delivered one byte more at a time: each prefix is torn or the whole.
  @Test func growingByteByByte() throws {
    let bytes = try Self.fixture("features/FEAT-MAK.md")
    let whole = try FrontMatter.parse(bytes, file: "FEAT-MAK.md")
    var complete = 0
    for n in 1...bytes.count {
      do {
        let fm = try FrontMatter.parse(Array(bytes[0..<n]), file: "grow")
        #expect(fm.values == whole.values, "\(n) bytes")
        complete += 1
      } catch {
        #expect(error.mayBeTorn, "\(n) bytes: \(error)")
      }
    }
    #expect(complete > 0)
  }

  @Test(
    arguments: [
      // Literal blocks: a tab after the indentation is content, wherever it is.
      ("k: |-\n    \tgo build ./...\n    \tgo vet ./...\n", "\tgo build ./...\n\tgo vet ./..."),
      ("k: |\n    build:\n    \tgo build\n", "build:\n\tgo build\n"),
      ("k: |+\n    \ta\n\n", "\ta\n\n"),
      ("k: |4-\n     lead\n    \ttab\n", " lead\n\ttab"),
      ("k: |-4\n    \ttab\n", "\ttab"),
      ("k: |-\n    a\ttab\n    trailing\t\n", "a\ttab\ntrailing\t"),
      // A tab in the first content line, after the spaces that set the indentation.
      ("k: |-\n      \tsix spaces, then a tab\n      next\n", "\tsix spaces, then a tab\nnext"),
      ("k: |\n  \t\n    a\n", "\t\n  a\n"),
      // Blank lines: spaces only are empty; the indentation then a tab is a tab.
      ("k: |-\n    a\n    \t\n    b\n", "a\n\t\nb"),
      ("k: |-\n    a\n\n  \n    b\n", "a\n\n\nb"),
      ("k: |-\n    a\n    \t\t\n\n    b\n", "a\n\t\t\n\nb"),
      // Folded blocks: a tab-led line is more indented, so its line breaks stay.
      ("k: >\n    a\n    b\n", "a b\n"),
      ("k: >-\n    a\n    b\n\n    c\n", "a b\nc"),
      ("k: >\n    a\n    \tb\n    c\n", "a\n\tb\nc\n"),
      ("k: >\n    a\n\n    \tb\n\n    c\n", "a\n\n\tb\n\nc\n"),
      ("k: >-\n    \tgo build\n    \tgo vet\n", "\tgo build\n\tgo vet"),
      ("k: >+\n    a\n    b\n\n\n", "a b\n\n\n"),
      ("k: >\n\n    a\n    b\n", "\na b\n"),
      ("k: >\n    a\n     \n    b\n", "a\n \nb\n"),
      ("k: >2\n     a\n   b\n", "   a\n b\n"),
      // In a list item (6 spaces, as yaml.v3 writes it).
      ("k:\n    - |-\n      a\n      \tb\n    - c\n", nil),
    ] as [(String, String?)])
  func blockScalars(yaml: String, value: String?) throws {
    for crlf in [false, true] {
      let fm = try Self.parse("---\n" + yaml + "next: 1\n---\n", crlf: crlf)
      if let value {
        #expect(fm["k"] == .string(value), "\(yaml.debugDescription)")
      } else {
        #expect(fm["k"] == .list([.string("a\n\tb"), .string("c")]), "\(yaml.debugDescription)")
      }
      // The block ends where the next key is, and that key is read as itself.
      #expect(fm["next"] == .number(1), "\(yaml.debugDescription)")
      #expect(fm.lines["next"] == yaml.filter { $0 == "\n" }.count + 2)
      #expect(fm.keys == ["k", "next"])
    }
  }

  @Test func aBlockEndsAtTheNextKeyWhateverFollows() throws {
    let fm = try Self.parse(
      "---\na: |-\n    \tone\nb: >-\n    \ttwo\n    three\nc: 'x'\nd:\n    - \"y\"\ne: |\n    \tlast\n---\n")
    #expect(fm["a"] == .string("\tone"))
    #expect(fm["b"] == .string("\ttwo\nthree"))
    #expect(fm["c"] == .string("x") && fm["d"] == .list([.string("y")]))
    #expect(fm["e"] == .string("\tlast\n"))
    #expect(fm.lines == ["a": 2, "b": 4, "c": 7, "d": 8, "e": 10])
  }

  @Test(arguments: [
    // A tab that indents a key, before or after a block.
    ("---\nid: A\n\tb: c\n---\n", 3),
    ("---\nd: |-\n    \trecipe\n\tb: c\n---\n", 4),
    ("---\nd: >\n    \tfolded\n\tb: c\n---\n", 4),
    // A tab that indents a list entry.
    ("---\nlabels:\n\t- a\n---\n", 3),
    ("---\nlabels:\n    - a\n\t- b\n---\n", 4),
    // Inside a block, a tab within its indentation (fewer spaces than the block's, then a tab).
    ("---\nd: |-\n    a\n  \tb\n---\n", 4),
    ("---\nd: |-\n    a\n\t\n    b\n---\n", 4),
    ("---\nd: |-\n\tnot indented by spaces\n---\n", 3),
  ])
  func aTabThatIndentsIsStillAnError(text: String, line: Int) {
    for crlf in [false, true] {
      do {
        let fm = try Self.parse(text, crlf: crlf)
        Issue.record("parsed: \(fm.values)")
      } catch {
        #expect(error.file == "tabs.md" && error.line == line, "\(error)")
        #expect(error.description == "tabs.md:\(line): a tab in the indentation", "\(error)")
        #expect(!error.mayBeTorn)
      }
    }
  }

  /// Tabs, spaces and line breaks put anywhere in the fixtures: every result is a value or an
  /// error naming a line of the front matter, never a trap.
  @Test func whitespaceAnywhereIsAValueOrAnErrorWithItsLine() throws {
    var random = TestRandom(state: 20)
    for name in ["features/FEAT-MAK.md", "features/FEAT-TAB.md"] {
      let bytes = try Self.fixture(name)
      let lineCount = bytes.filter { $0 == 0x0A }.count
      for _ in 0..<2_000 {
        var mutated = bytes
        for _ in 0..<(1 + random.below(3)) {
          mutated.insert([0x09, 0x20, 0x0A][random.below(3)], at: random.below(mutated.count))
        }
        do {
          _ = try FrontMatter.parse(mutated, file: "m")
        } catch {
          #expect(error.line >= 1 && error.line <= lineCount + 4, "\(error)")
        }
      }
    }
  }

  @Test func aFoldedBlockIsCappedLikeALiteralOne() {
    var limits = FrontMatter.Limits()
    limits.maxStringBytes = 10
    #expect(throws: FrontMatterError(file: "f", line: 4, problem: .stringTooLong(limit: 10))) {
      try FrontMatter.parse(Array("---\na: >\n    \t12345\n    \t7890\n---\n".utf8), file: "f", limits: limits)
    }
  }
}

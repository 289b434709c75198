import Testing

@testable import Themes

/// `key = value` lines: the same reading whether a line is ASCII (read by bytes, every bundled
/// file) or not (read by Characters, where a space or `=` with a combining mark is neither).
@Suite("Token files")
struct TokenFileTests {
  @Test func asciiLinesAreTrimmedAndSplitAtTheFirstEquals() throws {
    let file = try TokenFile(
      parsing: "# a comment\n\t  # indented comment\n\n  a = b = c \t\nkey\t=\tvalue\n\t\nx=#1\n", file: "t")
    #expect(file.lines.map(\.key) == ["a", "key", "x"])
    #expect(file.lines.map(\.value) == ["b = c", "value", "#1"])
    #expect(file.lines.map(\.line) == [4, 5, 7])
  }

  @Test func nonASCIILinesAreReadByCharacters() throws {
    // U+0301 after a space makes one Character that is not blank; after `=`, one that is not `=`.
    let file = try TokenFile(parsing: "k\u{301} = é \u{301}\nname = a=\u{301}=b\n", file: "t")
    #expect(file.lines.map(\.key) == ["k\u{301}", "name"])
    #expect(file.lines.map(\.value) == ["é \u{301}", "a=\u{301}=b"])
    #expect(TokenFile.trimmed(" \u{301}x ") == " \u{301}x")
    let equals: Substring = "=\u{301}="
    #expect(TokenFile.firstEquals(equals).map { equals[$0...] } == "=")
  }

  @Test func blankAndCommentLinesAreSkippedWhateverTheirBytes() {
    let lines = TokenFile.contentLines("  \t\n# é\n#\u{301} not a comment\n é = 1")
    #expect(lines.map(\.0) == [3, 4])
    #expect(lines.map { String($0.1) } == ["#\u{301} not a comment", "é = 1"])
  }

  @Test func aLineWithoutEqualsIsRefused() {
    #expect(throws: ThemeLoadError.self) { try TokenFile(parsing: "just words\n", file: "t") }
    #expect(throws: ThemeLoadError.self) { try TokenFile(parsing: "k =\u{301} v\n", file: "t") }
  }
}

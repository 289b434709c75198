import Testing
import TextLines

/// Issue 9, item 14: CRLF files were read as one line, since "\r\n" is one Swift Character.
@Suite("Text lines")
struct TextLinesTests {
  @Test(arguments: [
    ("", [""]),
    ("a", ["a"]),
    ("a\n", ["a", ""]),
    ("a\r\n", ["a", ""]),
    ("a\r\nb\r\n", ["a", "b", ""]),
    ("a\nb\r\nc", ["a", "b", "c"]),
    ("a\r\n\r\nb", ["a", "", "b"]),
    ("\n\n", ["", "", ""]),
    ("a\r", ["a"]),
    ("a\rb\n", ["a\rb", ""]),
    ("a\r\r\nb", ["a\r", "b"]),
    ("théme = é\u{301}\r\nnext", ["théme = é\u{301}", "next"]),
    ("emoji 👩‍👩‍👧\r\n\u{301}x", ["emoji 👩‍👩‍👧", "\u{301}x"]),
  ])
  func splitsAtLFAndCRLF(_ text: String, _ lines: [String]) {
    #expect(TextLines.split(text).map(String.init) == lines)
  }

  /// The class: for any lines, joining them with LF or with CRLF splits back to the same lines.
  @Test func lfAndCRLFGiveTheSameLines() {
    let pieces = ["", "name = x", "  # comment", "é", "\u{301}", "tab\tend", "a\rb", "👍🏽"]
    var seed: UInt64 = 14
    for _ in 0..<2000 {
      var lines: [String] = []
      for _ in 0..<(Int(seed % 6) + 1) {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        lines.append(pieces[Int(seed >> 33) % pieces.count])
      }
      // A line may not end with CR: that CR would be taken as part of the CRLF.
      if lines.contains(where: { $0.hasSuffix("\r") }) { continue }
      let lf = lines.joined(separator: "\n")
      let crlf = lines.joined(separator: "\r\n")
      #expect(TextLines.split(lf).map(String.init) == lines, "\(lines)")
      #expect(TextLines.split(crlf).map(String.init) == lines, "\(lines)")
    }
  }
}

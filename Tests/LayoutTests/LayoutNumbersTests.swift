import Foundation
import Layout
import TestSupport
import Testing

/// Every number of a layout file, at any value, gives a layout that fits its grid or an error
/// naming the file and the line — never a trap (issue 9, item 3).
@Suite("Layout numbers")
struct LayoutNumbersTests {
  static func parse(_ text: String) throws(LayoutError) -> LayoutFile {
    try LayoutParser.parse(text, file: "t.layout", vocabulary: LayoutParserTests.vocabulary)
  }

  /// The reproduction: `c + w` overflowed and stopped `snapshot` (and a running board that
  /// reloaded the file).
  @Test func aColumnOfIntMaxIsAnErrorNamingTheLine() {
    let text = "name = x\ndescription = y\ngrid = 12 x 8\nheader 9223372036854775807 0 1 1\n"
    let error = #expect(throws: LayoutError.self) { try Self.parse(text) }
    #expect(error?.line == 4)
    #expect(error?.description.hasPrefix("t.layout:4: header: cells 9223372036854775807…") == true, "\(error!)")
  }

  static let integers = [
    "9223372036854775807", "-9223372036854775808", "9223372036854775806", "4611686018427387904",
    "-4611686018427387904", "99999999999999999999", "-1", "0", "1", "11", "12", "47", "48", "49", "+3", "-0",
  ]
  static let numbers = integers + ["1e308", "-1e308", "inf", "-inf", "nan", "0x10", "1.5", "400", "401", "86401"]

  /// A layout with every number replaced by `{n}` in turn.
  static let template: [String] = [
    "name = t", "description = every number", "grid = {0} x {1}", "gap = {2}", "margin = {3}", "page one",
    "duration = {4}", "header {5} {6} {7} {8}", "tallies {9} {10} {11} {12}", "page two", "progress 0 0 {13} {14}",
  ]
  static let defaults = ["12", "8", "16", "24", "30", "0", "0", "12", "1", "0", "1", "6", "7", "12", "8"]

  @Test(arguments: 0..<defaults.count)
  func everyNumberAtEveryValue(_ slot: Int) {
    for value in Self.numbers {
      var values = Self.defaults
      values[slot] = value
      var text = Self.template.joined(separator: "\n")
      for (i, v) in values.enumerated() { text = text.replacingOccurrences(of: "{\(i)}", with: v) }
      do {
        let layout = try Self.parse(text)
        for page in layout.pages.indices {
          for p in layout.pages[page].widgets {
            #expect(p.column >= 0 && p.width >= 1 && p.column + p.width <= layout.columns, "\(slot)=\(value)")
            #expect(p.row >= 0 && p.height >= 1 && p.row + p.height <= layout.rows, "\(slot)=\(value)")
          }
          for (_, r) in layout.frames(page: page, width: 800, height: 480) {
            #expect(r.minX.isFinite && r.maxY.isFinite && r.width >= 0, "\(slot)=\(value)")
          }
        }
        #expect(layout.gap.isFinite && layout.margin.isFinite)
      } catch {
        #expect(error.line != nil, "\(slot)=\(value): \(error)")
        #expect(error.description.hasPrefix("t.layout:"), "\(error)")
      }
    }
  }
}

/// Issue 9, item 14: a layout with CRLF line ends was one line ("\r\n" is one Character), so
/// `name` took the whole file as its value.
@Suite("Layout files with CRLF")
struct LayoutCRLFTests {
  @Test func aCRLFLayoutIsTheSameLayout() throws {
    let lf = try LayoutParserTests.parse(LayoutParserTests.minimal)
    let crlf = try LayoutParserTests.parse(LayoutParserTests.minimal.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(crlf == lf)
    let mixed = try LayoutParserTests.parse(
      "name = t\r\ndescription = a test\ngrid = 4 x 2\r\nheader 0 0 4 1\ntallies 0 1 2 1\r\n"
        + "burndown 2 1 2 1 mode=burnup\r\n")
    #expect(mixed == lf)
  }

  @Test func errorsInACRLFLayoutNameTheirLine() {
    let text = "name = t\r\ndescription = d\r\ngrid = 4 x 2\r\n\r\nclock 0 0 1 1\r\n"
    let error = #expect(throws: LayoutError.self) { try LayoutParserTests.parse(text) }
    #expect(
      error?.description
        == "t.layout:5: unknown widget \"clock\" (accepted: agents, aging, attention, burndown, connections, header, numbers, progress, recent, tallies)"
    )
  }

  @Test func everyBundledLayoutReadsTheSameWithCRLF() throws {
    let dir = Paths.repoRoot.appendingPathComponent("Layouts")
    for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) where file.hasSuffix(".layout") {
      let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
      let lf = try LayoutParser.parse(text, file: file, vocabulary: LayoutParserTests.vocabulary)
      let crlf = try LayoutParser.parse(
        text.replacingOccurrences(of: "\n", with: "\r\n"), file: file, vocabulary: LayoutParserTests.vocabulary)
      #expect(crlf == lf, "\(file)")
    }
  }
}

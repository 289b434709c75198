import Glyphs
import Testing

@Suite("Measuring text")
struct MeasureTests {
  @Test("width grows with the size", arguments: [Weight.regular, .bold])
  func monotonicInSize(weight: Weight) throws {
    let renderer = try Fixtures.renderer()
    var previous = 0.0
    for quarter in 24...400 {  // 6 px … 100 px in quarter pixels
      let size = Double(quarter) / 4
      let box = renderer.measure("Remaining 42 pts", size: size, weight: weight)
      #expect(box.width >= previous, "width at \(size) px is \(box.width), below \(previous)")
      #expect(box.height > 0 && box.ascender > box.descender)
      previous = box.width
    }
    #expect(previous > renderer.measure("Remaining 42 pts", size: 50, weight: weight).width * 1.9)
  }

  @Test("width grows with the text", arguments: [12.0, 31.5])
  func monotonicInLength(size: Double) throws {
    let renderer = try Fixtures.renderer()
    let text = "In progress: 7 features, 23 points, 3 blocked"
    var previous = 0.0
    for length in 1...text.count {
      let width = renderer.measure(String(text.prefix(length)), size: size).width
      #expect(width > previous, "\"\(text.prefix(length))\" is not wider than its prefix")
      previous = width
    }
    #expect(renderer.measure("", size: size).width == 0)
  }

  @Test func boldIsWider() throws {
    let renderer = try Fixtures.renderer()
    #expect(renderer.measure("Burndown", size: 30, weight: .bold).width > renderer.measure("Burndown", size: 30).width)
  }

  @Test func kerningPullsPairsTogether() throws {
    let renderer = try Fixtures.renderer()
    for pair in ["AV", "To", "Yo"] {
      let apart = pair.map { renderer.measure(String($0), size: 40).width }.reduce(0, +)
      #expect(renderer.measure(pair, size: 40).width < apart, "\(pair) is not kerned")
    }
  }

  @Test("tabular digits all take one advance", arguments: [Weight.regular, .bold], [9.0, 20, 47.75])
  func tabularDigits(weight: Weight, size: Double) throws {
    let renderer = try Fixtures.renderer()
    let cell = renderer.measure("0", size: size, weight: weight, tabular: true).width
    #expect(cell > 0)
    for digit in "0123456789" {
      let run = renderer.measure(String(repeating: digit, count: 4), size: size, weight: weight, tabular: true)
      #expect(run.width == 4 * cell, "\(digit)\(digit)\(digit)\(digit) is \(run.width), not \(4 * cell)")
    }
    #expect(
      renderer.measure("12 s ago", size: size, weight: weight, tabular: true).width
        == renderer.measure("13 s ago", size: size, weight: weight, tabular: true).width)
  }

  /// DejaVu's digits are equally wide, so a face with a narrowed "1" shows tabular doing work.
  @Test func tabularDigitsEvenOutAProportionalFace() throws {
    let face = try FontFace.load(bytes: try Fixtures.regularBytes(scalingAdvanceOf: "1", by: 0.5), name: "narrow 1")
    let renderer = TextRenderer(regular: face, bold: face)
    #expect(renderer.measure("1111", size: 40).width < renderer.measure("0000", size: 40).width)
    #expect(
      renderer.measure("1111", size: 40, tabular: true).width == renderer.measure("0000", size: 40, tabular: true).width
    )
    #expect(renderer.measure("1", size: 40, tabular: true).width == renderer.measure("0", size: 40).width)
  }

  @Test func missingCharactersTakeTheNotdefAdvance() throws {
    let renderer = try Fixtures.renderer()
    let face = renderer.face(.regular)
    for missing: Unicode.Scalar in ["\u{4E2D}", "\u{1F44D}", "\u{E000}"] {
      try #require(!face.hasGlyph(for: missing), "DejaVu Sans now has U+\(String(missing.value, radix: 16))")
      #expect(renderer.measure(String(missing), size: 20).width > 0)
      #expect(renderer.measure(String(missing), size: 20).width == renderer.measure("\u{4E2D}", size: 20).width)
    }
  }

  @Test func sizesRoundToQuarterPixels() throws {
    let renderer = try Fixtures.renderer()
    #expect(renderer.measure("Sprint 12", size: 20.26).width == renderer.measure("Sprint 12", size: 20.25).width)
    #expect(renderer.measure("Sprint 12", size: 20.26).ascender == renderer.measure("Sprint 12", size: 20.25).ascender)
    #expect(renderer.measure("Sprint 12", size: 0.2) == renderer.measure("Sprint 12", size: 1))
  }
}

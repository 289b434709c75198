import Glyphs
import Testing

/// `fit` never puts its ellipsis inside a number: a number is kept whole or dropped whole.
@Suite("Fitting keeps numbers whole")
struct FitNumberTests {
  static let texts = ["Done 193 · 1234 pt", "14 of 21 done · 1 rejected", "12.5 h · 67% · 15:00"]

  /// The numbers of `text`: runs of digits, with the `.`, `,` or `:` between two digits and a `%`
  /// after them.
  static func numbers(_ text: String) -> [String] { TextRenderer.numberRuns(in: text).map { String(text[$0]) } }

  @Test(arguments: texts)
  func noWidthCutsANumber(text: String) throws {
    let renderer = try Fixtures.renderer()
    let whole = Set(Self.numbers(text))
    let full = renderer.measure(text, size: 18).width
    for keep in [TextRenderer.Keep.start, .end] {
      for width in stride(from: 0.0, to: full, by: 1) {
        let fitted = renderer.fit(text, width: width, size: 18, keep: keep)
        #expect(renderer.measure(fitted, size: 18).width <= width)
        for n in Self.numbers(fitted) {
          #expect(whole.contains(n), "\"\(fitted)\" (\(keep), \(width) px) cuts a number of \"\(text)\"")
        }
      }
    }
  }

  @Test func theCutFallsBeforeTheNumber() throws {
    let renderer = try Fixtures.renderer()
    let width = renderer.measure("Done 193 · 12…", size: 18).width
    #expect(renderer.fit("Done 193 · 1234 pt", width: width, size: 18) == "Done 193 ·…")
  }

  @Test func numberRunsAreFound() {
    #expect(Self.numbers("Done 193 · 1,234.5 pt at 15:00, 67%.") == ["193", "1,234.5", "15:00", "67%"])
    #expect(Self.numbers("FEAT-AAU → in-docs") == [])
  }
}

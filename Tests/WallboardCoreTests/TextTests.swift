import Testing
import WallboardCore

/// What the board writes numbers and trims text with, without Foundation.
@Suite struct TextTests {
  @Test(arguments: [
    (1.5, 2, "1.50"), (2.25, 1, "2.3"), (-2.25, 1, "-2.3"), (0.04, 1, "0.0"), (-0.04, 1, "0.0"),
    (12.5, 0, "13"), (1234.5678, 3, "1234.568"), (0.001, 6, "0.001000"), (7, 9, "7.000000"),
    (Double.nan, 1, "nan"), (-Double.infinity, 1, "-inf"),
  ])
  func fixedDecimalsRoundHalfAwayFromZero(_ x: Double, _ digits: Int, _ text: String) {
    #expect(String(fixed: x, digits: digits) == text)
  }

  @Test func trimmingDropsOnlyTheEnds() {
    #expect(" \t a b \n".trimmed() == "a b")
    #expect("   ".trimmed().isEmpty)
    #expect("==x= y==".trimmed { $0 == "=" } == "x= y")
    #expect("".trimmed().isEmpty)
  }
}

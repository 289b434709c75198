import TestSupport
import Testing
import WallboardCore

/// Every number that becomes points is capped before it is used (issue 9, items 1 and 2).
@Suite("Points are capped at the cause")
struct PointsCapTests {
  /// Estimates that are not plain decimals within the cap leave a feature unestimated: before,
  /// `Double(_:)` read `1e308` as 1e308 points, `0x10` as 16 and `1e400` as infinity.
  @Test(arguments: [
    "1e308", "1E3", "0x10", "0X1p3", "inf", "-inf", "nan", "infinity", "-1", "+3", ".5", "5.", "1.2.3", "1 000",
    "1_000", "1000000.5", "1000001", "1" + String(repeating: "0", count: 400), "\u{0663}", "５", "",
  ])
  func anEstimateThatIsNoPlainDecimalWithinTheCapIsNoNumber(_ text: String) {
    #expect(EstimateScale.standard.points(points: nil, estimate: text) == nil, "\(text)")
    #expect(EstimateScale.decimalPoints(text) == nil, "\(text)")
  }

  @Test func plainDecimalsWithinTheCapAreAccepted() {
    let s = EstimateScale.standard
    #expect(s.points(points: nil, estimate: "0") == 0)
    #expect(s.points(points: nil, estimate: "3") == 3)
    #expect(s.points(points: nil, estimate: "2.5") == 2.5)
    #expect(s.points(points: nil, estimate: "0.25") == 0.25)
    #expect(s.points(points: nil, estimate: " 8 ") == 8)
    #expect(s.points(points: nil, estimate: "007") == 7)
    #expect(s.points(points: nil, estimate: "1000000") == 1_000_000)
    #expect(s.points(points: nil, estimate: "1000000.0") == 1_000_000)
  }

  /// `points` from anywhere (the decoder checks it too) counts only within 0…1,000,000.
  @Test(arguments: [Double.infinity, -.infinity, .nan, -1, -0.5, 1_000_000.5, 1e308, .greatestFiniteMagnitude])
  func pointsOutsideTheRangeCountAsNone(_ p: Double) {
    #expect(EstimateScale.standard.points(points: p, estimate: "S") == nil)
  }

  /// The class: whatever the text, what comes out is nil or a number of points in range.
  @Test func everyEstimateBecomesNothingOrPointsInRange() {
    var random = TestRandom(state: 9)
    let alphabet = Array("0123456789.eExXpP+-_ infaINFA٣５\u{0}")
    for _ in 0..<20_000 {
      let length = random.below(24)
      let text = String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
      if let p = EstimateScale.standard.points(points: nil, estimate: text) {
        #expect(Feature.pointsRange.contains(p), "\(text) → \(p)")
      }
    }
  }

  /// Item 2: `s=1,S=2` named one size twice once upper-cased, and building the dictionary
  /// stopped the program (“Duplicate values for key”). Now it is an error that says so.
  @Test func sizesThatAreTheSameSizeAreAnErrorNotATrap() {
    #expect(throws: EstimateScale.Error.duplicateSize(first: "s", second: "S")) {
      try EstimateScale(sizes: ["s": 1, "S": 2])
    }
    #expect(throws: EstimateScale.Error.duplicateSize(first: "XL", second: "XL")) {
      try EstimateScale(sizes: ["XL": 1, "M": 2, "XL": 3])
    }
    #expect(throws: EstimateScale.Error.pointsOutOfRange(size: "S", .infinity)) {
      try EstimateScale(sizes: ["S": .infinity])
    }
    #expect(throws: (any Error).self) { try EstimateScale(sizes: ["S": -1]) }
    #expect(throws: (any Error).self) { try EstimateScale(sizes: ["S": .nan]) }
    let ok = try? EstimateScale(sizes: ["s": 1, "m": 2])
    #expect(ok?.points(points: nil, estimate: "S") == 1)
    #expect(ok?.points(points: nil, estimate: "m") == 2)
  }
}

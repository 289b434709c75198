import Testing
import WallboardCore
import Wire

/// Every number a decoder reads is capped before anything uses it (issue 9, items 1 and 16).
@Suite("Event decoder: numeric inputs")
struct NumericInputTests {
  /// Item 1: a numeric estimate went through as its own text and became 1.8e308 points; two of
  /// them summed to infinity, which `inspect` could not write.
  @Test func aNumericEstimateIsHeldToThePointsCap() throws {
    for payload in [
      #"{"id":"A","estimate":1.7976931348623157e308}"#, #"{"id":"A","estimate":1000001}"#,
      #"{"id":"A","estimate":"2000000"}"#, #"{"id":"A","estimate":" 1000000.5 "}"#,
      #"{"id":"A","estimate":"1\#(String(repeating: "0", count: 400))"}"#,
    ] {
      let error = try #require(throws: EventDecodingError.self) { try body("feature.created", payload) }
      #expect(error.path == "payload.estimate", "\(payload)")
      #expect(error.problem.contains("greater than 1000000"), "\(error)")
      #expect(throws: EventDecodingError.self) { try body("feature.updated", payload) }
    }
    #expect(throws: EventDecodingError.self) { try body("feature.created", #"{"id":"A","estimate":-1}"#) }
  }

  /// Strings that are not plain decimals are sizes; the scale does not know them, so the
  /// feature is unestimated, never 1e308 or 16 points.
  @Test(arguments: ["1e308", "0x10", "inf", "nan", "-3"])
  func anEstimateThatIsNoPlainDecimalIsASize(_ text: String) throws {
    guard case .featureCreated(let f) = try body("feature.created", #"{"id":"A","estimate":"\#(text)"}"#) else {
      Issue.record("not a feature")
      return
    }
    #expect(f.estimate == text)
    #expect(EstimateScale.standard.points(points: f.points, estimate: f.estimate) == nil)
  }

  /// A JSON number estimate is written as a plain decimal, so that the scale reads it back.
  @Test(arguments: [(0.0, "0"), (3, "3"), (2.5, "2.5"), (1e-7, "0.0000001"), (1.5e-7, "0.00000015"), (1e6, "1000000")])
  func aNumberEstimateBecomesAPlainDecimal(_ value: Double, _ text: String) throws {
    let json = JSONValue.number(value).serialized()
    guard case .featureCreated(let f) = try body("feature.created", #"{"id":"A","estimate":\#(json)}"#) else {
      Issue.record("not a feature")
      return
    }
    #expect(f.estimate == text)
    #expect(EstimateScale.standard.points(points: nil, estimate: f.estimate) == value)
  }

  static let extremes = [
    "1e308", "-1e308", "1.7976931348623157e308", "9007199254740993", "9007199254740992", "18446744073709551616",
    "-0", "5e-324", "1e-400", "0.5", "1000000", "1000000.0000001", "123456789012345678901234567890",
  ]

  /// The class: every numeric key of every topic, at extreme values, is rejected or decodes to
  /// a value within its range.
  @Test(arguments: extremes)
  func everyNumericKeyIsCapped(_ number: String) throws {
    let cases: [(String, String)] = [
      ("feature.created", #"{"id":"A","points":\#(number)}"#),
      ("feature.created", #"{"id":"A","estimate":\#(number)}"#),
      ("feature.created", #"{"id":"A","estimate":"\#(number)"}"#),
      ("feature.updated", #"{"id":"A","points":\#(number)}"#),
      ("feature.updated", #"{"id":"A","estimate":\#(number)}"#),
      ("board.snapshot", #"{"features":[{"id":"A","points":\#(number),"estimate":\#(number)}],"sprints":[]}"#),
      ("board.snapshot", #"{"features":[],"sprints":[],"seq":\#(number)}"#),
    ]
    for (topic, payload) in cases {
      guard let b = try? body(topic, payload) else { continue }
      switch b {
      case .featureCreated(let f):
        expectInRange(EstimateScale.standard.points(points: f.points, estimate: f.estimate), payload)
        if let p = f.points { #expect(Feature.pointsRange.contains(p), "\(payload)") }
      case .featureUpdated(let patch):
        if case .some(.some(let p)) = patch.points { #expect(Feature.pointsRange.contains(p), "\(payload)") }
        if case .some(.some(let e)) = patch.estimate {
          expectInRange(EstimateScale.standard.points(points: nil, estimate: e), payload)
        }
      case .boardSnapshot(let s):
        for f in s.features {
          expectInRange(EstimateScale.standard.points(points: f.points, estimate: f.estimate), payload)
        }
        if let seq = s.seq { #expect(seq >= 0 && seq < 1 << 53, "\(payload)") }
      default: Issue.record("\(topic) decoded as \(b)")
      }
    }
    if let e = try? decode(#"{"topic":"heartbeat","seq":\#(number),"payload":{}}"#), let seq = e.seq {
      #expect(seq >= 0 && seq < 1 << 53, "seq \(number) → \(seq)")
    }
  }

  func expectInRange(_ p: Double?, _ payload: String) {
    if let p { #expect(Feature.pointsRange.contains(p), "\(payload) → \(p)") }
  }

  /// `JSONValue.number` never holds infinity when parsed, but a number computed from values
  /// (a sum) might: the writer says `null` instead of stopping the program.
  @Test func numbersJSONCannotSpellAreWrittenNull() {
    #expect(JSONValue.number(.infinity).serialized() == "null")
    #expect(JSONValue.number(-.infinity).serialized() == "null")
    #expect(JSONValue.number(.nan).serialized() == "null")
    #expect(JSONValue.array([.number(.infinity), 1]).serialized(pretty: true) == "[\n  null,\n  1\n]")
  }
}

/// Issue 9, item 16, in events: a leap second or a moment past 9999 once its offset is applied
/// rejects the event and says why.
@Suite("Event decoder: moments at the edges")
struct MomentEdgeTests {
  @Test func aLeapSecondIsRejectedSayingSo() throws {
    let error = try #require(throws: EventDecodingError.self) {
      try decode(#"{"topic":"heartbeat","time":"2016-12-31T23:59:60Z","payload":{}}"#)
    }
    #expect(
      error.description == #"time: "2016-12-31T23:59:60Z" is a leap second (second 60), which the board does not count"#
    )
  }

  @Test func aMomentInTheYear10000IsRejected() throws {
    let error = try #require(throws: EventDecodingError.self) {
      try body("workflow.transitioned", #"{"feature_id":"A","to":"done","at":"9999-12-31T23:59:59-01:00"}"#)
    }
    #expect(error.path == "payload.at")
    #expect(error.problem.contains("out of range"))
  }
}

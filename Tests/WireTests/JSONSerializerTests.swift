import Testing
import Wire

@Suite("JSON serializer")
struct JSONSerializerTests {
  static let samples: [JSONValue] = [
    .null, true, false, 0, -3, 10, 2.5, 1e-7, 1e300, -0.5, 9_007_199_254_740_991,
    9_007_199_254_740_992, 0.1, "", "plain", "quote \" backslash \\ slash /",
    "controls \u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f}\u{7f}", "unicode é € 😀 \u{2028}",
    [], [:], [1, [2, [3, []]], ["k": nil]],
    ["b": 1, "a": ["x": "y", "x": "z"], "": [true, false, nil]],
  ]

  @Test("parse(serialize(x)) == x, compact and pretty", arguments: samples)
  func roundTrips(value: JSONValue) throws {
    #expect(try JSONParser.parse(value.serialized()) == value)
    #expect(try JSONParser.parse(value.serialized(pretty: true)) == value)
  }

  @Test(
    "numbers",
    arguments: [
      (10.0, "10"), (-3.0, "-3"), (0.0, "0"), (2.5, "2.5"), (1e-7, "1e-07"),
      (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992.0"),
      (1e300, "1e+300"), (-0.125, "-0.125"),
    ])
  func numbers(value: Double, text: String) {
    #expect(JSONValue.number(value).serialized() == text)
  }

  @Test func escapes() {
    #expect(JSONValue.string("a\"b\\c\n\u{1}\u{1f}é").serialized() == #""a\"b\\c\n\u0001\u001fé""#)
  }

  @Test func compactKeepsOrder() {
    let v: JSONValue = ["z": 1, "a": [1, "two", nil], "m": [:]]
    #expect(v.serialized() == #"{"z":1,"a":[1,"two",null],"m":{}}"#)
  }

  @Test func prettySample() {
    let v: JSONValue = [
      "id": "FEAT-1", "points": 3, "labels": ["ui", "sprint:s1"], "empty": [], "none": [:],
      "nested": ["ok": true, "ratio": 0.5],
    ]
    let expected = """
      {
        "id": "FEAT-1",
        "points": 3,
        "labels": [
          "ui",
          "sprint:s1"
        ],
        "empty": [],
        "none": {},
        "nested": {
          "ok": true,
          "ratio": 0.5
        }
      }
      """
    #expect(v.serialized(pretty: true) == expected)
  }
}

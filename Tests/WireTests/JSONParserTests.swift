import Testing
import Wire

@Suite("JSON parser")
struct JSONParserTests {
  static let valid: [(String, JSONValue)] = [
    ("null", .null),
    ("true", .bool(true)),
    (" false ", .bool(false)),
    ("0", .number(0)),
    ("-0", .number(0)),
    ("42", .number(42)),
    ("-17", .number(-17)),
    ("2.5", .number(2.5)),
    ("1e3", .number(1000)),
    ("1E-2", .number(0.01)),
    ("-1.25e+2", .number(-125)),
    ("0.1", .number(0.1)),
    ("123456789012345678901234567890", .number(123456789012345678901234567890.0)),
    ("1e-400", .number(0)),
    ("9007199254740993", .number(9007199254740992)),
    ("\"\"", .string("")),
    ("\"abc\"", .string("abc")),
    ("\"caf\u{e9}\"", .string("café")),
    ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", .string("\"\\/\u{8}\u{c}\n\r\t")),
    ("\"\\u0041\\u00e9\\u20AC\"", .string("Aé€")),
    ("\"\\uD83D\\uDE00\"", .string("😀")),
    ("\"😀\"", .string("😀")),
    ("\"\\u0000\"", .string("\u{0}")),
    ("[]", .array([])),
    ("[ 1 , [ ] , { } ]", .array([1, [], [:]])),
    ("{}", .object(JSONObject())),
    ("{\"a\":1,\"b\":[true,null]}", ["a": 1, "b": [true, nil]]),
    ("\t\r\n{ \"k\" : \"v\" }\n", ["k": "v"]),
  ]

  @Test("accepts valid documents", arguments: valid)
  func acceptsValid(text: String, expected: JSONValue) throws {
    #expect(try JSONParser.parse(text) == expected)
    #expect(try JSONParser.parse(Array(text.utf8)) == expected)
  }

  static let invalid: [(String, Int, String)] = [
    ("", 0, "unexpected end of input, expected a value"),
    ("   ", 3, "unexpected end of input, expected a value"),
    ("nul", 0, "expected a value (did you mean 'null'?)"),
    ("True", 0, "expected a value, found 'T'"),
    ("NaN", 0, "expected a value, found 'N'"),
    ("Infinity", 0, "expected a value, found 'I'"),
    ("-Infinity", 1, "expected a digit in number"),
    ("01", 0, "number with a leading zero"),
    ("1.", 2, "expected a digit after '.' in number"),
    (".5", 0, "expected a value, found '.'"),
    ("+1", 0, "expected a value, found '+'"),
    ("1e", 2, "expected a digit in exponent"),
    ("1e400", 0, "number out of range"),
    ("-1e400", 0, "number out of range"),
    ("[1,]", 3, "trailing comma in array"),
    ("{\"a\":1,}", 7, "trailing comma in object"),
    ("[1 2]", 3, "expected ',' or ']' in array"),
    ("{\"a\":1 \"b\":2}", 7, "expected ',' or '}' in object"),
    ("{\"a\" 1}", 5, "expected ':' after object key"),
    ("{a:1}", 1, "expected a string key in object"),
    ("[1", 2, "unexpected end of input in array"),
    ("{\"a\":1", 6, "unexpected end of input in object"),
    ("\"abc", 0, "unterminated string"),
    ("\"a\nb\"", 2, "control character in string (escape it as \\u00XX)"),
    ("\"\\x\"", 1, "invalid escape '\\x' in string"),
    ("\"\\u12G4\"", 1, "invalid \\u escape in string"),
    ("\"\\uD800\"", 1, "lone surrogate \\uD800 in string"),
    ("\"\\uD800\\u0041\"", 1, "lone surrogate \\uD800 in string"),
    ("\"\\uDC00\"", 1, "lone surrogate \\uDC00 in string"),
    ("1 2", 2, "unexpected '2' after the value"),
    ("{} x", 3, "unexpected 'x' after the value"),
    ("// c\n1", 0, "expected a value, found '/'"),
    ("[1] /* c */", 4, "unexpected '/' after the value"),
  ]

  @Test("rejects invalid documents with an offset and a reason", arguments: invalid)
  func rejectsInvalid(text: String, offset: Int, problem: String) {
    #expect(throws: JSONError(offset: offset, problem: problem)) {
      try JSONParser.parse(text)
    }
  }

  static let badUTF8: [[UInt8]] = [
    [0x22, 0xC3, 0x22],  // truncated 2-byte sequence
    [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
    [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
    [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
    [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF
    [0x22, 0xFF, 0x22],
    [0x22, 0x80, 0x22],  // lone continuation byte
    [0x22, 0x5C, 0x6E, 0xE2, 0x82, 0x22],  // after an escape, truncated
  ]

  @Test("rejects invalid UTF-8 in strings", arguments: badUTF8)
  func rejectsBadUTF8(bytes: [UInt8]) throws {
    let error = try #require(throws: JSONError.self) { try JSONParser.parse(bytes) }
    #expect(error.problem == "invalid UTF-8 in string")
  }

  @Test func errorDescriptionNamesTheByte() {
    #expect(
      JSONError(offset: 17, problem: "expected ',' or '}' in object").description
        == "at byte 17: expected ',' or '}' in object")
  }

  @Test func keepsKeyOrderAndLastDuplicateWins() throws {
    let v = try JSONParser.parse(#"{"b":1,"a":2,"b":3}"#)
    guard case .object(let o) = v else {
      Issue.record("not an object: \(v)")
      return
    }
    #expect(o.keys == ["b", "a", "b"])
    #expect(o["b"] == .number(3))
    #expect(o["a"] == .number(2))
    #expect(o["c"] == nil)
    #expect(o.map(\.key) == ["b", "a", "b"])
  }

  // MARK: Caps

  @Test func depthCap() throws {
    let limits = JSONLimits(maxDepth: 4)
    #expect(try JSONParser.parse("[[[[1]]]]", limits: limits) == [[[[1]]]])
    #expect(throws: JSONError(offset: 4, problem: "nesting deeper than 4")) {
      try JSONParser.parse("[[[[[1]]]]]", limits: limits)
    }
    #expect(throws: JSONError(offset: 18, problem: "nesting deeper than 4")) {
      try JSONParser.parse(#"{"a":{"b":{"c":[1,{"d":1}]}}}"#, limits: limits)
    }
    // The default depth of 64 stops a deeply nested document without exhausting the stack.
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: JSONError(offset: 64, problem: "nesting deeper than 64")) {
      try JSONParser.parse(deep)
    }
  }

  @Test func stringCap() throws {
    let limits = JSONLimits(maxStringBytes: 4)
    #expect(try JSONParser.parse(#"["abcd","\u00e9\u00e9"]"#, limits: limits) == ["abcd", "éé"])
    #expect(throws: JSONError(offset: 1, problem: "string longer than 4 bytes")) {
      try JSONParser.parse(#"["abcde"]"#, limits: limits)
    }
    #expect(throws: JSONError(offset: 0, problem: "string longer than 4 bytes")) {
      try JSONParser.parse(#""ab\ncd""#, limits: limits)
    }
    #expect(throws: JSONError(offset: 1, problem: "string longer than 4 bytes")) {
      try JSONParser.parse(#"{"éééé":1}"#, limits: limits)
    }
  }

  @Test func containerCap() throws {
    let limits = JSONLimits(maxContainerElements: 3)
    #expect(try JSONParser.parse("[1,2,3]", limits: limits) == [1, 2, 3])
    #expect(throws: JSONError(offset: 7, problem: "array with more than 3 elements")) {
      try JSONParser.parse("[1,2,3,4]", limits: limits)
    }
    #expect(throws: JSONError(offset: 19, problem: "object with more than 3 members")) {
      try JSONParser.parse(#"{"a":1,"b":2,"c":3,"a":4,"e":5}"#, limits: limits)
    }
  }

  @Test func numberCap() throws {
    let limits = JSONLimits(maxNumberBytes: 5)
    #expect(try JSONParser.parse("[-1.25]", limits: limits) == [-1.25])
    #expect(throws: JSONError(offset: 1, problem: "number longer than 5 bytes")) {
      try JSONParser.parse("[-1.255]", limits: limits)
    }
    let long = String(repeating: "1", count: 65)
    #expect(throws: JSONError(offset: 0, problem: "number longer than 64 bytes")) {
      try JSONParser.parse(long)
    }
  }

  @Test(
    "parses numbers exactly as the standard library does",
    arguments: [
      "0.1", "0.2", "0.3", "1.7976931348623157e308", "2.2250738585072014e-308", "5e-324",
      "3.141592653589793", "123.456e-7", "9007199254740991", "18446744073709551616",
      "0.000001", "1e22", "1e23", "4.35", "-0.0000123456789012345678",
    ])
  func numbersMatchStandardLibrary(text: String) throws {
    #expect(try JSONParser.parse(text) == .number(Double(text)!))
  }
}

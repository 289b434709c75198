import TestSupport
import Testing
import WallboardCore
import Wire

/// Random JSON trees with nested objects and lists, nulls, unicode and awkward numbers.
struct TreeMaker {
  var random: TestRandom
  static let strings = ["", "a", "FEAT-1", "héllo", "日本語", "🎉 emoji", "quote \" and \\", "tab\tnew\nline", "\u{0}"]
  static let numbers: [Double] = [
    0, -0.0, 1, -1, 0.5, -2.5, 1e300, -1e300, 9_007_199_254_740_992, .leastNonzeroMagnitude,
    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 123_456_789.125,
  ]

  mutating func value(depth: Int) -> JSONValue {
    switch random.below(depth >= 6 ? 4 : 6) {
    case 0: return .null
    case 1: return .bool(random.below(2) == 0)
    case 2: return .number(Self.numbers[random.below(Self.numbers.count)])
    case 3: return .string(Self.strings[random.below(Self.strings.count)])
    case 4: return .object(object(depth: depth + 1))
    default: return .array((0..<random.below(5)).map { _ in value(depth: depth + 1) })
    }
  }

  mutating func object(depth: Int) -> JSONObject {
    JSONObject(
      (0..<random.below(6)).map { i in (Self.strings[random.below(Self.strings.count)] + "\(i)", value(depth: depth)) })
  }
}

/// `true` when `a` and `b` are equal down to the sign of every zero.
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
  case (.object(let x), .object(let y)):
    return x.count == y.count
      && zip(x.members, y.members).allSatisfy { $0.key == $1.key && identical($0.value, $1.value) }
  default: return a == b
  }
}

/// A Struct nested `levels` deep (`{"a": {"a": … {}}}`), written outside-in without recursion.
func nestedStructBytes(levels: Int, list: Bool = false) -> [UInt8] {
  func varintSize(_ n: Int) -> Int { n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x20_0000 ? 3 : 4 }
  // Inside-out, the length of each level's Struct contents: an entry holding the next level.
  var contents = [0]
  for _ in 1..<levels {
    let inner = contents.last!
    let value = 1 + varintSize(inner) + inner  // Value { 5 or 6: inner }
    let entry = list ? value : 3 + 1 + varintSize(value) + value  // Entry { key "a", value }
    contents.append(1 + varintSize(entry) + entry)  // Struct or ListValue { 1: entry }
  }
  var w = ProtoWriter(capacity: contents.last! + 16)
  for level in stride(from: levels - 1, to: 0, by: -1) {
    let inner = contents[level - 1]
    let value = 1 + varintSize(inner) + inner
    if list {
      w.tag(1, .lengthDelimited)
      w.varint(UInt64(value))
    } else {
      let entry = 3 + 1 + varintSize(value) + value
      w.tag(1, .lengthDelimited)
      w.varint(UInt64(entry))
      w.string(1, "a")
      w.tag(2, .lengthDelimited)
      w.varint(UInt64(value))
    }
    w.tag(list ? 6 : 5, .lengthDelimited)
    w.varint(UInt64(inner))
  }
  precondition(w.bytes.count == contents.last!, "nested bytes miscounted")
  return w.bytes
}

@Suite("Protobuf Struct, Value, ListValue and Timestamp")
struct ProtoStructTests {
  @Test("random JSON trees survive Struct and back", arguments: 0..<40)
  func randomTrees(seed: UInt64) throws {
    var maker = TreeMaker(random: TestRandom(state: seed))
    let tree = maker.object(depth: 1)
    let back = try JSONObject.decode(tree.encode())
    #expect(identical(.object(back), .object(tree)))
    let wrapped = ToolResponse(success: true, result: tree)
    #expect(try roundTrip(wrapped) == wrapped)
  }

  @Test func duplicateKeysKeepTheLastOnLookup() throws {
    let o = try JSONObject.decode(JSONObject([("k", 1), ("k", 2)]).encode())
    #expect(o["k"] == 2)
  }

  @Test func nestingUpToTheCapIsAccepted() throws {
    var v = try JSONValue.object(JSONObject.decode(nestedStructBytes(levels: 64)))
    var levels = 1
    while case .object(let o) = v, let inner = o["a"] {
      v = inner
      levels += 1
    }
    #expect(levels == 64)
  }

  @Test("a Struct or ListValue nested past the cap is rejected", arguments: [65, 66, 10_000])
  func depthBomb(levels: Int) {
    for list in [false, true] {
      let bytes = nestedStructBytes(levels: levels, list: list)
      do {
        _ = list ? try JSONValue.decode([0x32] + varint(bytes.count) + bytes) : .object(try JSONObject.decode(bytes))
        Issue.record("\(levels) levels were accepted")
      } catch {
        #expect(error.problem == .tooDeep(type: list ? "ListValue" : "Struct", limit: 64))
        #expect(error.description.hasSuffix(list ? "ListValue nested deeper than 64" : "Struct nested deeper than 64"))
        #expect(error.message == "Value")
      }
    }
  }

  @Test func theDepthCapIsConfigurable() {
    #expect(throws: ProtoError.self) {
      try JSONObject.decode(nestedStructBytes(levels: 3), limits: ProtoLimits(maxDepth: 2))
    }
    #expect(throws: Never.self) {
      try JSONObject.decode(nestedStructBytes(levels: 2), limits: ProtoLimits(maxDepth: 2))
    }
  }

  @Test("non-finite numbers are rejected", arguments: [Double.nan, .infinity, -.infinity])
  func nonFinite(x: Double) {
    var w = ProtoWriter()
    w.double(2, x)
    #expect(throws: ProtoError.self) { try JSONValue.decode(w.bytes) }
  }

  @Test func listsAreCapped() throws {
    let bytes = JSONValue.array([1, 2, 3]).encode()
    #expect(throws: ProtoError.self) { try JSONValue.decode(bytes, limits: ProtoLimits(maxEntries: 2)) }
    #expect(try JSONValue.decode(bytes, limits: ProtoLimits(maxEntries: 3)) == [1, 2, 3])
  }

  @Test(
    "timestamps round trip at the edges of Instant's range",
    arguments: [0, 1, 999, 1_800_000_000_123, 253_402_300_799_999])
  func timestamps(millis: Int64) throws {
    #expect(try roundTrip(Instant(millis: millis)) == Instant(millis: millis))
  }

  @Test func timestampsKeepWholeMillisecondsAndAreValidated() throws {
    var w = ProtoWriter()
    w.int64(1, 2)
    w.int32(2, 999_999_999)
    #expect(try Instant.decode(w.bytes) == Instant(millis: 2_999))
    var badNanos = ProtoWriter()
    badNanos.int32(2, 1_000_000_000)
    #expect(
      throws: ProtoError(
        .nanosOutOfRange(1_000_000_000), message: "Timestamp", field: "nanos", fieldNumber: 2, offset: 0)
    ) {
      try Instant.decode(badNanos.bytes)
    }
    var negativeNanos = ProtoWriter()
    negativeNanos.int32(2, -1)
    #expect(throws: ProtoError.self) { try Instant.decode(negativeNanos.bytes) }
    for seconds: Int64 in [-1, 253_402_300_800, .max] {
      var late = ProtoWriter()
      late.int64(1, seconds)
      #expect(throws: ProtoError(.timestampOutOfRange(seconds: seconds), message: "Timestamp", offset: 0)) {
        try Instant.decode(late.bytes)
      }
    }
  }
}

/// A varint's bytes.
func varint(_ n: Int) -> [UInt8] {
  var w = ProtoWriter()
  w.varint(UInt64(n))
  return w.bytes
}

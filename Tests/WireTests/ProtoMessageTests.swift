import Testing
import WallboardCore
import Wire

/// Writes one unknown field of every wire type (numbers 90–93), as a newer peer might.
func junk(_ w: inout ProtoWriter) {
  w.tag(90, .varint)
  w.varint(300)
  w.tag(91, .fixed64)
  w.fixed64(7)
  w.lengthDelimited(92) { w in w.string(1, "ignored") }
  w.tag(93, .fixed32)
  w.fixed32(9)
}

/// Encodes then decodes `value` as its own type.
func roundTrip<M: ProtoMessage>(_ value: M) throws -> M { try M.decode(value.encode()) }

@Suite("Orchestra messages: exact bytes")
struct ProtoBytesTests {
  static let subscribe = PluginRequest(
    requestId: "r1", request: .subscribe(Subscribe(subscriptionId: "s1", topic: "feature.updated")))
  /// 0a 02 "r1"; field 50 wire type 2 is key 402 = 92 03; length 21; then the Subscribe:
  /// 0a 02 "s1", 12 0f "feature.updated".
  static let subscribeBytes = hex(
    "0a 02 72 31  92 03 15  0a 02 73 31  12 0f 66 65 61 74 75 72 65 2e 75 70 64 61 74 65 64")

  static let cases: [(String, [UInt8], [UInt8])] = [
    ("subscribe", subscribe.encode(), subscribeBytes),
    // Field 13, wire type 2 = 6a; an empty HealthRequest still sets the oneof.
    ("health request", PluginRequest(request: .health).encode(), hex("6a 00")),
    (
      "unsubscribe", PluginRequest(request: .unsubscribe(Unsubscribe(subscriptionId: "s"))).encode(),
      hex("9a 03 03 0a 01 73")
    ),
    // A map entry writes key and value even when empty.
    (
      "filters", Subscribe(filters: ["b": "2", "a": ""]).encode(), hex("1a 05 0a 01 61 12 00  1a 06 0a 01 62 12 01 32")
    ),
    (
      "ack", PluginResponse(response: .eventDelivery(EventDelivery(subscriptionId: "s1", topic: "heartbeat"))).encode(),
      hex("92 03 0f 0a 02 73 31 12 09 68 65 61 72 74 62 65 61 74")
    ),
    // Struct {"id": "F", "seq": 1}: entries 0a len (0a key, 12 Value); 1 as a double is 3ff0….
    (
      "struct", (["id": "F", "seq": 1] as JSONObject).encode(),
      hex("0a 09 0a 02 69 64 12 03 1a 01 46  0a 10 0a 03 73 65 71 12 09 11 00 00 00 00 00 00 f0 3f")
    ),
    // Oneof members are written even when zero: null_value 0, an empty string, false, -0.0.
    ("null", JSONValue.null.encode(), hex("08 00")),
    ("empty string", JSONValue.string("").encode(), hex("1a 00")),
    ("false", JSONValue.bool(false).encode(), hex("20 00")),
    ("-0.0", JSONValue.number(-0.0).encode(), hex("11 00 00 00 00 00 00 00 80")),
    // [true, []]: list_value (32) of Value{bool_value true} and Value{list_value {}}.
    ("list", JSONValue.array([true, []]).encode(), hex("32 08  0a 02 20 01  0a 02 32 00")),
    // 1 s 5 ms: seconds 08 01, nanos 5,000,000 = 10 c0 96 b1 02.
    (
      "timestamp", EventDelivery(topic: "t", timestamp: Instant(millis: 1005)).encode(),
      hex("12 01 74  32 07 08 01 10 c0 96 b1 02")
    ),
    // Enums are int32: -1 is sign-extended to 10 bytes.
    ("negative enum", HealthResult(status: .unrecognized(-1)).encode(), hex("08 ff ff ff ff ff ff ff ff ff 01")),
    ("defaults", EventDelivery().encode(), []),
    ("tool response", ToolResponse(success: true, result: [:], errorCode: "E").encode(), hex("08 01 12 00 1a 01 45")),
  ]

  @Test("encodings match hand-computed bytes", arguments: cases)
  func encodes(name: String, encoded: [UInt8], expected: [UInt8]) {
    #expect(encoded == expected, "\(name)")
  }

  @Test func decodesTheHandComputedSubscribe() throws {
    #expect(try PluginRequest.decode(Self.subscribeBytes) == Self.subscribe)
  }

  @Test func decodesHandComputedValues() throws {
    let structBytes = hex("0a 09 0a 02 69 64 12 03 1a 01 46  0a 10 0a 03 73 65 71 12 09 11 00 00 00 00 00 00 f0 3f")
    #expect(try JSONObject.decode(structBytes) == ["id": "F", "seq": 1])
    #expect(try JSONValue.decode(hex("32 08  0a 02 20 01  0a 02 32 00")) == [true, []])
    let negativeZero = try JSONValue.decode(hex("11 00 00 00 00 00 00 00 80"))
    guard case .number(let x) = negativeZero else {
      Issue.record("expected a number, got \(negativeZero)")
      return
    }
    #expect(x == 0 && x.sign == .minus)
    #expect(try JSONValue.decode([]) == .null, "a Value with no kind set is null")
    #expect(try Instant.decode(hex("08 01 10 c0 96 b1 02")) == Instant(millis: 1005))
    #expect(try HealthResult.decode(hex("08 ff ff ff ff ff ff ff ff ff 01")).status == .unrecognized(-1))
    #expect(try HealthResult.decode(hex("08 02")).status == .degraded)
  }
}

@Suite("Orchestra messages: round trips and unknown fields")
struct ProtoMessageTests {
  static let payload: JSONObject = [
    "id": "FEAT-1", "labels": ["a", "ü", ""], "nested": ["x": nil, "y": [1.5, -2, ["z": true]]], "seq": 42,
  ]

  @Test func everyMessageRoundTrips() throws {
    let delivery = EventDelivery(
      subscriptionId: "s1", topic: "feature.updated", eventType: "status_changed", payload: Self.payload,
      sourcePlugin: "tools.features", timestamp: Instant(millis: 1_800_000_000_123))
    let requests: [PluginRequest] = [
      PluginRequest(),
      PluginRequest(requestId: "r", request: .health),
      PluginRequest(requestId: "r", request: .other(field: 52)),
      PluginRequest(request: .subscribe(Subscribe(subscriptionId: "s", topic: "t", filters: ["k": "v", "": "e"]))),
      PluginRequest(request: .unsubscribe(Unsubscribe(subscriptionId: "s"))),
      PluginRequest(
        request: .toolCall(
          ToolRequest(
            toolName: "board_snapshot", arguments: ["project_id": "P"], callerPlugin: "wallboard",
            traceParent: "00-ab-cd-01", provider: "p", sessionId: "sess"))),
    ]
    for r in requests { #expect(try roundTrip(r) == r) }
    let responses: [PluginResponse] = [
      PluginResponse(),
      PluginResponse(requestId: "r", response: .eventDelivery(delivery)),
      PluginResponse(response: .eventDelivery(EventDelivery(payload: [:]))),
      PluginResponse(response: .health(HealthResult(status: .healthy, message: "ok", details: ["up": "3s"]))),
      PluginResponse(response: .health(HealthResult(status: .unrecognized(7)))),
      PluginResponse(response: .toolCall(ToolResponse(success: true, result: Self.payload))),
      PluginResponse(response: .toolCall(ToolResponse(errorCode: "unknown_tool", errorMessage: "no such tool"))),
      PluginResponse(response: .other(field: 40)),
    ]
    for r in responses { #expect(try roundTrip(r) == r) }
    #expect(try roundTrip(delivery) == delivery)
  }

  @Test func anEmptyPayloadIsNotAMissingOne() throws {
    #expect(try roundTrip(EventDelivery(payload: [:])).payload == [:])
    #expect(try roundTrip(EventDelivery()).payload == nil)
  }

  @Test func unknownFieldsOfEveryWireTypeAreSkippedAtEveryLevel() throws {
    var w = ProtoWriter()
    junk(&w)
    w.string(1, "r")
    w.lengthDelimited(5) { junk(&$0) }  // an unknown length-delimited field below 10: not the oneof
    w.lengthDelimited(50) { d in
      junk(&d)
      d.string(2, "feature.updated")
      d.lengthDelimited(4) { s in  // Struct
        junk(&s)
        s.lengthDelimited(1) { e in  // FieldsEntry
          junk(&e)
          e.string(1, "k")
          e.lengthDelimited(2) { v in  // Value
            junk(&v)
            v.lengthDelimited(6) { l in  // ListValue
              junk(&l)
              l.lengthDelimited(1) { v in
                v.string(3, "x")
                junk(&v)
              }
              junk(&l)
            }
          }
        }
      }
      d.lengthDelimited(6) { t in  // Timestamp
        junk(&t)
        t.int64(1, 10)
        junk(&t)
      }
      junk(&d)
    }
    junk(&w)
    let decoded = try PluginResponse.decode(w.bytes)
    #expect(
      decoded
        == PluginResponse(
          requestId: "r",
          response: .eventDelivery(
            EventDelivery(topic: "feature.updated", payload: ["k": ["x"]], timestamp: Instant(millis: 10_000)))))
  }

  @Test func unknownFieldsAreSkippedInRequests() throws {
    var w = ProtoWriter()
    w.lengthDelimited(50) { s in
      junk(&s)
      s.lengthDelimited(3) { e in
        junk(&e)
        e.string(1, "k")
        e.string(2, "v")
      }
    }
    #expect(try PluginRequest.decode(w.bytes) == PluginRequest(request: .subscribe(Subscribe(filters: ["k": "v"]))))
    var h = ProtoWriter()
    h.lengthDelimited(13) { junk(&$0) }
    #expect(try PluginRequest.decode(h.bytes).request == .health)
  }

  @Test func unknownLengthDelimitedFieldsDoNotSetTheOneof() throws {
    var w = ProtoWriter()
    w.message(50, EventDelivery(topic: "a"))
    for field in [2, 9, 14, 53, 99, 1000] { w.lengthDelimited(field) { $0.string(1, "x") } }
    #expect(try PluginResponse.decode(w.bytes).response == .eventDelivery(EventDelivery(topic: "a")))
  }

  @Test("the protocol's other oneof cases are kept by number", arguments: [10, 11, 12, 21, 22, 23, 30, 33, 40, 41])
  func otherCases(field: Int) throws {
    var w = ProtoWriter()
    w.lengthDelimited(field) { junk(&$0) }
    #expect(try PluginResponse.decode(w.bytes).response == .other(field: field))
    #expect(try PluginRequest.decode(w.bytes).request == .other(field: field))
  }

  @Test func aLaterOneofCaseWins() throws {
    var w = ProtoWriter()
    w.message(50, EventDelivery(topic: "a"))
    w.lengthDelimited(41) { _ in }
    #expect(try PluginResponse.decode(w.bytes).response == .other(field: 41))
  }

  @Test func errorsNameTheMessageTheFieldAndTheByte() {
    // 0a 02 "s1" | 12 05 "hello" | 22 (payload, byte 11) 84 07 (= 900, byte 12) | 40 bytes.
    let bytes = hex("0a 02 73 31 12 05 68 65 6c 6c 6f 22 84 07") + [UInt8](repeating: 0, count: 40)
    #expect(throws: ProtoError.self) { try EventDelivery.decode(bytes) }
    do {
      _ = try EventDelivery.decode(bytes)
    } catch {
      #expect(
        error.description == "EventDelivery.payload (field 4) at byte 12: length 900 runs past the end (40 bytes left)")
    }
    do {
      _ = try PluginResponse.decode(hex("92 03 02 12 05"))
      Issue.record("expected an error")
    } catch {
      #expect(error.message == "EventDelivery" && error.field == "topic" && error.offset == 4)
    }
    do {
      _ = try EventDelivery.decode(hex("10 01"))
      Issue.record("expected an error")
    } catch {
      #expect(
        error.description
          == "EventDelivery.topic (field 2) at byte 0: expected wire type 2 (length-delimited), found 0 (varint)")
    }
  }

  @Test func messagesOverTheCapAreRejectedBeforeReading() {
    #expect(throws: ProtoError(.messageTooLarge(bytes: 11, limit: 10), message: "PluginResponse")) {
      try PluginResponse.decode([UInt8](repeating: 0, count: 11), limits: ProtoLimits(maxMessageBytes: 10))
    }
  }

  @Test func mapsAndStringsAreCapped() throws {
    let filters = Dictionary(uniqueKeysWithValues: (0..<4).map { ("k\($0)", "v") })
    let bytes = Subscribe(filters: filters).encode()
    #expect(throws: ProtoError.self) { try Subscribe.decode(bytes, limits: ProtoLimits(maxEntries: 3)) }
    #expect(try Subscribe.decode(bytes, limits: ProtoLimits(maxEntries: 4)).filters == filters)
    #expect(throws: ProtoError.self) {
      try Subscribe.decode(Subscribe(topic: "12345").encode(), limits: ProtoLimits(maxStringBytes: 4))
    }
  }
}

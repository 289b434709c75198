import Testing
import WallboardCore
import Wire

/// A JSON object from its text.
func object(_ json: String) -> JSONObject {
  guard case .object(let o) = try? JSONParser.parse(json) else { preconditionFailure("not an object: \(json)") }
  return o
}

/// `d` framed as a `PluginResponse` on the wire, then read back and turned into an event.
func deliver(_ d: EventDelivery, receivedAt: Instant = received) throws -> Event {
  let frame = LengthPrefixFramer.frame(PluginResponse(response: .eventDelivery(d)).encode())
  var framer = LengthPrefixFramer()
  let frames = try framer.push(frame)
  try #require(frames.count == 1)
  let response = try PluginResponse.decode(frames[0])
  guard case .eventDelivery(let back) = response.response else {
    Issue.record("not an event delivery: \(response)")
    throw ProtoError(.truncatedVarint)
  }
  #expect(!back.isAcknowledgement)
  return try OrchestraEvents.event(
    from: back, origin: "orchestra://h:1", receivedAt: receivedAt, decoder: EventDecoder())
}

/// The error `body` throws.
func decodingError(_ body: () throws -> Event) -> EventDecodingError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error as? EventDecodingError
  }
}

@Suite("Orchestra events")
struct OrchestraEventsTests {
  /// The Orchestra form gives the same bodies as the JSON Lines tests expect, for every topic.
  @Test("each topic's payload decodes to its body over the wire", arguments: TopicTests.cases)
  func topic(topic: String, payload: String, expected: Event.Body) throws {
    let e = try deliver(EventDelivery(subscriptionId: "s1", topic: topic, payload: object(payload)))
    #expect(e.body == expected)
    #expect(e.origin == "orchestra://h:1")
  }

  @Test func anUnknownTopicIsCountedNotRejected() throws {
    #expect(try deliver(EventDelivery(topic: "sprint.renamed", payload: [:])).body == .unknown(topic: "sprint.renamed"))
  }

  @Test func envelopeFieldsMapToTheEvent() throws {
    let at = Instant(millis: 1_800_000_123_456)
    let e = try deliver(
      EventDelivery(
        subscriptionId: "s1", topic: "feature.updated", eventType: "status_changed",
        payload: ["id": "FEAT-7", "status": "In_Review", "seq": 42], sourcePlugin: "tools.features", timestamp: at))
    #expect(
      e
        == Event(
          origin: "orchestra://h:1", publisher: "tools.features", seq: 42, time: at, receivedAt: received,
          eventType: "status_changed", body: .featureUpdated(FeaturePatch(id: "FEAT-7", status: "in-review"))))
  }

  @Test func missingFieldsFallBack() throws {
    let e = try deliver(EventDelivery(topic: "heartbeat"))
    #expect(e.publisher == nil && e.eventType == nil && e.seq == nil)
    #expect(e.time == received && e.body == .heartbeat)
  }

  @Test(
    "seq must be a whole number from 0 to 2^53 − 1",
    arguments: [
      (JSONValue.number(-1), "must not be negative"), (1.5, "expected an integer"), ("7", "expected an integer"),
      (9_007_199_254_740_994, "greater than 2^53 − 1"), (9_007_199_254_740_992, "greater than 2^53 − 1"),
      (true, "expected an integer"),
    ])
  func badSeq(seq: JSONValue, problem: String) {
    let e = decodingError { try deliver(EventDelivery(topic: "heartbeat", payload: ["seq": seq])) }
    #expect(e?.path == "payload.seq")
    #expect(e?.problem.hasPrefix(problem) == true, "\(String(describing: e))")
  }

  @Test func seqAtTheEdges() throws {
    #expect(try deliver(EventDelivery(topic: "heartbeat", payload: ["seq": 0])).seq == 0)
    #expect(
      try deliver(EventDelivery(topic: "heartbeat", payload: ["seq": 9_007_199_254_740_991])).seq == (1 << 53) - 1)
    #expect(try deliver(EventDelivery(topic: "heartbeat", payload: ["seq": nil])).seq == nil)
  }

  @Test func payloadErrorsNameTheKey() {
    let e = decodingError { try deliver(EventDelivery(topic: "feature.updated", payload: ["status": "done"])) }
    #expect(e?.path == "payload.id")
    let noTopic = decodingError { try deliver(EventDelivery(eventType: "x", payload: [:])) }
    #expect(noTopic == EventDecodingError(path: "topic", problem: "missing"))
  }

  @Test func acknowledgementsAreRecognised() {
    #expect(EventDelivery(subscriptionId: "s1", topic: "feature.updated").isAcknowledgement)
    #expect(!EventDelivery(subscriptionId: "s1", topic: "feature.updated", payload: [:]).isAcknowledgement)
    #expect(!EventDelivery(subscriptionId: "s1", topic: "heartbeat", sourcePlugin: "p").isAcknowledgement)
    #expect(!EventDelivery(subscriptionId: "s1", topic: "t", timestamp: Instant(millis: 0)).isAcknowledgement)
    #expect(!EventDelivery(subscriptionId: "s1", topic: "t", eventType: "e").isAcknowledgement)
    #expect(!EventDelivery(topic: "feature.updated").isAcknowledgement)
    let wire = PluginResponse(response: .eventDelivery(EventDelivery(subscriptionId: "s1", topic: "heartbeat")))
    guard case .eventDelivery(let d) = try? PluginResponse.decode(wire.encode()).response else {
      Issue.record("the acknowledgement did not survive the wire")
      return
    }
    #expect(d.isAcknowledgement)
  }

  @Test func aSuccessfulBoardSnapshotBecomesASnapshotEvent() throws {
    let result = object(
      #"{"features":[{"id":"A","status":"todo"}],"sprints":[],"active_sprint_id":"s1","seq":77}"#)
    let wire = try PluginResponse.decode(
      PluginResponse(requestId: "r", response: .toolCall(ToolResponse(success: true, result: result))).encode())
    guard case .toolCall(let r) = wire.response else {
      Issue.record("not a tool response: \(wire)")
      return
    }
    let e = try OrchestraEvents.snapshotEvent(from: r, origin: "o", receivedAt: received, decoder: EventDecoder())
    #expect(
      e
        == Event(
          origin: "o", seq: 77, time: received,
          body: .boardSnapshot(
            BoardSnapshot(features: [Feature(id: "A", status: "todo")], activeSprintId: "s1", seq: 77))))
  }

  @Test func failedOrMalformedSnapshotsAreErrors() {
    func snapshot(_ r: ToolResponse) -> EventDecodingError? {
      decodingError {
        try OrchestraEvents.snapshotEvent(from: r, origin: "o", receivedAt: received, decoder: EventDecoder())
      }
    }
    #expect(
      snapshot(ToolResponse(errorCode: "unknown_tool", errorMessage: "no board_snapshot"))
        == EventDecodingError(path: "success", problem: "the tool call failed (unknown_tool: no board_snapshot)"))
    #expect(snapshot(ToolResponse(success: true)) == EventDecodingError(path: "result", problem: "missing"))
    #expect(
      snapshot(ToolResponse(success: true, result: object(#"{"features":[{"id":5}],"sprints":[]}"#)))?.path
        == "result.features[0].id")
    #expect(
      snapshot(ToolResponse(success: true, result: object(#"{"features":[],"sprints":[],"seq":-3}"#)))?.path
        == "result.seq")
  }
}

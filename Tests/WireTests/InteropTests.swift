import Foundation
import TestSupport
import Testing
import WallboardCore
import Wire

/// Both ways against Google's protobuf runtime (Tests/OrchestraPeer/codec.py).
@Suite("Protobuf interop with Google's runtime")
struct InteropTests {
  static let nested: JSONObject = JSONObject([
    ("title", .string("Über-feature ✓ 🚀")), ("points", .number(3.5)), ("done", .bool(false)), ("owner", .null),
    ("labels", .array([.string("a"), .null, .number(-2), .array([.bool(true)])])),
    ("meta", .object(JSONObject([("depth", .object(JSONObject([("x", .number(1e-7))])))]))),
  ])

  static func frames(_ messages: [[UInt8]]) -> Data { Data(messages.flatMap { LengthPrefixFramer.frame($0) }) }

  static func decodeWithGoogle(_ message: String, _ frames: Data) throws -> [[String: Any]] {
    let out = try Python.run([Python.codec, "decode", message], input: frames)
    return try String(decoding: out, as: UTF8.self).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static func encodeWithGoogle(_ message: String, _ json: [String], unknownFields: Bool = true) throws -> [[UInt8]] {
    let input = Data((json.joined(separator: "\n") + "\n").utf8)
    let out = try Python.run(
      [Python.codec, "encode", message] + (unknownFields ? ["--unknown-fields"] : []), input: input)
    var framer = LengthPrefixFramer()
    return try framer.push(Array(out))
  }

  @Test func googleReadsEverySwiftRequest() throws {
    let requests: [PluginRequest] = [
      PluginRequest(
        requestId: "r1",
        request: .subscribe(Subscribe(subscriptionId: "s1", topic: "feature.updated", filters: ["project": "demo"]))),
      PluginRequest(requestId: "r2", request: .unsubscribe(Unsubscribe(subscriptionId: "s1"))),
      PluginRequest(requestId: "r3", request: .health),
      PluginRequest(
        requestId: "r4", request: .toolCall(ToolRequest(toolName: "board_snapshot", arguments: Self.nested))),
    ]
    let decoded = try Self.decodeWithGoogle("PluginRequest", Self.frames(requests.map { $0.encode() }))
    #expect(decoded.count == 4)
    let sub = try #require(decoded[0]["subscribe"] as? [String: Any])
    #expect(sub["subscription_id"] as? String == "s1")
    #expect(sub["topic"] as? String == "feature.updated")
    #expect((sub["filters"] as? [String: String]) == ["project": "demo"])
    #expect((decoded[1]["unsubscribe"] as? [String: Any])?["subscription_id"] as? String == "s1")
    #expect(decoded[2]["health"] != nil && decoded[2]["request_id"] as? String == "r3")
    let call = try #require(decoded[3]["tool_call"] as? [String: Any])
    #expect(call["tool_name"] as? String == "board_snapshot")
    let args = try #require(call["arguments"] as? [String: Any])
    #expect(args["title"] as? String == "Über-feature ✓ 🚀")
    #expect(args["points"] as? Double == 3.5)
    #expect(args["owner"] is NSNull)
    let labels = try #require(args["labels"] as? [Any])
    #expect(labels.count == 4 && labels[1] is NSNull && (labels[3] as? [Bool]) == [true])
    #expect(((args["meta"] as? [String: Any])?["depth"] as? [String: Any])?["x"] as? Double == 1e-7)
  }

  @Test func swiftReadsEveryGoogleResponseSkippingUnknownFields() throws {
    let json = [
      #"{"request_id":"a","event_delivery":{"subscription_id":"s1","topic":"feature.updated"}}"#,
      #"{"request_id":"b","event_delivery":{"subscription_id":"s1","topic":"feature.updated","event_type":"status_changed","payload":{"id":"FEAT-1","status":"in_review","seq":7,"tags":["x",null,{"k":"ü"}]},"source_plugin":"tools.features","timestamp":"2026-11-03T09:15:00.250Z"}}"#,
      #"{"request_id":"c","health":{"status":"HEALTHY","message":"ok","details":{"uptime":"3d"}}}"#,
      #"{"request_id":"d","tool_call":{"success":true,"result":{"features":[],"sprints":[],"seq":12}}}"#,
      #"{"request_id":"e","tool_call":{"success":false,"error_code":"unknown_tool","error_message":"no such tool"}}"#,
    ]
    let frames = try Self.encodeWithGoogle("PluginResponse", json)
    let decoded = try frames.map { try PluginResponse.decode($0) }
    guard case .eventDelivery(let ack)? = decoded[0].response else { throw Python.Failed(description: "no ack") }
    #expect(ack.isAcknowledgement)
    guard case .eventDelivery(let d)? = decoded[1].response else { throw Python.Failed(description: "no delivery") }
    #expect(!d.isAcknowledgement)
    #expect(d.sourcePlugin == "tools.features")
    #expect(d.timestamp == Make.t("2026-11-03T09:15:00.250Z"))
    #expect(d.payload?["tags"] == .array([.string("x"), .null, .object(JSONObject([("k", .string("ü"))]))]))
    let event = try OrchestraEvents.event(
      from: d, origin: "o", receivedAt: Make.t("2026-11-20T00:00:00Z"), decoder: EventDecoder())
    #expect(event.seq == 7)
    #expect(event.body == .featureUpdated(FeaturePatch(id: "FEAT-1", status: "in-review")))
    guard case .health(let h)? = decoded[2].response else { throw Python.Failed(description: "no health") }
    #expect(h.status == .healthy && h.message == "ok" && h.details == ["uptime": "3d"])
    guard case .toolCall(let ok)? = decoded[3].response, case .toolCall(let no)? = decoded[4].response else {
      throw Python.Failed(description: "no tool responses")
    }
    #expect(ok.success && ok.result?["seq"] == .number(12))
    #expect(!no.success && no.errorCode == "unknown_tool")
  }
}

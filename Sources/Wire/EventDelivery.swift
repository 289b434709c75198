public import WallboardCore

/// `orchestra.plugin.v1.EventDelivery`: one published event, or a subscription's acknowledgement.
///
/// Fields: 1 `subscription_id`, 2 `topic`, 3 `event_type`, 4 `payload` (Struct),
/// 5 `source_plugin`, 6 `timestamp` (Timestamp).
public struct EventDelivery: ProtoMessage {
  public var subscriptionId: String
  public var topic: String
  public var eventType: String
  /// `nil` when the field is absent; an empty Struct is an empty object.
  public var payload: JSONObject?
  public var sourcePlugin: String
  public var timestamp: Instant?

  public init(
    subscriptionId: String = "", topic: String = "", eventType: String = "", payload: JSONObject? = nil,
    sourcePlugin: String = "", timestamp: Instant? = nil
  ) {
    self.subscriptionId = subscriptionId
    self.topic = topic
    self.eventType = eventType
    self.payload = payload
    self.sourcePlugin = sourcePlugin
    self.timestamp = timestamp
  }

  /// Whether this is a Subscribe's acknowledgement: a subscription id and a topic, nothing else.
  ///
  /// The SDK acknowledges every Subscribe this way; an acknowledgement is not an event.
  public var isAcknowledgement: Bool {
    !subscriptionId.isEmpty && !topic.isEmpty && eventType.isEmpty && payload == nil
      && sourcePlugin.isEmpty && timestamp == nil
  }

  public static var protoName: String { "EventDelivery" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "subscription_id"
    case 2: return "topic"
    case 3: return "event_type"
    case 4: return "payload"
    case 5: return "source_plugin"
    case 6: return "timestamp"
    default: return nil
    }
  }

  public func encode(to w: inout ProtoWriter) {
    w.nonEmpty(1, subscriptionId)
    w.nonEmpty(2, topic)
    w.nonEmpty(3, eventType)
    if let payload { w.message(4, payload) }
    w.nonEmpty(5, sourcePlugin)
    if let timestamp { w.message(6, timestamp) }
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var d = self
    let max = limits.maxStringBytes
    try reader.fields(of: EventDelivery.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: d.subscriptionId = try r.string(tag, maxBytes: max)
      case 2: d.topic = try r.string(tag, maxBytes: max)
      case 3: d.eventType = try r.string(tag, maxBytes: max)
      case 4:
        var s = try r.message(tag)
        d.payload = try s.structObject(limits: limits, depth: 1)
      case 5: d.sourcePlugin = try r.string(tag, maxBytes: max)
      case 6:
        var t = try r.message(tag)
        d.timestamp = try Instant(from: &t, limits: limits)
      default: try r.skip(tag)
      }
    }
    self = d
  }
}

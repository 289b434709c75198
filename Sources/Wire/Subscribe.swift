/// `orchestra.plugin.v1.Subscribe`: asks for a topic's events on this connection.
///
/// Fields: 1 `subscription_id`, 2 `topic`, 3 `filters` (`map<string, string>`).
public struct Subscribe: ProtoMessage {
  public var subscriptionId: String
  /// Matched exactly upstream: there is no wildcard.
  public var topic: String
  public var filters: [String: String]

  public init(subscriptionId: String = "", topic: String = "", filters: [String: String] = [:]) {
    self.subscriptionId = subscriptionId
    self.topic = topic
    self.filters = filters
  }

  public static var protoName: String { "Subscribe" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "subscription_id"
    case 2: return "topic"
    case 3: return "filters"
    default: return nil
    }
  }

  /// Filters are written sorted by key, so equal values encode to equal bytes.
  public func encode(to w: inout ProtoWriter) {
    w.nonEmpty(1, subscriptionId)
    w.nonEmpty(2, topic)
    w.stringMap(3, filters)
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var s = self
    try reader.fields(of: Subscribe.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: s.subscriptionId = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 2: s.topic = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 3:
        try r.stringMapEntry(tag, into: &s.filters, entry: "Subscribe.FiltersEntry", limits: limits)
      default: try r.skip(tag)
      }
    }
    self = s
  }
}

/// `orchestra.plugin.v1.Unsubscribe`: ends a subscription. Fields: 1 `subscription_id`.
public struct Unsubscribe: ProtoMessage {
  public var subscriptionId: String

  public init(subscriptionId: String = "") { self.subscriptionId = subscriptionId }

  public static var protoName: String { "Unsubscribe" }
  public static func fieldName(_ number: Int) -> String? { number == 1 ? "subscription_id" : nil }

  public func encode(to w: inout ProtoWriter) { w.nonEmpty(1, subscriptionId) }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    var id = ""
    try reader.fields(of: Unsubscribe.self) { (r, tag) throws(ProtoError) in
      if tag.field == 1 {
        id = try r.string(tag, maxBytes: limits.maxStringBytes)
      } else {
        try r.skip(tag)
      }
    }
    self.init(subscriptionId: id)
  }
}

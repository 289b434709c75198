/// `orchestra.plugin.v1.PluginResponse`: what a server writes back, once per RPC or, for a
/// subscription, once per event.
///
/// Fields: 1 `request_id`, then a oneof `response` of which this version models 13 `health`,
/// 20 `tool_call` and 50 `event_delivery`.
public struct PluginResponse: ProtoMessage {
  /// The oneof `response`.
  public enum Response: Hashable, Sendable {
    case eventDelivery(EventDelivery)
    case health(HealthResult)
    case toolCall(ToolResponse)
    /// A oneof case this version does not model (`register` = 10, `stream_chunk` = 40…).
    ///
    /// Read from the oneof's other numbers in the protocol's table (10–12, 21–23, 30–33, 40,
    /// 41; their contents are skipped); written as an empty message. Any other unknown field
    /// is skipped and leaves the oneof alone.
    case other(field: Int)
  }

  public var requestId: String
  public var response: Response?

  public init(requestId: String = "", response: Response? = nil) {
    self.requestId = requestId
    self.response = response
  }

  public static var protoName: String { "PluginResponse" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "request_id"
    case 13: return "health"
    case 20: return "tool_call"
    case 50: return "event_delivery"
    default: return nil
    }
  }

  public func encode(to w: inout ProtoWriter) {
    w.nonEmpty(1, requestId)
    switch response {
    case nil: break
    case .eventDelivery(let d): w.message(50, d)
    case .health(let h): w.message(13, h)
    case .toolCall(let t): w.message(20, t)
    case .other(let field): w.lengthDelimited(field) { _ in }
    }
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var p = self
    try reader.fields(of: PluginResponse.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: p.requestId = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 13:
        var m = try r.message(tag)
        p.response = .health(try HealthResult(from: &m, limits: limits))
      case 20:
        var m = try r.message(tag)
        p.response = .toolCall(try ToolResponse(from: &m, limits: limits))
      case 50:
        var m = try r.message(tag)
        p.response = .eventDelivery(try EventDelivery(from: &m, limits: limits))
      case 10...12, 21...23, 30...33, 40, 41:
        _ = try r.message(tag)
        p.response = .other(field: tag.field)
      default: try r.skip(tag)
      }
    }
    self = p
  }
}

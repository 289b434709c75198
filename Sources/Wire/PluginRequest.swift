/// `orchestra.plugin.v1.PluginRequest`: what a client writes to open one RPC.
///
/// Fields: 1 `request_id`, then a oneof `request` of which this version models 13 `health`,
/// 20 `tool_call`, 50 `subscribe` and 51 `unsubscribe`.
public struct PluginRequest: ProtoMessage {
  /// The oneof `request`.
  public enum Request: Hashable, Sendable {
    case subscribe(Subscribe)
    case unsubscribe(Unsubscribe)
    /// An empty `HealthRequest`.
    case health
    case toolCall(ToolRequest)
    /// A oneof case this version does not model (`register` = 10, `publish` = 52…), by number.
    ///
    /// Read from the oneof's other numbers in the protocol's table (10–12, 21–23, 30–33, 40,
    /// 41, 52; their contents are skipped); written as an empty message. Any other unknown
    /// field is skipped and leaves the oneof alone.
    case other(field: Int)
  }

  public var requestId: String
  public var request: Request?

  public init(requestId: String = "", request: Request? = nil) {
    self.requestId = requestId
    self.request = request
  }

  public static var protoName: String { "PluginRequest" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "request_id"
    case 13: return "health"
    case 20: return "tool_call"
    case 50: return "subscribe"
    case 51: return "unsubscribe"
    default: return nil
    }
  }

  public func encode(to w: inout ProtoWriter) {
    w.nonEmpty(1, requestId)
    switch request {
    case nil: break
    case .subscribe(let s): w.message(50, s)
    case .unsubscribe(let u): w.message(51, u)
    case .health: w.lengthDelimited(13) { _ in }
    case .toolCall(let t): w.message(20, t)
    case .other(let field): w.lengthDelimited(field) { _ in }
    }
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var p = self
    try reader.fields(of: PluginRequest.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: p.requestId = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 13:
        try r.skipMessage(tag, named: "HealthRequest")
        p.request = .health
      case 20:
        var m = try r.message(tag)
        p.request = .toolCall(try ToolRequest(from: &m, limits: limits))
      case 50:
        var m = try r.message(tag)
        p.request = .subscribe(try Subscribe(from: &m, limits: limits))
      case 51:
        var m = try r.message(tag)
        p.request = .unsubscribe(try Unsubscribe(from: &m, limits: limits))
      case 10...12, 21...23, 30...33, 40, 41, 52:
        _ = try r.message(tag)
        p.request = .other(field: tag.field)
      default: try r.skip(tag)
      }
    }
    self = p
  }
}

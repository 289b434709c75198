/// `orchestra.plugin.v1.ToolRequest`: calls a tool (`board_snapshot`) with JSON arguments.
///
/// Fields: 1 `tool_name`, 2 `arguments` (Struct), 3 `caller_plugin`, 4 `trace_parent`,
/// 5 `provider`, 6 `session_id`.
public struct ToolRequest: ProtoMessage {
  public var toolName: String
  public var arguments: JSONObject?
  public var callerPlugin: String
  public var traceParent: String
  public var provider: String
  public var sessionId: String

  public init(
    toolName: String = "", arguments: JSONObject? = nil, callerPlugin: String = "", traceParent: String = "",
    provider: String = "", sessionId: String = ""
  ) {
    self.toolName = toolName
    self.arguments = arguments
    self.callerPlugin = callerPlugin
    self.traceParent = traceParent
    self.provider = provider
    self.sessionId = sessionId
  }

  public static var protoName: String { "ToolRequest" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "tool_name"
    case 2: return "arguments"
    case 3: return "caller_plugin"
    case 4: return "trace_parent"
    case 5: return "provider"
    case 6: return "session_id"
    default: return nil
    }
  }

  public func encode(to w: inout ProtoWriter) {
    w.nonEmpty(1, toolName)
    if let arguments { w.message(2, arguments) }
    w.nonEmpty(3, callerPlugin)
    w.nonEmpty(4, traceParent)
    w.nonEmpty(5, provider)
    w.nonEmpty(6, sessionId)
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var t = self
    let max = limits.maxStringBytes
    try reader.fields(of: ToolRequest.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: t.toolName = try r.string(tag, maxBytes: max)
      case 2:
        var s = try r.message(tag)
        t.arguments = try s.structObject(limits: limits, depth: 1)
      case 3: t.callerPlugin = try r.string(tag, maxBytes: max)
      case 4: t.traceParent = try r.string(tag, maxBytes: max)
      case 5: t.provider = try r.string(tag, maxBytes: max)
      case 6: t.sessionId = try r.string(tag, maxBytes: max)
      default: try r.skip(tag)
      }
    }
    self = t
  }
}

/// `orchestra.plugin.v1.ToolResponse`: a tool's result, or why it failed.
///
/// Fields: 1 `success` (bool), 2 `result` (Struct), 3 `error_code`, 4 `error_message`.
public struct ToolResponse: ProtoMessage {
  public var success: Bool
  public var result: JSONObject?
  public var errorCode: String
  public var errorMessage: String

  public init(success: Bool = false, result: JSONObject? = nil, errorCode: String = "", errorMessage: String = "") {
    self.success = success
    self.result = result
    self.errorCode = errorCode
    self.errorMessage = errorMessage
  }

  public static var protoName: String { "ToolResponse" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "success"
    case 2: return "result"
    case 3: return "error_code"
    case 4: return "error_message"
    default: return nil
    }
  }

  public func encode(to w: inout ProtoWriter) {
    if success { w.bool(1, true) }
    if let result { w.message(2, result) }
    w.nonEmpty(3, errorCode)
    w.nonEmpty(4, errorMessage)
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var t = self
    try reader.fields(of: ToolResponse.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: t.success = try r.bool(tag)
      case 2:
        var s = try r.message(tag)
        t.result = try s.structObject(limits: limits, depth: 1)
      case 3: t.errorCode = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 4: t.errorMessage = try r.string(tag, maxBytes: limits.maxStringBytes)
      default: try r.skip(tag)
      }
    }
    self = t
  }
}

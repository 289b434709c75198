/// `orchestra.plugin.v1.HealthResult`: the answer to a `HealthRequest`.
///
/// Fields: 1 `status` (enum), 2 `message`, 3 `details` (`map<string, string>`).
public struct HealthResult: ProtoMessage {
  /// The `status` enum; numbers this version does not know are kept.
  public enum Status: Hashable, Sendable {
    case unspecified, healthy, degraded, unhealthy
    case unrecognized(Int32)

    public init(rawValue: Int32) {
      switch rawValue {
      case 0: self = .unspecified
      case 1: self = .healthy
      case 2: self = .degraded
      case 3: self = .unhealthy
      default: self = .unrecognized(rawValue)
      }
    }

    /// The number on the wire.
    public var rawValue: Int32 {
      switch self {
      case .unspecified: return 0
      case .healthy: return 1
      case .degraded: return 2
      case .unhealthy: return 3
      case .unrecognized(let n): return n
      }
    }
  }

  public var status: Status
  public var message: String
  public var details: [String: String]

  public init(status: Status = .unspecified, message: String = "", details: [String: String] = [:]) {
    self.status = status
    self.message = message
    self.details = details
  }

  public static var protoName: String { "HealthResult" }

  public static func fieldName(_ number: Int) -> String? {
    switch number {
    case 1: return "status"
    case 2: return "message"
    case 3: return "details"
    default: return nil
    }
  }

  /// Details are written sorted by key.
  public func encode(to w: inout ProtoWriter) {
    if status.rawValue != 0 { w.int32(1, status.rawValue) }
    w.nonEmpty(2, message)
    w.stringMap(3, details)
  }

  public init(from reader: inout ProtoReader, limits: ProtoLimits) throws(ProtoError) {
    self.init()
    var h = self
    try reader.fields(of: HealthResult.self) { (r, tag) throws(ProtoError) in
      switch tag.field {
      case 1: h.status = Status(rawValue: try r.int32(tag))
      case 2: h.message = try r.string(tag, maxBytes: limits.maxStringBytes)
      case 3:
        try r.stringMapEntry(tag, into: &h.details, entry: "HealthResult.DetailsEntry", limits: limits)
      default: try r.skip(tag)
      }
    }
    self = h
  }
}

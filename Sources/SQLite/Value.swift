/// A value as SQLite stores it: one of its five storage classes.
public enum Value: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// The text, for `.text`; a number's text form for numbers; nil for null and blobs.
  public var text: String? {
    switch self {
    case .text(let s): s
    case .integer(let i): String(i)
    case .real(let d): String(d)
    case .null, .blob: nil
    }
  }

  /// The integer, for `.integer` (and a `.real` that is whole and in range).
  public var integer: Int64? {
    switch self {
    case .integer(let i): return i
    case .real(let d) where d.isFinite && d == d.rounded() && abs(d) < 9.2e18: return Int64(d)
    default: return nil
    }
  }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
  public init(stringLiteral value: String) { self = .text(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(nilLiteral: ()) { self = .null }
}

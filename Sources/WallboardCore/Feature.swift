/// A unit of work on the board, as the event contract describes it.
public struct Feature: Hashable, Sendable {
  public var id: String
  public var projectId: String?
  public var title: String
  /// Normalised status (see `Status.normalise`).
  public var status: String
  public var priority: String?
  public var kind: String?
  public var assignee: String?
  public var labels: [String]
  /// T-shirt size (`S|M|L|XL`) or a numeric string.
  public var estimate: String?
  /// Story points; wins over `estimate`.
  public var points: Double?
  public var sprintId: String?
  public var createdAt: Instant?
  public var updatedAt: Instant?
  /// The features this one waits on, as written (`depends_on`): ids of the same project, or
  /// `project/id` for another project's (see `BoardState.dependencies(of:)`).
  public var dependsOn: [String]

  public init(
    id: String, projectId: String? = nil, title: String = "", status: String = "backlog",
    priority: String? = nil, kind: String? = nil, assignee: String? = nil, labels: [String] = [],
    estimate: String? = nil, points: Double? = nil, sprintId: String? = nil,
    createdAt: Instant? = nil, updatedAt: Instant? = nil, dependsOn: [String] = []
  ) {
    self.id = id
    self.projectId = projectId
    self.title = title
    self.status = Status.normalise(status)
    self.priority = priority
    self.kind = kind
    self.assignee = assignee
    self.labels = labels
    self.estimate = estimate
    self.points = points
    self.sprintId = sprintId
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.dependsOn = dependsOn
  }

  /// The most entries a `depends_on` list holds (the event contract's cap, the sources' too).
  public static let maxDependencies = 256

  /// Sprints this feature names itself: `sprint_id` and `sprint:<id>` labels.
  public var ownSprintIds: [String] {
    var out: [String] = []
    if let s = sprintId, !s.isEmpty { out.append(s) }
    for l in labels where l.hasPrefix("sprint:") {
      let id = String(l.dropFirst(7))
      if !id.isEmpty && !out.contains(id) { out.append(id) }
    }
    return out
  }
}

/// The fields of a `feature.updated` payload; `nil` = not mentioned, `.some(nil)` = cleared.
public struct FeaturePatch: Hashable, Sendable {
  public var id: String
  public var projectId: String??
  public var title: String?
  public var status: String?
  public var priority: String??
  public var kind: String??
  public var assignee: String??
  public var labels: [String]?
  public var estimate: String??
  public var points: Double??
  public var sprintId: String??
  public var createdAt: Instant?
  public var updatedAt: Instant?
  public var dependsOn: [String]?

  public init(id: String) { self.id = id }

  /// A patch that sets only the status.
  public init(id: String, status: String) {
    self.id = id
    self.status = Status.normalise(status)
  }

  /// Applies the mentioned fields to `f`.
  public func apply(to f: inout Feature) {
    if let v = projectId { f.projectId = v }
    if let v = title { f.title = v }
    if let v = status { f.status = v }
    if let v = priority { f.priority = v }
    if let v = kind { f.kind = v }
    if let v = assignee { f.assignee = v }
    if let v = labels { f.labels = v }
    if let v = estimate { f.estimate = v }
    if let v = points { f.points = v }
    if let v = sprintId { f.sprintId = v }
    if let v = createdAt { f.createdAt = v }
    if let v = updatedAt { f.updatedAt = v }
    if let v = dependsOn { f.dependsOn = v }
  }
}

/// How T-shirt sizes become points. Default `S=1, M=2, L=3, XL=5`.
///
/// Every number that becomes points is capped here, whatever decoded it: `points` and numeric
/// estimates from 0 to `Feature.maxPoints`, numeric estimates written as plain decimals only.
public struct EstimateScale: Hashable, Sendable {
  /// Points per size, keyed by the size in upper case.
  public private(set) var sizes: [String: Double]

  /// A scale with the given sizes, matched without regard to case.
  ///
  /// Throws when two sizes are the same once upper-cased (`s` and `S`), or when a size's points
  /// are not a number from 0 to `Feature.maxPoints`.
  public init(sizes: KeyValuePairs<String, Double>) throws(Error) {
    try self.init(pairs: sizes.map { ($0.key, $0.value) })
  }

  /// A scale from `(size, points)` pairs in the order they were written (see `init(sizes:)`).
  public init(pairs: [(String, Double)]) throws(Error) {
    var sizes: [String: Double] = [:]
    var spelled: [String: String] = [:]
    for (name, value) in pairs {
      let key = name.uppercased()
      if let first = spelled[key] { throw .duplicateSize(first: first, second: name) }
      guard Feature.pointsRange.contains(value) else { throw .pointsOutOfRange(size: name, value) }
      spelled[key] = name
      sizes[key] = value
    }
    self.sizes = sizes
  }

  /// Why a scale could not be built.
  public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// Two sizes that are the same without regard to case, as written.
    case duplicateSize(first: String, second: String)
    case pointsOutOfRange(size: String, Double)

    public var description: String {
      switch self {
      case .duplicateSize(let a, let b) where a == b: "the size \"\(a)\" is given twice"
      case .duplicateSize(let a, let b): "the sizes \"\(a)\" and \"\(b)\" are the same size (sizes ignore case)"
      case .pointsOutOfRange(let size, let v):
        "\(size): \(v) is not a number of points from 0 to \(Int(Feature.maxPoints))"
      }
    }
  }

  /// `S=1, M=2, L=3, XL=5`.
  public static let standard = EstimateScale(unchecked: ["S": 1, "M": 2, "L": 3, "XL": 5])

  /// A scale whose sizes are already upper case and in range (the standard one, a decoded one).
  package init(unchecked sizes: [String: Double]) { self.sizes = sizes }

  /// Points for a feature: `points` wins; else `estimate` mapped or parsed; else `nil`
  /// (unestimated). Points outside 0…`Feature.maxPoints` count as no points.
  public func points(points: Double?, estimate: String?) -> Double? {
    if let p = points { return Feature.pointsRange.contains(p) ? p : nil }
    guard let raw = estimate else { return nil }
    if let v = sizes[raw] { return v }
    let e = raw.trimmingSpaces
    if e.isEmpty { return nil }
    if let v = sizes[e.uppercased()] { return v }
    return Self.decimalPoints(e)
  }

  /// A numeric estimate: plain decimal digits with an optional fraction (`3`, `2.5`, `0.25`),
  /// from 0 to `Feature.maxPoints`; `nil` for anything else — a sign, an exponent (`1e308`),
  /// hexadecimal (`0x10`), `inf`, `nan`, or a value over the cap.
  public static func decimalPoints(_ text: String) -> Double? {
    guard isPlainDecimal(text), let v = Double(text), Feature.pointsRange.contains(v) else { return nil }
    return v
  }

  /// Whether `text` is digits with an optional fraction: `[0-9]+(\.[0-9]+)?`.
  public static func isPlainDecimal(_ text: String) -> Bool {
    var integerDigits = 0
    var fractionDigits = 0
    var sawPoint = false
    for b in text.utf8 {
      if b == UInt8(ascii: ".") && !sawPoint && integerDigits > 0 {
        sawPoint = true
      } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
        if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
      } else {
        return false
      }
    }
    return integerDigits > 0 && (!sawPoint || fractionDigits > 0)
  }
}

extension Feature {
  /// The most points one feature carries (`points` or an estimate): `docs/events.md`'s cap.
  public static let maxPoints = 1_000_000.0
  /// The points a feature may carry: 0…`maxPoints` (never NaN or infinite).
  public static let pointsRange = 0...maxPoints
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}

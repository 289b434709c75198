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

  public init(
    id: String, projectId: String? = nil, title: String = "", status: String = "backlog",
    priority: String? = nil, kind: String? = nil, assignee: String? = nil, labels: [String] = [],
    estimate: String? = nil, points: Double? = nil, sprintId: String? = nil,
    createdAt: Instant? = nil, updatedAt: Instant? = nil
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
  }

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
  }
}

/// How T-shirt sizes become points. Default `S=1, M=2, L=3, XL=5`.
public struct EstimateScale: Hashable, Sendable {
  public var sizes: [String: Double]

  public init(sizes: [String: Double] = ["S": 1, "M": 2, "L": 3, "XL": 5]) {
    self.sizes = Dictionary(uniqueKeysWithValues: sizes.map { ($0.key.uppercased(), $0.value) })
  }

  public static let standard = EstimateScale()

  /// Points for a feature: `points` wins; else `estimate` mapped or parsed; else `nil`
  /// (unestimated).
  public func points(points: Double?, estimate: String?) -> Double? {
    if let p = points { return p }
    guard let raw = estimate else { return nil }
    if let v = sizes[raw] { return v }
    let e = raw.trimmingSpaces
    if e.isEmpty { return nil }
    if let v = sizes[e.uppercased()] { return v }
    if let v = Double(e), v.isFinite, v >= 0 { return v }
    return nil
  }
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}

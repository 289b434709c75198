public import WallboardCore

/// Where a feature's current status, and its current stretch of work, began in its history.
extension FeatureHistory {
  /// The start of the last unbroken run of versions whose status is `status`: walking back from
  /// the last version while each one exists and has that status. Nil when the last version does
  /// not exist or has another status (the history does not say when the feature took it).
  public func runStart(of status: String) -> Instant? {
    runStart { $0 == status }
  }

  /// The start of the last unbroken run of versions, ending with the last one, whose status
  /// `keeps` accepts (each one existing). Nil when the last version is not such a one.
  public func runStart(while keeps: (String) -> Bool) -> Instant? {
    var i = versions.count - 1
    guard i >= 0, versions[i].exists, keeps(versions[i].status) else { return nil }
    while i > 0 && versions[i - 1].exists && keeps(versions[i - 1].status) { i -= 1 }
    return versions[i].at
  }

  /// How many times the history enters `status`: versions with it whose predecessor did not
  /// have it or did not exist (the first version counts when it has it).
  public func entries(into status: String) -> Int {
    var n = 0
    for (i, v) in versions.enumerated() where v.exists && v.status == status {
      if i == 0 || !versions[i - 1].exists || versions[i - 1].status != status { n += 1 }
    }
    return n
  }
}

extension BoardState {
  /// When `f` entered its current status: the start of the last unbroken run of that status in
  /// its history (`FeatureHistory.runStart(of:)`), else its `updatedAt`, else nil.
  public func statusSince(_ f: Feature) -> Instant? {
    history[f.key]?.runStart(of: f.status) ?? f.updatedAt
  }
}

/// Days between two moments, as a fraction (86 400 000 ms a day).
func days(from a: Instant, to b: Instant) -> Double {
  Double(b.millis - a.millis) / 86_400_000
}

/// Orders by an optional moment, oldest first and unknown last, then by key.
func olderFirst(_ a: (Instant?, FeatureKey), _ b: (Instant?, FeatureKey)) -> Bool {
  switch (a.0, b.0) {
  case (let x?, let y?) where x != y: return x < y
  case (.some, nil): return true
  case (nil, .some): return false
  default: return a.1 < b.1
  }
}

/// The statuses of a workflow with a property, its old spellings (aliases) included: one set
/// lookup where `Workflow.state(_:)` scans the states.
struct StatusSets {
  private var byProject: [String: (active: Set<String>, terminal: Set<String>, done: Set<String>)] = [:]
  private let state: BoardState

  init(_ state: BoardState) { self.state = state }

  /// The sets of the workflow governing `project`'s features.
  mutating func of(_ project: String?) -> (active: Set<String>, terminal: Set<String>, done: Set<String>) {
    if let s = byProject[project ?? ""] { return s }
    let wf = state.workflow(forProject: project)
    // As `Workflow.state(_:)` reads a status: through its alias when it has one.
    func set(_ p: (WorkflowState) -> Bool) -> Set<String> {
      let base = Set(wf.states.filter(p).map(\.id))
      var ids = base.subtracting(wf.aliases.keys)
      for (old, new) in wf.aliases where base.contains(new) { ids.insert(old) }
      return ids
    }
    let s = (set(\.activeWork), set(\.terminal), set(\.done))
    byProject[project ?? ""] = s
    return s
  }
}

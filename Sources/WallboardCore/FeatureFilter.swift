/// Which features the board shows (`--project`, `--label`, `--assignee`): applied once, by the
/// reducer, at the board's door (see `BoardState+Filter.swift`), so that every projection, tally
/// and `inspect` agree without filtering again.
///
/// Each key is a list of accepted values; an empty list accepts every feature. A feature matches a
/// key when it has *any* of the key's values (its project is one of `projects`, one of its labels
/// is one of `labels`, its assignee is one of `assignees`), and it must match every key that is
/// set. Values compare exactly (case counts), as the store spells them.
public struct FeatureFilter: Hashable, Sendable {
  /// Project ids, in the order given (the header names them so).
  public var projects: [String]
  public var labels: [String]
  public var assignees: [String]

  public init(projects: [String] = [], labels: [String] = [], assignees: [String] = []) {
    self.projects = projects
    self.labels = labels
    self.assignees = assignees
  }

  /// The filter that keeps every feature.
  public static let all = FeatureFilter()

  /// Whether it keeps every feature.
  public var isEmpty: Bool { projects.isEmpty && labels.isEmpty && assignees.isEmpty }

  /// Whether the board shows `f`.
  public func matches(_ f: Feature) -> Bool {
    if !projects.isEmpty {
      guard let p = f.projectId, projects.contains(p) else { return false }
    }
    if !labels.isEmpty, !f.labels.contains(where: labels.contains) { return false }
    if !assignees.isEmpty {
      guard let a = f.assignee, assignees.contains(a) else { return false }
    }
    return true
  }

  /// Whether applying `patch` can change whether a feature matches. (Its project is part of
  /// which feature it is, never changed by a patch.)
  func mayMove(_ patch: FeaturePatch) -> Bool {
    (!labels.isEmpty && patch.labels != nil) || (!assignees.isEmpty && patch.assignee != nil)
  }
}

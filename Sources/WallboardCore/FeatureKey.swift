/// Who a feature is: its project and its id.
///
/// Upstream Orchestra's ids are random and unique only within a project (a real workspace holds
/// the same id in two projects, as different features or as a copy left with another status), so
/// the board keys every feature, its history, its filter state and its contributor by both. A
/// feature that names no project has the empty project.
public struct FeatureKey: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The project's id; empty for a feature that names none.
  public var project: String
  public var id: String

  /// `project` nil or empty is the feature without a project.
  public init(project: String? = nil, id: String) {
    self.project = project ?? ""
    self.id = id
  }

  /// A feature without a project (tests and examples: `state.features["FEAT-1"]`).
  public init(stringLiteral id: String) { self.init(id: id) }

  /// The project, nil when it names none.
  public var projectId: String? { project.isEmpty ? nil : project }

  /// `project/id`, or the bare id of a feature without a project: how sprints' member lists and
  /// `features=` name one feature of one project.
  public var qualified: String { project.isEmpty ? id : project + "/" + id }

  public var description: String { qualified }

  /// By project, then by id.
  public static func < (a: FeatureKey, b: FeatureKey) -> Bool {
    a.project != b.project ? a.project < b.project : a.id < b.id
  }
}

extension Feature {
  /// The feature's identity: its project and its id.
  public var key: FeatureKey { FeatureKey(project: projectId, id: id) }
}

/// The projects that hold a feature id, for events that name a feature by its id alone.
///
/// Kept by the reducer beside `features` and the filter's hidden features (derived from their
/// keys, never encoded): only ids held in some project are listed.
package struct ProjectsById: Hashable, Sendable {
  private(set) var byId: [String: [String]] = [:]

  /// The projects (sorted) that hold `id`; empty when none does.
  func projects(of id: String) -> [String] { byId[id] ?? [] }

  package mutating func insert(_ key: FeatureKey) {
    guard !key.project.isEmpty else { return }
    var list = byId[key.id] ?? []
    guard !list.contains(key.project) else { return }
    list.append(key.project)
    if list.count > 1 { list.sort() }
    byId[key.id] = list
  }

  mutating func remove(_ key: FeatureKey) {
    guard !key.project.isEmpty, var list = byId[key.id] else { return }
    list.removeAll { $0 == key.project }
    byId[key.id] = list.isEmpty ? nil : list
  }
}

extension BoardState {
  /// The projects (sorted) that hold a feature of id `id`, filtered-out features included.
  public func projects(holding id: String) -> [String] { projectsById.projects(of: id) }

  /// How a list names a feature: its bare id, or `project/id` when another project holds the
  /// same id (so that two features never read as one).
  public func shownId(_ key: FeatureKey) -> String {
    guard !key.project.isEmpty else { return key.id }
    let holders = projectsById.projects(of: key.id)
    let shared = holders.count > 1 || features[FeatureKey(id: key.id)] != nil || hidden[FeatureKey(id: key.id)] != nil
    return shared ? key.qualified : key.id
  }
}

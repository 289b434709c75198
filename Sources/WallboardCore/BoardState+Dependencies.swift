extension BoardState {
  /// One entry of a feature's `depends_on`, resolved.
  public struct Dependency: Hashable, Sendable {
    /// The entry as the feature wrote it.
    public var written: String
    /// The feature it names: within the depending feature's project for a bare id, another
    /// project's for `project/id`.
    public var key: FeatureKey
    /// Whether the board holds that feature (filtered-out features count as held: they exist).
    public var known: Bool
  }

  /// The features `key` waits on, in the order written, each resolved within `key`'s project.
  ///
  /// Ids are unique only within a project, so a bare id never reaches into another project, even
  /// when only another project holds it: that entry is unknown, not guessed. `project/id` names
  /// another project's feature; an id that itself holds a `/` is taken whole first when the
  /// project holds it. Empty entries and repeats are skipped.
  public func dependencies(of key: FeatureKey) -> [Dependency] {
    guard let f = features[key] ?? hidden[key]?.feature else { return [] }
    var out: [Dependency] = []
    var seen: Set<FeatureKey> = []
    for entry in f.dependsOn where !entry.isEmpty {
      let target = resolveDependency(entry, from: key)
      guard seen.insert(target).inserted else { continue }
      out.append(Dependency(written: entry, key: target, known: holds(target)))
    }
    return out
  }

  private func holds(_ key: FeatureKey) -> Bool { features[key] != nil || hidden[key] != nil }

  private func resolveDependency(_ entry: String, from key: FeatureKey) -> FeatureKey {
    let local = FeatureKey(project: key.projectId, id: entry)
    guard let slash = entry.firstIndex(of: "/"), !holds(local) else { return local }
    let project = entry[..<slash]
    let id = entry[entry.index(after: slash)...]
    guard !project.isEmpty, !id.isEmpty else { return local }
    return FeatureKey(project: String(project), id: String(id))
  }
}

/// The board's door: `settings.filter` applied to every feature event, once, so that every
/// projection, tally and `inspect` see only the features that match. Internal to the reducer.
///
/// A feature that stops matching (its labels, project or assignee changed, or a snapshot says so)
/// leaves the board as if deleted — its history records it gone — and waits in `hidden`; one that
/// starts matching enters whole, as if created then. Events about hidden features change only
/// `hidden`.
extension BoardState {
  /// Applies a feature event through the filter. Returns nil when the event should take the
  /// ordinary path (it concerns a feature that matches before and after, or no feature).
  mutating func applyThroughFilter(_ event: Event) -> Outcome? {
    let filter = settings.filter
    switch event.body {
    case .featureCreated(let f):
      let wasHidden = removeHidden(f.key) != nil
      if filter.matches(f) { return nil }
      var g = f
      // As the ordinary path would: a feature new to the board is created now.
      if !wasHidden, features[f.key] == nil, g.createdAt == nil { g.createdAt = event.time }
      leave(f.key, at: event.time)
      return hide(g, origin: event.origin)
    case .featureUpdated(let patch):
      let key = FeatureKey(project: patch.projectId ?? nil, id: patch.id)
      if var f = features[key] {
        guard filter.mayMove(patch) else { return nil }
        patch.apply(to: &f)
        if filter.matches(f) { return nil }
        let origin = contributions.features[key] ?? event.origin
        leave(key, at: event.time)
        return hide(f, origin: origin)
      }
      if var h = hidden[key] {
        patch.apply(to: &h.feature)
        if filter.matches(h.feature) { return enter(h, at: event.time) }
        hidden[key] = h
        return .applied
      }
      var f = newFeature(key)
      patch.apply(to: &f)
      return filter.matches(f) ? nil : hide(f, origin: event.origin)
    case .workflowTransitioned(let id, let to, _, _, let project):
      let key = FeatureKey(project: project, id: id)
      if hidden[key] != nil {
        hidden[key]!.feature.status = to
        return .applied
      }
      if features[key] != nil { return nil }
      var f = newFeature(key)
      f.status = to
      return filter.matches(f) ? nil : hide(f, origin: event.origin)
    case .featureDeleted(let id, let project):
      return removeHidden(FeatureKey(project: project, id: id)) == nil ? nil : .applied
    case .boardSnapshot(var snap):
      // The snapshot replaces what its source contributed, hidden features too.
      for (key, h) in hidden where h.origin == event.origin { _ = removeHidden(key) }
      var shown: [Feature] = []
      shown.reserveCapacity(snap.features.count)
      for f in snap.features {
        if filter.matches(f) {
          shown.append(f)
          continue
        }
        // One on the board from another source leaves now; this source's leave as the
        // snapshot's absent features do.
        if contributions.features[f.key] != event.origin { leave(f.key, at: event.time) }
        _ = hide(f, origin: event.origin)
      }
      snap.features = shown
      return applySnapshot(snap, event: event)
    default:
      return nil
    }
  }

  /// Takes a feature off the board as a delete does: its history records it gone.
  mutating func leave(_ key: FeatureKey, at time: Instant) {
    guard let f = removeFeature(key) else { return }
    contributions.features[key] = nil
    record(f, exists: false, at: time, membershipMayMove: true)
    pruneHistory(of: key)
  }

  /// Takes a feature out of the hidden ones, keeping `projectsById` in step.
  mutating func removeHidden(_ key: FeatureKey) -> HiddenFeature? {
    guard let h = hidden.removeValue(forKey: key) else { return nil }
    if features[key] == nil { projectsById.remove(key) }
    return h
  }

  /// Keeps a feature that does not match off the board, within the feature limit.
  mutating func hide(_ f: Feature, origin: String) -> Outcome {
    if hidden[f.key] == nil && hidden.count >= limits.maxFeatures {
      return .ignored(.featureLimit(limit: limits.maxFeatures, f.key, hidden: true))
    }
    if hidden.updateValue(HiddenFeature(feature: f, origin: origin), forKey: f.key) == nil {
      projectsById.insert(f.key)
    }
    return .applied
  }

  /// Brings a hidden feature that now matches onto the board, as if created at `time`.
  mutating func enter(_ h: HiddenFeature, at time: Instant) -> Outcome {
    _ = removeHidden(h.feature.key)
    var f = h.feature
    if f.createdAt == nil { f.createdAt = time }
    let outcome = upsert(f, old: nil, at: time, membershipMayMove: true)
    if case .applied = outcome { contributions.features[f.key] = h.origin }
    return outcome
  }

  /// How many features the filter keeps off the board now.
  public var hiddenCount: Int { hidden.count }

  /// The projects of every feature the sources delivered, on the board or kept off it by the
  /// filter: what a `--project` can match.
  public var heldProjects: Set<String> {
    var out = Set(features.values.compactMap(\.projectId))
    for h in hidden.values { if let p = h.feature.projectId { out.insert(p) } }
    return out
  }
}

/// A feature the filter keeps off the board, and the source that contributed it.
package struct HiddenFeature: Hashable, Sendable {
  package var feature: Feature
  package var origin: String

  package init(feature: Feature, origin: String) {
    self.feature = feature
    self.origin = origin
  }
}

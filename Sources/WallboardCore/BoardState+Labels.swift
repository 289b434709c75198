/// Membership by label (`Sprint.membershipLabel`): the index the reducer keeps of it, and the
/// history it records when a sprint's label changes. Internal to the reducer.
extension BoardState {
  /// Moves sprint `id` from one membership label to another and records every feature that
  /// carries either, so that history knows from `time` on who is a member.
  ///
  /// Recorded even on a snapshot's path: the features are another source's, which that
  /// snapshot does not record.
  mutating func relabel(_ id: String, from old: String?, to new: String?, at time: Instant) {
    if let old { unlabel(id, from: old) }
    if let new {
      var ids = labelSprints[new] ?? []
      if !ids.contains(id) {
        ids.append(id)
        ids.sort()
      }
      labelSprints[new] = ids
    }
    let labels = Set([old, new].compactMap { $0 })
    let carriers = features.values.filter { f in f.labels.contains(where: labels.contains) }
    for f in carriers.sorted(by: { $0.key < $1.key }) {
      record(f, exists: true, at: time, membershipMayMove: true)
    }
  }

  /// Forgets that sprint `id` takes its members by `label`.
  mutating func unlabel(_ id: String, from label: String) {
    labelSprints[label]?.removeAll { $0 == id }
    if labelSprints[label]?.isEmpty == true { labelSprints[label] = nil }
  }
}

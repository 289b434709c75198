/// Applies one event's body to a state it owns uniquely. Internal to the reducer.
struct Applier {
  var state: BoardState
  let event: Event

  init(state: BoardState, event: Event) {
    self.state = state
    self.event = event
  }

  var limits: BoardSettings.Limits { state.settings.limits }

  mutating func apply() -> Outcome {
    switch event.body {
    case .featureCreated(let f):
      let existing = state.features[f.id]
      var g = f
      if existing == nil, g.createdAt == nil { g.createdAt = event.time }
      return upsert(g, replacing: existing, time: event.time)
    case .featureUpdated(let patch):
      let existing = state.features[patch.id]
      var f = existing ?? newFeature(patch.id)
      patch.apply(to: &f)
      return upsert(f, replacing: existing, time: event.time)
    case .workflowTransitioned(let id, let to, _, let at):
      let existing = state.features[id]
      var f = existing ?? newFeature(id)
      f.status = to
      return upsert(f, replacing: existing, time: at ?? event.time)
    case .featureDeleted(let id):
      guard let f = state.features.removeValue(forKey: id) else {
        return .ignored("feature.deleted: unknown feature \(id)")
      }
      record(f, exists: false, at: event.time)
      pruneHistory(of: id)
      return .applied
    case .workflowDefined(let projectId, let workflow):
      state.workflows[projectId ?? ""] = workflow
      return .applied
    case .sprintCreated(let s):
      var sprint = s
      if let old = state.sprints[s.id] {
        sprint.startedAt = sprint.startedAt ?? old.startedAt
        sprint.closedAt = sprint.closedAt ?? old.closedAt
      }
      put(sprint)
      return .applied
    case .sprintStarted(let id, let startedAt, let patch):
      guard var s = state.sprints[id] else {
        return .ignored("sprint.started: unknown sprint \(id)")
      }
      patch.apply(to: &s)
      if let t = startedAt { s.startedAt = t } else if s.startedAt == nil { s.startedAt = event.time }
      put(s)
      return .applied
    case .sprintScopeChanged(let id, let added, let removed):
      guard var s = state.sprints[id] else {
        return .ignored("sprint.scope_changed: unknown sprint \(id)")
      }
      let gone = Set(removed)
      s.featureIds.removeAll { gone.contains($0) }
      for f in added where !s.featureIds.contains(f) { s.featureIds.append(f) }
      put(s)
      return .applied
    case .sprintClosed(let id, let closedAt):
      guard state.sprints[id] != nil else {
        return .ignored("sprint.closed: unknown sprint \(id)")
      }
      state.sprints[id]!.closedAt = closedAt ?? event.time
      return .applied
    case .boardSnapshot(let snapshot):
      return applySnapshot(snapshot)
    case .heartbeat:
      return .applied
    case .unknown:
      return .ignored(nil)
    }
  }

  func newFeature(_ id: String) -> Feature {
    Feature(id: id, status: state.settings.workflow.initialState)
  }

  /// Creates or replaces a feature and records the change in its history.
  mutating func upsert(_ f: Feature, replacing existing: Feature?, time: Instant) -> Outcome {
    let id = f.id
    if existing == nil && state.features.count >= limits.maxFeatures {
      return .ignored("feature limit of \(limits.maxFeatures) reached: \(id) not added")
    }
    state.features[id] = f
    noteStatus(f.status)
    if let old = existing, old.status != f.status {
      state.recent.append(Transition(featureId: id, title: f.title, from: old.status, to: f.status, at: time))
      if state.recent.count > limits.recentTransitions { state.recent.removeFirst() }
    } else if existing == nil {
      state.recent.append(Transition(featureId: id, title: f.title, from: nil, to: f.status, at: time))
      if state.recent.count > limits.recentTransitions { state.recent.removeFirst() }
    }
    let membershipChanged =
      existing == nil || existing!.sprintId != f.sprintId || existing!.labels != f.labels
    record(f, exists: true, at: time, reuseMembership: !membershipChanged)
    return .applied
  }

  mutating func noteStatus(_ s: String) {
    if state.statusSeen.insert(s).inserted { state.statusOrder.append(s) }
  }

  /// Appends a version when the feature's burndown facts changed. Versions never go back in
  /// time: an event older than the feature's last version is recorded at that version's time.
  mutating func record(_ f: Feature, exists: Bool, at time: Instant, reuseMembership: Bool = false) {
    var h = state.history.removeValue(forKey: f.id) ?? FeatureHistory()
    let last = h.versions.last
    let sprints =
      reuseMembership && last != nil && last!.exists ? last!.sprints : state.membership(of: f)
    let t = max(time, last?.at ?? time)
    let v = FeatureVersion(
      at: t, status: f.status, points: f.points, estimate: f.estimate, sprints: sprints,
      exists: exists)
    if let last, last.sameFacts(as: v) {
      state.history[f.id] = h
      return
    }
    if let last, last.at == t {
      h.versions[h.versions.count - 1] = v
    } else {
      h.versions.append(v)
      if h.versions.count > limits.maxVersionsPerFeature {
        // Drop the oldest quarter at once, so the cost is amortised over many events.
        h.versions.removeFirst(h.versions.count - limits.maxVersionsPerFeature * 3 / 4)
      }
    }
    state.history[f.id] = h
  }

  /// Stores a sprint, keeps the explicit-membership index in step and records the members
  /// whose membership changed.
  mutating func put(_ s: Sprint) {
    let before = Set(state.sprints[s.id]?.featureIds ?? [])
    let after = Set(s.featureIds)
    if state.sprints[s.id] == nil { state.sprintOrder.append(s.id) }
    state.sprints[s.id] = s
    for id in before.subtracting(after) {
      state.explicitSprints[id]?.removeAll { $0 == s.id }
      if state.explicitSprints[id]?.isEmpty == true { state.explicitSprints[id] = nil }
    }
    for id in after.subtracting(before) {
      state.explicitSprints[id, default: []].append(s.id)
    }
    for id in before.symmetricDifference(after).sorted() {
      if let f = state.features[id] { record(f, exists: true, at: event.time) }
    }
    trimSprints()
  }

  /// Keeps at most `maxSprints`, dropping the oldest closed ones first.
  mutating func trimSprints() {
    while state.sprintOrder.count > limits.maxSprints {
      let victim = state.sprintOrder.first { state.sprints[$0]?.closedAt != nil } ?? state.sprintOrder[0]
      state.sprintOrder.removeAll { $0 == victim }
      if let s = state.sprints.removeValue(forKey: victim) {
        for id in s.featureIds {
          state.explicitSprints[id]?.removeAll { $0 == victim }
          if state.explicitSprints[id]?.isEmpty == true { state.explicitSprints[id] = nil }
        }
      }
    }
  }

  /// Forgets the history of a deleted feature that no kept sprint refers to.
  mutating func pruneHistory(of id: String) {
    guard state.features[id] == nil, state.explicitSprints[id] == nil else { return }
    let referenced = state.history[id]?.versions.contains { v in
      v.sprints.contains { state.sprints[$0] != nil }
    } ?? false
    if !referenced { state.history[id] = nil }
  }

  /// Replaces the board with an authoritative snapshot; keeps history, never rolls back.
  mutating func applySnapshot(_ snap: BoardSnapshot) -> Outcome {
    let key = SeqKey(origin: event.origin, publisher: event.publisher ?? "")
    if let seq = snap.seq {
      if let c = state.cursors[key], seq < c.lastSeq, event.seq == nil {
        return .ignored("board.snapshot at seq \(seq) is older than seq \(c.lastSeq) already applied")
      }
      state.cursors[key] = SeqCursor(lastSeq: max(seq, state.cursors[key]?.lastSeq ?? seq), needsResync: false)
    } else if state.cursors[key] != nil {
      state.cursors[key]!.needsResync = false
    }
    state.origins[event.origin, default: OriginState()].needsResync = false

    // Sprints: replace, keeping start/close moments the snapshot does not carry.
    let incoming = Set(snap.sprints.map(\.id))
    for id in state.sprintOrder where !incoming.contains(id) {
      if let s = state.sprints.removeValue(forKey: id) {
        for f in s.featureIds {
          state.explicitSprints[f]?.removeAll { $0 == id }
          if state.explicitSprints[f]?.isEmpty == true { state.explicitSprints[f] = nil }
        }
      }
    }
    state.sprintOrder.removeAll { !incoming.contains($0) }
    for var s in snap.sprints.prefix(limits.maxSprints) {
      if let old = state.sprints[s.id] {
        s.startedAt = s.startedAt ?? old.startedAt
        s.closedAt = s.closedAt ?? old.closedAt
      }
      putQuietly(s)
    }
    if !snap.workflows.isEmpty {
      state.workflows = [:]
      for d in snap.workflows { state.workflows[d.projectId ?? ""] = d.workflow }
    }
    state.activeSprintId = snap.activeSprintId

    // Features: replace; the absent ones are recorded as gone.
    let present = Set(snap.features.map(\.id))
    for (id, f) in state.features where !present.contains(id) {
      state.features[id] = nil
      record(f, exists: false, at: event.time)
    }
    for f in snap.features.prefix(limits.maxFeatures) {
      if let old = state.features[f.id], old.status != f.status {
        state.recent.append(Transition(featureId: f.id, title: f.title, from: old.status, to: f.status, at: event.time))
        if state.recent.count > limits.recentTransitions { state.recent.removeFirst() }
      }
      state.features[f.id] = f
      noteStatus(f.status)
    }
    // Membership may have moved for anyone listed by a sprint or a feature: record all present.
    for f in snap.features.prefix(limits.maxFeatures) {
      record(f, exists: true, at: event.time)
    }
    for id in state.history.keys where state.features[id] == nil { pruneHistory(of: id) }
    return .applied
  }

  /// Stores a sprint and its explicit-membership index without recording versions (the
  /// snapshot records every feature afterwards).
  mutating func putQuietly(_ s: Sprint) {
    let before = Set(state.sprints[s.id]?.featureIds ?? [])
    if state.sprints[s.id] == nil { state.sprintOrder.append(s.id) }
    state.sprints[s.id] = s
    let after = Set(s.featureIds)
    for id in before.subtracting(after) {
      state.explicitSprints[id]?.removeAll { $0 == s.id }
      if state.explicitSprints[id]?.isEmpty == true { state.explicitSprints[id] = nil }
    }
    for id in after.subtracting(before) { state.explicitSprints[id, default: []].append(s.id) }
  }
}

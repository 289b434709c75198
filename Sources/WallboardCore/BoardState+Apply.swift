/// Applying one event's body. Internal to the reducer: call `Reducer.reduce(into:_:)`.
extension BoardState {
  var limits: BoardSettings.Limits { settings.limits }

  mutating func apply(_ original: Event) -> Outcome {
    let event: Event
    switch resolved(original) {
    case .resolved(let e): event = e
    case .unresolved(let reason): return .ignored(reason)
    }
    if !settings.filter.isEmpty, let outcome = applyThroughFilter(event) { return outcome }
    let outcome = applyBody(event)
    if case .applied = outcome { noteContribution(event) }
    return outcome
  }

  /// Who contributed what: whatever creates a feature, sprint or workflow makes its source their
  /// contributor (a change to one keeps it); a delete forgets it.
  mutating func noteContribution(_ event: Event) {
    let origin = event.origin
    switch event.body {
    case .featureCreated(let f): contributions.features[f.key] = origin
    case .featureUpdated(let p):
      let key = FeatureKey(project: p.projectId ?? nil, id: p.id)
      if contributions.features[key] == nil { contributions.features[key] = origin }
    case .workflowTransitioned(let id, _, _, _, let project):
      let key = FeatureKey(project: project, id: id)
      if contributions.features[key] == nil { contributions.features[key] = origin }
    case .featureDeleted(let id, let project): contributions.features[FeatureKey(project: project, id: id)] = nil
    case .sprintCreated(let s): contributions.sprints[s.id] = origin
    case .workflowDefined(let projectId, _): contributions.workflows[projectId ?? ""] = origin
    default: break
    }
  }

  mutating func applyBody(_ event: Event) -> Outcome {
    switch event.body {
    case .featureCreated(let f):
      let old = features[f.key]
      var g = f
      if old == nil, g.createdAt == nil { g.createdAt = event.time }
      return upsert(g, old: old, at: event.time, membershipMayMove: true)
    case .featureUpdated(let patch):
      let key = FeatureKey(project: patch.projectId ?? nil, id: patch.id)
      guard let index = features.index(forKey: key) else {
        var f = newFeature(key)
        patch.apply(to: &f)
        return upsert(f, old: nil, at: event.time, membershipMayMove: true)
      }
      // The common case, a change to a known feature: patch it in place.
      let oldStatus = features.values[index].status
      patch.apply(to: &features.values[index])
      let f = features.values[index]
      if oldStatus != f.status {
        noteStatus(f.status)
        noteTransition(f, from: oldStatus, at: event.time)
      }
      record(
        f, exists: true, at: event.time, membershipMayMove: patch.labels != nil || patch.sprintId != nil,
        pointsMayChange: patch.points != nil || patch.estimate != nil)
      return .applied
    case .workflowTransitioned(let id, let to, _, let at, let project):
      let key = FeatureKey(project: project, id: id)
      let old = features[key]
      var f = old ?? newFeature(key)
      f.status = to
      return upsert(f, old: old, at: at ?? event.time, membershipMayMove: old == nil)
    case .featureDeleted(let id, let project):
      let key = FeatureKey(project: project, id: id)
      guard let f = removeFeature(key) else {
        return .ignored(.unknownFeature(topic: "feature.deleted", key))
      }
      record(f, exists: false, at: event.time, membershipMayMove: true)
      pruneHistory(of: key)
      return .applied
    case .workflowDefined(let projectId, let workflow):
      workflows[projectId ?? ""] = workflow
      return .applied
    case .sprintCreated(var sprint):
      if let problem = sprintProblem(sprint) { return .ignored(.badSprint(topic: "sprint.created", problem)) }
      if let old = sprints[sprint.id] {
        sprint.startedAt = sprint.startedAt ?? old.startedAt
        sprint.closedAt = sprint.closedAt ?? old.closedAt
      }
      put(sprint, at: event.time)
      return .applied
    case .sprintStarted(let id, let startedAt, let patch):
      guard var s = sprints[id] else { return .ignored(.unknownSprint(topic: "sprint.started", id: id)) }
      patch.apply(to: &s)
      if let problem = sprintProblem(s) { return .ignored(.badSprint(topic: "sprint.started", problem)) }
      if let t = startedAt { s.startedAt = t } else if s.startedAt == nil { s.startedAt = event.time }
      put(s, at: event.time)
      return .applied
    case .sprintScopeChanged(let id, let added, let removed):
      guard var s = sprints[id] else { return .ignored(.unknownSprint(topic: "sprint.scope_changed", id: id)) }
      let gone = Set(removed)
      s.featureIds.removeAll { gone.contains($0) }
      for f in added where !s.featureIds.contains(f) { s.featureIds.append(f) }
      put(s, at: event.time)
      return .applied
    case .sprintClosed(let id, let closedAt):
      guard sprints[id] != nil else { return .ignored(.unknownSprint(topic: "sprint.closed", id: id)) }
      sprints[id]!.closedAt = closedAt ?? event.time
      return .applied
    case .boardSnapshot(let snapshot):
      return applySnapshot(snapshot, event: event)
    case .heartbeat:
      return .applied
    case .agentLocks(let locks):
      takeLocks(locks, from: event.origin)
      return .applied
    case .unknown:
      return .ignored(nil)
    }
  }

  func newFeature(_ key: FeatureKey) -> Feature {
    Feature(id: key.id, projectId: key.projectId, status: workflow(forProject: key.projectId).initialState)
  }

  /// Puts a feature on the board under its key, keeping `projectsById` in step.
  mutating func putFeature(_ f: Feature) {
    let key = f.key
    if features.updateValue(f, forKey: key) == nil { projectsById.insert(key) }
  }

  /// Takes a feature off the board, keeping `projectsById` in step.
  mutating func removeFeature(_ key: FeatureKey) -> Feature? {
    guard let f = features.removeValue(forKey: key) else { return nil }
    if hidden[key] == nil { projectsById.remove(key) }
    return f
  }

  /// Why a sprint cannot be kept: it ends before it starts, or lasts longer than the limit (a
  /// burndown has a day per calendar day).
  package func sprintProblem(_ s: Sprint) -> SprintProblem? {
    let days = s.endDate.daysSinceEpoch - s.startDate.daysSinceEpoch + 1
    if days < 1 { return .endsBeforeStart(id: s.id, start: s.startDate, end: s.endDate) }
    if days > limits.maxSprintDays {
      return .tooLong(id: s.id, days: days, start: s.startDate, end: s.endDate, limit: limits.maxSprintDays)
    }
    return nil
  }

  /// Creates or replaces a feature and records the change in its history.
  mutating func upsert(_ f: Feature, old: Feature?, at time: Instant, membershipMayMove: Bool) -> Outcome {
    if old == nil && features.count >= limits.maxFeatures {
      return .ignored(.featureLimit(limit: limits.maxFeatures, f.key, hidden: false))
    }
    putFeature(f)
    noteStatus(f.status)
    if old?.status != f.status { noteTransition(f, from: old?.status, at: time) }
    record(f, exists: true, at: time, membershipMayMove: membershipMayMove)
    return .applied
  }

  mutating func noteStatus(_ s: String) {
    if statusSeen.insert(s).inserted { statusOrder.append(s) }
  }

  mutating func noteTransition(_ f: Feature, from: String?, at time: Instant) {
    recentBuffer.append(
      Transition(featureId: f.id, project: f.projectId, title: f.title, from: from, to: f.status, at: time))
    // Trim in halves so the cost is amortised.
    if recentBuffer.count >= 2 * limits.recentTransitions {
      recentBuffer.removeFirst(recentBuffer.count - limits.recentTransitions)
    }
  }

  /// Appends a version when the feature's burndown facts changed. Versions never go back in
  /// time: an event older than the feature's last version is recorded at that version's time.
  mutating func record(
    _ f: Feature, exists: Bool, at time: Instant, membershipMayMove: Bool, pointsMayChange: Bool = true
  ) {
    let cap = limits.maxVersionsPerFeature
    let scale = settings.estimateScale
    let key = f.key
    let explicit = membershipMayMove ? listedIn(key) : nil
    let named = membershipMayMove || history[key]?.versions.last?.exists != true ? namedSprints(of: f) : []
    BoardState.modify(&history[key, default: FeatureHistory()]) { h in
      let last = h.versions.last
      let sprints: [String]
      if !membershipMayMove, let last, last.exists {
        sprints = last.sprints
      } else {
        sprints = BoardState.membership(explicit: explicit, own: named)
      }
      let points: Double?
      if !pointsMayChange, let last {
        points = last.points
      } else {
        points = scale.points(points: f.points, estimate: f.estimate)
      }
      let t = max(time, last?.at ?? time)
      let v = FeatureVersion(at: t, status: f.status, points: points, sprints: sprints, exists: exists)
      if let last, last.sameFacts(as: v) { return }
      if let last, last.at == t {
        h.versions[h.versions.count - 1] = v
        return
      }
      h.versions.append(v)
      if h.versions.count > cap {
        // Drop the oldest quarter at once, so the cost is amortised over many events.
        h.versions.removeFirst(h.versions.count - cap * 3 / 4)
      }
    }
  }

  static func modify<T>(_ value: inout T, _ body: (inout T) -> Void) { body(&value) }

  /// Stores a sprint, keeps the explicit-membership index in step and records the members
  /// whose membership changed.
  mutating func put(_ s: Sprint, at time: Instant, recordMembers: Bool = true) {
    let before = Set(sprints[s.id]?.featureIds ?? [])
    let after = Set(s.featureIds)
    let oldLabel = sprints[s.id]?.membershipLabel
    if sprints[s.id] == nil { sprintOrder.append(s.id) }
    sprints[s.id] = s
    if oldLabel != s.membershipLabel { relabel(s.id, from: oldLabel, to: s.membershipLabel, at: time) }
    for id in before.subtracting(after) { unlist(id, from: s.id) }
    for id in after.subtracting(before) { explicitSprints[id, default: []].append(s.id) }
    if recordMembers {
      for member in before.symmetricDifference(after).sorted() {
        for key in featureKeys(listedAs: member) {
          if let f = features[key] { record(f, exists: true, at: time, membershipMayMove: true) }
        }
      }
    }
    trimSprints()
  }

  mutating func unlist(_ featureId: String, from sprintId: String) {
    explicitSprints[featureId]?.removeAll { $0 == sprintId }
    if explicitSprints[featureId]?.isEmpty == true { explicitSprints[featureId] = nil }
  }

  mutating func removeSprint(_ id: String) {
    sprintOrder.removeAll { $0 == id }
    contributions.sprints[id] = nil
    if let s = sprints.removeValue(forKey: id) {
      for f in s.featureIds { unlist(f, from: id) }
      if let label = s.membershipLabel { unlabel(id, from: label) }
    }
  }

  /// Keeps at most `maxSprints`, dropping the oldest closed ones first.
  mutating func trimSprints() {
    while sprintOrder.count > limits.maxSprints {
      removeSprint(sprintOrder.first { sprints[$0]?.closedAt != nil } ?? sprintOrder[0])
    }
  }

  /// The features a sprint's member list names by `member`: `project/id` names that project's
  /// feature, a bare id the feature of that id in every project (and one without a project).
  func featureKeys(listedAs member: String) -> [FeatureKey] {
    var keys = [FeatureKey(id: member)]
    for p in projectsById.projects(of: member) { keys.append(FeatureKey(project: p, id: member)) }
    if let slash = member.firstIndex(of: "/"), slash != member.startIndex, member.index(after: slash) != member.endIndex
    {
      keys.append(FeatureKey(project: String(member[..<slash]), id: String(member[member.index(after: slash)...])))
    }
    return keys
  }

  /// Forgets the history of a deleted feature that no kept sprint refers to.
  mutating func pruneHistory(of key: FeatureKey) {
    guard features[key] == nil, listedIn(key) == nil else { return }
    let referenced =
      history[key]?.versions.contains { v in v.sprints.contains { sprints[$0] != nil } } ?? false
    if !referenced { history[key] = nil }
  }

  /// When a feature a snapshot carries last changed: its `updated_at`, never after the snapshot's
  /// own time (else that time).
  func changeTime(_ f: Feature, _ event: Event) -> Instant {
    f.updatedAt.map { min($0, event.time) } ?? event.time
  }

  /// Puts transitions a snapshot told of (its backfilled past) among the recent ones by their
  /// time, the newest `recentTransitions` of them at most.
  mutating func noteTold(_ told: [Transition]) {
    guard !told.isEmpty else { return }
    let newest = told.sorted { $0.at < $1.at }.suffix(limits.recentTransitions)
    var merged: [Transition] = []
    merged.reserveCapacity(recentBuffer.count + newest.count)
    var i = recentBuffer.startIndex
    for t in newest {
      while i < recentBuffer.endIndex && recentBuffer[i].at <= t.at {
        merged.append(recentBuffer[i])
        i += 1
      }
      merged.append(t)
    }
    merged.append(contentsOf: recentBuffer[i...])
    recentBuffer = Array(merged.suffix(limits.recentTransitions))
  }

  /// Replaces what the snapshot's own source contributed with the snapshot (other sources' features,
  /// sprints and workflows stay); keeps history. Whether it is stale was decided by the reducer.
  mutating func applySnapshot(_ snap: BoardSnapshot, event: Event) -> Outcome {
    let origin = event.origin
    func mine(_ owner: String?) -> Bool { owner == origin }

    // Sprints: replace this source's, keeping start and close moments the snapshot does not carry.
    // The members a list no longer or newly names may be another source's features, which this
    // snapshot does not record: they are recorded below (declared sprints changed on a restart).
    let incoming = Set(snap.sprints.map(\.id))
    var listed: Set<String> = []
    var moved: Set<FeatureKey> = []
    for id in sprintOrder where mine(contributions.sprints[id]) && !incoming.contains(id) {
      listed.formUnion(sprints[id]?.featureIds ?? [])
      if let label = sprints[id]?.membershipLabel {
        for f in features.values where f.labels.contains(label) { moved.insert(f.key) }
      }
      removeSprint(id)
    }
    for var s in snap.sprints.prefix(limits.maxSprints) where sprintProblem(s) == nil {
      if let old = sprints[s.id] {
        s.startedAt = s.startedAt ?? old.startedAt
        s.closedAt = s.closedAt ?? old.closedAt
      }
      listed.formUnion(Set(sprints[s.id]?.featureIds ?? []).symmetricDifference(s.featureIds))
      put(s, at: event.time, recordMembers: false)
      contributions.sprints[s.id] = origin
    }
    for member in listed { moved.formUnion(featureKeys(listedAs: member)) }
    if !snap.workflows.isEmpty {
      for (key, owner) in contributions.workflows where mine(owner) {
        workflows[key] = nil
        contributions.workflows[key] = nil
      }
      for d in snap.workflows {
        workflows[d.projectId ?? ""] = d.workflow
        contributions.workflows[d.projectId ?? ""] = origin
      }
    }
    if let id = snap.activeSprintId {
      activeSprintId = id
      contributions.activeSprint = origin
    } else if mine(contributions.activeSprint) {
      activeSprintId = nil
      contributions.activeSprint = nil
    }

    // Features: replace this source's; its absent ones are recorded as gone.
    let present = Set(snap.features.map(\.key))
    for (key, owner) in contributions.features where mine(owner) && !present.contains(key) {
      contributions.features[key] = nil
      if let f = removeFeature(key) {
        record(f, exists: false, at: event.time, membershipMayMove: true)
      }
    }
    var kept: [Feature] = []
    kept.reserveCapacity(snap.features.count)
    for f in snap.features {
      let old = features[f.key]
      if old == nil && features.count >= limits.maxFeatures { continue }
      putFeature(f)
      contributions.features[f.key] = origin
      noteStatus(f.status)
      // Dated when the feature changed (its `updated_at`), not when the snapshot was taken.
      if let old, old.status != f.status { noteTransition(f, from: old.status, at: changeTime(f, event)) }
      kept.append(f)
    }
    // The past the snapshot tells, before each feature's present version; its moves are the
    // recent changes the board had not heard of.
    var earliest: Instant?
    if !snap.history.isEmpty {
      var told: [Transition] = []
      for f in kept {
        guard let moves = snap.history[f.key],
          let t = backfill(f, moves, before: event.time, changedAt: changeTime(f, event), told: &told)
        else { continue }
        earliest = min(earliest ?? t, t)
      }
      noteTold(told)
    }
    let from = earliest ?? event.time
    withOrigin(origin) { o in
      if o.historyFrom.map({ from < $0 }) ?? true { o.historyFrom = from }
    }
    // Membership may have moved for anyone: record every present feature, and the others the
    // sprints' lists moved.
    for f in kept { record(f, exists: true, at: event.time, membershipMayMove: true) }
    if !moved.isEmpty {
      let recorded = Set(kept.map(\.key))
      for key in moved.sorted() where !recorded.contains(key) {
        if let f = features[key] { record(f, exists: true, at: event.time, membershipMayMove: true) }
      }
    }
    for key in history.keys where features[key] == nil { pruneHistory(of: key) }
    return .applied
  }
}

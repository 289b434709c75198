import WallboardCore

extension EventDecoder {
  /// A workflow: `project_id`?, `states` [{`id`, `label`?, `terminal`?, `active_work`?, `done`?}]
  /// (non-empty, ids normalised and unique), `initial_state`? (one of the states).
  func workflowDefinition(_ f: Fields) throws(EventDecodingError) -> WorkflowDefinition {
    let projectId = try f.id("project_id")
    guard
      let entries = try f.objects("states", max: limits.maxWorkflowStates, required: true),
      !entries.isEmpty
    else { throw f.fail("states", "must not be empty") }
    var states: [WorkflowState] = []
    states.reserveCapacity(entries.count)
    var seen = Set<String>()
    for s in entries {
      let id = try s.requiredState("id")
      guard seen.insert(id).inserted else {
        throw s.fail("id", "duplicate state \(Fields.quoted(id))")
      }
      states.append(
        WorkflowState(
          id: id, label: try s.string("label", .other), terminal: try s.bool("terminal") ?? false,
          activeWork: try s.bool("active_work") ?? false, done: try s.bool("done")))
    }
    let initial = try f.state("initial_state")
    if let initial, !seen.contains(initial) {
      throw f.fail("initial_state", "\(Fields.quoted(initial)) is not one of the states")
    }
    return WorkflowDefinition(
      projectId: projectId, workflow: Workflow(states: states, initialState: initial))
  }

  /// A `board.snapshot` payload: `features`, `sprints`, `workflows`?, `active_sprint_id`?,
  /// `seq`?.
  func snapshot(_ f: Fields) throws(EventDecodingError) -> BoardSnapshot {
    var snap = BoardSnapshot()
    let features = try f.objects("features", max: limits.maxSnapshotFeatures, required: true) ?? []
    snap.features.reserveCapacity(features.count)
    for entry in features { snap.features.append(try feature(entry)) }
    let sprints = try f.objects("sprints", max: limits.maxSnapshotSprints, required: true) ?? []
    snap.sprints.reserveCapacity(sprints.count)
    for entry in sprints { snap.sprints.append(try sprint(entry)) }
    let workflows =
      try f.objects("workflows", max: limits.maxSnapshotWorkflows, required: false) ?? []
    for entry in workflows { snap.workflows.append(try workflowDefinition(entry)) }
    snap.activeSprintId = try f.id("active_sprint_id")
    snap.seq = try f.sequenceNumber("seq")
    return snap
  }
}

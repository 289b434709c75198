/// Finding the feature an event names.
///
/// An event names a feature by its id and, where the contract carries it, its project
/// (`project` or `project_id` beside `feature_id`). One that names no project keeps the
/// contract's older meaning, the feature of that id: the one without a project if the board has
/// it, else the one project that holds the id. When two projects hold it the event cannot say
/// which, and it is ignored with a reason that names them, never applied to a guess.
extension BoardState {
  /// What `resolved(_:)` made of an event.
  enum Resolution {
    /// The event with its feature's project filled in (unchanged when it named one, or names
    /// no feature).
    case resolved(Event)
    /// It names an id that more than one project holds, and no project.
    case unresolved(Ignored)
  }

  /// The feature an unqualified id names: see the type's comment. Nil when the id is ambiguous.
  func resolve(id: String) -> FeatureKey? {
    let bare = FeatureKey(id: id)
    if features[bare] != nil || hidden[bare] != nil { return bare }
    let projects = projectsById.projects(of: id)
    switch projects.count {
    case 0: return bare
    case 1: return FeatureKey(project: projects[0], id: id)
    default: return nil
    }
  }

  func ambiguity(_ topic: String, _ id: String) -> Ignored {
    .ambiguousFeature(topic: topic, id: id, projects: projectsById.projects(of: id))
  }

  func resolved(_ event: Event) -> Resolution {
    var e = event
    switch event.body {
    case .featureUpdated(var patch) where patch.projectId == nil:
      guard let key = resolve(id: patch.id) else { return .unresolved(ambiguity("feature.updated", patch.id)) }
      patch.projectId = .some(key.projectId)
      e.body = .featureUpdated(patch)
    case .workflowTransitioned(let id, let to, let from, let at, nil):
      guard let key = resolve(id: id) else { return .unresolved(ambiguity("workflow.transitioned", id)) }
      e.body = .workflowTransitioned(featureId: id, to: to, from: from, at: at, project: key.projectId)
    case .featureDeleted(let id, nil):
      guard let key = resolve(id: id) else { return .unresolved(ambiguity("feature.deleted", id)) }
      e.body = .featureDeleted(id: id, project: key.projectId)
    default:
      return .resolved(event)
    }
    return .resolved(e)
  }
}

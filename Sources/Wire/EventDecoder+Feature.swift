import WallboardCore

extension EventDecoder {
  /// A whole feature (`feature.created`, snapshot entries).
  func feature(_ f: Fields) throws(EventDecodingError) -> Feature {
    Feature(
      id: try f.requiredId("id"),
      projectId: try f.id("project_id"),
      title: try f.string("title", .text) ?? "",
      status: try f.state("status") ?? "backlog",
      priority: try f.string("priority", .other),
      kind: try f.string("kind", .other),
      assignee: try f.string("assignee", .other),
      labels: try f.strings("labels", .other, max: limits.maxLabels) ?? [],
      estimate: try f.estimate("estimate"),
      points: try f.points("points"),
      sprintId: try f.id("sprint_id"),
      createdAt: try f.instant("created_at"),
      updatedAt: try f.instant("updated_at"),
      dependsOn: try f.strings("depends_on", .other, max: limits.maxDependencies) ?? [])
  }

  /// The fields a `feature.updated` mentions: absent → `nil`; `null` clears the nullable ones
  /// and is an error for the others (`title`, `status`, `labels`, `depends_on`, `created_at`, `updated_at`).
  func featurePatch(_ f: Fields) throws(EventDecodingError) -> FeaturePatch {
    var p = FeaturePatch(id: try f.requiredId("id", or: "feature_id"))
    p.projectId = try f.project()
    p.title = try f.notNull("title") { (k) throws(EventDecodingError) in try f.string(k, .text) }
    p.status = try f.notNull("status") { (k) throws(EventDecodingError) in try f.state(k) }
    p.priority = try f.nullable("priority") { (k) throws(EventDecodingError) in
      try f.string(k, .other)
    }
    p.kind = try f.nullable("kind") { (k) throws(EventDecodingError) in try f.string(k, .other) }
    p.assignee = try f.nullable("assignee") { (k) throws(EventDecodingError) in
      try f.string(k, .other)
    }
    p.labels = try f.notNull("labels") { (k) throws(EventDecodingError) in
      try f.strings(k, .other, max: limits.maxLabels)
    }
    p.estimate = try f.nullable("estimate") { (k) throws(EventDecodingError) in
      try f.estimate(k)
    }
    p.points = try f.nullable("points") { (k) throws(EventDecodingError) in try f.points(k) }
    p.sprintId = try f.nullable("sprint_id") { (k) throws(EventDecodingError) in try f.id(k) }
    p.createdAt = try f.notNull("created_at") { (k) throws(EventDecodingError) in
      try f.instant(k)
    }
    p.updatedAt = try f.notNull("updated_at") { (k) throws(EventDecodingError) in
      try f.instant(k)
    }
    p.dependsOn = try f.notNull("depends_on") { (k) throws(EventDecodingError) in
      try f.strings(k, .other, max: limits.maxDependencies)
    }
    return p
  }
}

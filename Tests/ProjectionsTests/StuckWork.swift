import TestSupport
import WallboardCore

/// Short ways to build boards for the blocked, rework and aging tests.
enum Stuck {
  /// A feature of `project` created at `time` with `status` and dependencies.
  static func create(
    _ time: String, _ id: String, project: String?, status: String = "todo", dependsOn: [String] = [],
    assignee: String? = nil
  ) -> Event {
    Make.event(
      time,
      .featureCreated(
        Feature(
          id: id, projectId: project, title: "T \(id)", status: status, assignee: assignee, dependsOn: dependsOn)))
  }

  /// Moves `project`'s feature `id` to `status` at `time`.
  static func move(_ time: String, _ id: String, project: String?, _ status: String) -> Event {
    var p = FeaturePatch(id: id, status: status)
    p.projectId = .some(project)
    return Make.event(time, .featureUpdated(p))
  }

  /// The key of `project`'s `id`.
  static func key(_ project: String?, _ id: String) -> FeatureKey { FeatureKey(project: project, id: id) }
}

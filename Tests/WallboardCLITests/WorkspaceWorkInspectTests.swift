import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// Issue 26's `inspect` keys on workspaces in both stores, written as upstream's tools write them:
/// a database (moves with their audit-trail entries — gated, rejected, review — and change-log
/// rows, a dependency and an assignee set on the row) and a markdown tree (the same trails, ids
/// repeated across projects). Blocked, rework and aging lists are exact, compared whole.
@Suite("inspect: stuck and aging work in Orchestra workspaces", .serialized)
struct WorkspaceWorkInspectTests {
  static func database() throws -> (TempDir, String, OrchestraWorkspace) {
    let home = try TempDir("wallboard-home")
    let path = home.url.appendingPathComponent("team-ws").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let dbPath = EventSourcesLocator.hashed(home: home.url.path, workspace: path)
    try FileManager.default.createDirectory(
      atPath: (dbPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let db = try OrchestraWorkspace(at: dbPath)
    try db.project("web")
    return (home, path, db)
  }

  static func team(_ db: OrchestraWorkspace) throws {
    for id in ["FEAT-A", "FEAT-B", "FEAT-C", "FEAT-D", "FEAT-E", "FEAT-F"] {
      try db.write(id: id, status: "todo", at: "2026-11-01T09:00:00Z")
    }
    // A: to review, rejected, back to work, sent back again by a review.
    try db.advance(id: "FEAT-A", kind: "gated", to: "in-progress", at: "2026-11-02T10:00:00Z", text: "start")
    try db.advance(id: "FEAT-A", kind: "gated", to: "in-review", at: "2026-11-03T10:00:00Z", text: "ready")
    try db.advance(id: "FEAT-A", kind: "rejected", to: "needs-edits", at: "2026-11-04T10:00:00Z", text: "flaky")
    try db.advance(id: "FEAT-A", kind: "gated", to: "in-progress", at: "2026-11-05T10:00:00Z", text: "fixing")
    try db.advance(id: "FEAT-A", kind: "review", to: "needs-edits", at: "2026-11-06T10:00:00Z", text: "again")
    // B waits on C, which is at work.
    try db.writer.sql(
      "UPDATE features SET depends_on = ?, assignee = ? WHERE id = ?", ["[\"FEAT-C\"]", "ann", "FEAT-B"])
    try db.advance(id: "FEAT-C", kind: "gated", to: "in-progress", at: "2026-11-07T09:00:00Z", text: "go")
    // Done in 2 days and in half a day.
    try db.advance(id: "FEAT-D", kind: "gated", to: "in-progress", at: "2026-11-03T09:00:00Z", text: "go")
    try db.advance(id: "FEAT-D", kind: "gated", to: "in-review", at: "2026-11-04T09:00:00Z", text: "ready")
    try db.advance(id: "FEAT-D", kind: "review", to: "done", at: "2026-11-05T09:00:00Z", text: "ship it")
    try db.advance(id: "FEAT-E", kind: "gated", to: "in-progress", at: "2026-11-06T00:00:00Z", text: "go")
    try db.advance(id: "FEAT-E", kind: "review", to: "done", at: "2026-11-06T12:00:00Z", text: "fine")
    // F: in testing for a quarter of a day.
    try db.advance(id: "FEAT-F", kind: "gated", to: "in-progress", at: "2026-11-10T00:00:00Z", text: "go")
    try db.advance(id: "FEAT-F", kind: "gated", to: "in-testing", at: "2026-11-10T06:00:00Z", text: "tests")
  }

  @Test func theListsAndFiguresWhole() throws {
    let (home, path, db) = try Self.database()
    try Self.team(db)
    db.writer.stop()
    let r = WorkspaceInspectTests.run(
      [
        "inspect", "--source", "orchestra:\(path)", "--settle", "0.5", "--wait", "8", "--tz", "UTC", "--at",
        "2026-11-10T12:00:00Z",
      ], home: home.url.path)
    #expect(r.code == 0, "\(r.err)")
    guard case .object(let root)? = try? JSONParser.parse(r.out) else {
      Issue.record("not JSON: \(r.out.prefix(400))")
      return
    }
    let got = JSONValue.object(
      JSONObject(["blocked", "rework", "aging", "cycle_time", "forecast"].map { ($0, root[$0] ?? .null) }))
    // The forecast's P50 and P85: Tests/Forecast/forecast.py, done on the 5th and the 6th.
    let expected = try JSONParser.parse(
      """
      {"blocked": [{"feature_id": "FEAT-B", "project": "web", "title": "Feature FEAT-B", "assignee": "ann",
                    "state": "todo", "waits_on": ["FEAT-C"], "since": "2026-11-01T09:00:00Z"}],
       "rework": [{"feature_id": "FEAT-A", "project": "web", "title": "Feature FEAT-A", "assignee": null, "times": 2,
                   "since": "2026-11-06T10:00:00Z"}],
       "aging": [{"feature_id": "FEAT-A", "project": "web", "title": "Feature FEAT-A", "state": "needs-edits",
                  "age_days": 4.0, "in_progress_days": 8.0, "past_p85": true},
                 {"feature_id": "FEAT-C", "project": "web", "title": "Feature FEAT-C", "state": "in-progress",
                  "age_days": 3.1, "in_progress_days": 3.1, "past_p85": true},
                 {"feature_id": "FEAT-F", "project": "web", "title": "Feature FEAT-F", "state": "in-testing",
                  "age_days": 0.2, "in_progress_days": 0.5, "past_p85": false}],
       "cycle_time": {"p50_days": 0.5, "p85_days": 2, "samples": 2, "window_days": 90},
       "forecast": {"kind": "backlog", "days": 14, "p50_features": 3, "p85_features": 2, "sample_days": 6,
                    "sample_done": 2, "sampled_from": "2026-11-02", "sampled_through": "2026-11-09", "runs": 10000,
                    "seed": "6288516345106481490"}}
      """)
    #expect(got == expected, "\(got.serialized())")
  }

  /// A markdown feature file's front matter.
  static func front(
    _ id: String, _ project: String, status: String, updated: String, dependsOn: [String] = [],
    assignee: String? = nil
  ) -> [String: Any] {
    var f: [String: Any] = [
      "id": id, "project_id": project, "title": "\(project) \(id)", "description": "", "status": status,
      "priority": "P2", "version": 0, "created_at": "2026-11-01T09:00:00Z", "updated_at": updated,
    ]
    if !dependsOn.isEmpty { f["depends_on"] = dependsOn }
    if let assignee { f["assignee"] = assignee }
    return f
  }

  /// The same kind of team in a markdown tree, with ids repeated across two projects: web's
  /// FEAT-B waits on web's FEAT-C (at work), not on api's FEAT-C (done).
  @Test func aMarkdownTreeWithIdsRepeatedAcrossProjects() throws {
    let home = try TempDir("wallboard-home")
    let path = home.url.appendingPathComponent("team-ws").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let md = try MarkdownWriter(workspace: path)
    defer { md.stop() }
    try md.project("web")
    try md.project("api")
    typealias T = TrailText
    try md.feature(
      Self.front("FEAT-A", "web", status: "needs-edits", updated: "2026-11-06T10:00:00Z"), project: "web",
      body: T.created + T.gated("todo", "in-progress", "2026-11-02T10:00:00Z", "start")
        + T.gated("in-progress", "in-review", "2026-11-03T10:00:00Z", "ready")
        + T.rejected("in-review", "2026-11-04T10:00:00Z", "flaky")
        + T.gated("needs-edits", "in-progress", "2026-11-05T10:00:00Z", "fixing")
        + T.review("needs-edits", "2026-11-06T10:00:00Z", "again"))
    try md.feature(
      Self.front(
        "FEAT-B", "web", status: "todo", updated: "2026-11-01T09:00:00Z", dependsOn: ["FEAT-C"], assignee: "ann"),
      project: "web", body: T.created)
    try md.feature(
      Self.front("FEAT-C", "web", status: "in-progress", updated: "2026-11-07T09:00:00Z"), project: "web",
      body: T.created + T.gated("todo", "in-progress", "2026-11-07T09:00:00Z", "go"))
    try md.feature(
      Self.front("FEAT-A", "api", status: "todo", updated: "2026-11-01T09:00:00Z"), project: "api", body: T.created)
    try md.feature(
      Self.front("FEAT-C", "api", status: "done", updated: "2026-11-06T12:00:00Z"), project: "api",
      body: T.created + T.gated("todo", "in-progress", "2026-11-05T00:00:00Z", "go")
        + T.review("approved", "2026-11-06T12:00:00Z", "fine"))
    try md.feature(
      Self.front("FEAT-D", "api", status: "done", updated: "2026-11-05T09:00:00Z"), project: "api",
      body: T.created + T.gated("todo", "in-progress", "2026-11-03T09:00:00Z", "go")
        + T.gated("in-progress", "in-review", "2026-11-04T09:00:00Z", "ready")
        + T.review("approved", "2026-11-05T09:00:00Z", "ship it"))
    let r = WorkspaceInspectTests.run(
      [
        "inspect", "--source", "orchestra:\(path)", "--settle", "0.5", "--wait", "8", "--tz", "UTC", "--at",
        "2026-11-10T12:00:00Z",
      ], home: home.url.path)
    #expect(r.code == 0, "\(r.err)")
    guard case .object(let root)? = try? JSONParser.parse(r.out) else {
      Issue.record("not JSON: \(r.out.prefix(400))")
      return
    }
    let got = JSONValue.object(
      JSONObject(["blocked", "rework", "aging", "cycle_time", "forecast"].map { ($0, root[$0] ?? .null) }))
    // Done on the 5th and the 6th as in the database's team: the same forecast.
    let expected = try JSONParser.parse(
      """
      {"blocked": [{"feature_id": "FEAT-B", "project": "web", "title": "web FEAT-B", "assignee": "ann",
                    "state": "todo", "waits_on": ["FEAT-C"], "since": "2026-11-01T09:00:00Z"}],
       "rework": [{"feature_id": "FEAT-A", "project": "web", "title": "web FEAT-A", "assignee": null, "times": 2,
                   "since": "2026-11-06T10:00:00Z"}],
       "aging": [{"feature_id": "FEAT-A", "project": "web", "title": "web FEAT-A", "state": "needs-edits",
                  "age_days": 4.0, "in_progress_days": 8.0, "past_p85": true},
                 {"feature_id": "FEAT-C", "project": "web", "title": "web FEAT-C", "state": "in-progress",
                  "age_days": 3.1, "in_progress_days": 3.1, "past_p85": true}],
       "cycle_time": {"p50_days": 1.5, "p85_days": 2, "samples": 2, "window_days": 90},
       "forecast": {"kind": "backlog", "days": 14, "p50_features": 3, "p85_features": 2, "sample_days": 6,
                    "sample_done": 2, "sampled_from": "2026-11-02", "sampled_through": "2026-11-09", "runs": 10000,
                    "seed": "6288516345106481490"}}
      """)
    #expect(got == expected, "\(got.serialized())")
  }
}

import Clock
import EventSources
import Projections
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// Upstream's markdown tree holds the same id in two projects (a copy left with another status,
/// or two features that drew the same random id): the board counts every file's feature.
@Suite("Ids that collide across projects")
struct CollidingIdsTests {
  @Test func aTreeWithAnIdInTwoProjectsCountsEveryFeature() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.project("web")
    try writer.project("api")
    try writer.feature(["id": "FEAT-ABC", "title": "Login page", "status": "done"], project: "web")
    try writer.feature(["id": "FEAT-ABC", "title": "Rate limiter", "status": "in-progress"], project: "api")
    try writer.feature(["id": "FEAT-XYZ", "title": "Audit log", "status": "todo"], project: "api")
    let snap = MarkdownWorkspace(workspace: dir.url.path).read()
    #expect(snap.problems.isEmpty, "\(snap.problems)")
    let state = Make.state([
      Event(
        origin: "orchestra-md:" + dir.url.path, time: Make.t("2026-11-03T09:00:00Z"),
        body: .boardSnapshot(BoardSnapshot(features: snap.records.map(\.feature))))
    ])
    #expect(state.features.count == 3)
    #expect(state.features[FeatureKey(project: "web", id: "FEAT-ABC")]?.status == "done")
    #expect(state.features[FeatureKey(project: "api", id: "FEAT-ABC")]?.status == "in-progress")
    // Per project, the counts add up to the whole.
    let web = state.features.values.filter { $0.projectId == "web" }.count
    let api = state.features.values.filter { $0.projectId == "api" }.count
    #expect(web == 1 && api == 2)
    let tallies = Tally.compute(state: state, scope: BoardScope(state: state, sprint: nil))
    #expect(tallies.map(\.count).reduce(0, +) == 3)
    #expect(state.recent.isEmpty, "no transition that never happened")
  }

  /// `depends_on` names features of the same project: an id another project holds is not
  /// reached for, `project/id` names another project's feature.
  @Test func dependenciesResolveWithinTheProject() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.project("web")
    try writer.project("api")
    try writer.feature(["id": "FEAT-ABC", "title": "Login page", "status": "todo", "depends_on": ["FEAT-XYZ"]])
    try writer.feature(
      ["id": "FEAT-ABC", "title": "Rate limiter", "status": "todo", "depends_on": ["FEAT-XYZ", "web/FEAT-ABC"]],
      project: "api")
    try writer.feature(["id": "FEAT-XYZ", "title": "Audit log", "status": "todo"], project: "api")
    let snap = MarkdownWorkspace(workspace: dir.url.path).read()
    #expect(snap.problems.isEmpty, "\(snap.problems)")
    let state = Make.state([
      Event(
        origin: "orchestra-md:" + dir.url.path, time: Make.t("2026-11-03T09:00:00Z"),
        body: .boardSnapshot(BoardSnapshot(features: snap.records.map(\.feature))))
    ])
    let web = state.dependencies(of: FeatureKey(project: "web", id: "FEAT-ABC"))
    #expect(web.map(\.key) == [FeatureKey(project: "web", id: "FEAT-XYZ")])
    #expect(web.map(\.known) == [false], "web holds no FEAT-XYZ; api's is not guessed")
    let api = state.dependencies(of: FeatureKey(project: "api", id: "FEAT-ABC"))
    #expect(api.map(\.key) == [FeatureKey(project: "api", id: "FEAT-XYZ"), FeatureKey(project: "web", id: "FEAT-ABC")])
    #expect(api.map(\.known) == [true, true])
  }

  /// Two workspace databases (two teams on one wall), each holding the id in its own project:
  /// both rows are features, a change in one moves only its own, dependencies stay in each.
  @Test func twoDatabasesWithTheSameIdInTwoProjects() throws {
    let first = try OrchestraWorkspace()
    let second = try OrchestraWorkspace()
    try first.project("web")
    try second.project("api")
    try first.write(id: "FEAT-ABC", project: "web", title: "Login page", status: "done")
    try first.write(id: "FEAT-DEF", project: "web", title: "Sign-up", status: "todo")
    try second.write(id: "FEAT-ABC", project: "api", title: "Rate limiter", status: "todo")
    try second.write(id: "FEAT-DEF", project: "api", title: "Quotas", status: "in-progress")
    try second.writer.sql(#"UPDATE features SET depends_on = '["FEAT-DEF"]' WHERE id = 'FEAT-ABC'"#)
    let board = LiveBoard()
    var sources: [OrchestraDBSource] = []
    for ws in [first, second] {
      let path = ws.path
      let source = OrchestraDBSource(origin: "orchestra-db:\(path)", clock: .system) { (path, "SQLite \(path)") }
      source.pollInterval = 0.1
      source.start { board.put($0) }
      sources.append(source)
    }
    defer { sources.forEach { $0.stop() } }
    #expect(board.wait(5) { $0.features.count == 4 }, "\(board.board().features.keys.sorted())")
    let s = board.board()
    let tallies = Tally.compute(state: s, scope: BoardScope(state: s, sprint: nil))
    #expect(tallies.map(\.count).reduce(0, +) == 4)
    #expect(s.features.values.filter { $0.projectId == "web" }.count == 2)
    #expect(s.features.values.filter { $0.projectId == "api" }.count == 2)
    #expect(
      s.dependencies(of: FeatureKey(project: "api", id: "FEAT-ABC")).map(\.key)
        == [FeatureKey(project: "api", id: "FEAT-DEF")])

    try second.write(id: "FEAT-ABC", project: "api", status: "in-review", at: "2026-11-04T10:00:00Z")
    #expect(
      board.wait(3) { $0.features[FeatureKey(project: "api", id: "FEAT-ABC")]?.status == "in-review" })
    let after = board.board()
    #expect(after.features[FeatureKey(project: "web", id: "FEAT-ABC")]?.status == "done", "the other project's row")
    #expect(after.features.count == 4)
    #expect(after.recent.map(\.featureId) == ["FEAT-ABC"] && after.recent.first?.project == "api")
  }
}

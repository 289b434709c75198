import EventSources
import Projections
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
}

import EventSources
import Foundation
import TestSupport
import Testing
import WallboardCore

@testable import EventSources

/// A `.projects/` tree whose descriptions hold tabs (Makefile recipes), read by the workspace
/// reader and followed by the markdown source; and a file whose tab indents a key, which is one
/// problem naming it and its line, costing no other file.
@Suite("Orchestra workspace: tabs in the markdown tree", .serialized)
struct MarkdownTabsTests {
  static let fixtures = Paths.fixtures.appendingPathComponent("markdown")

  /// A copy of the fixture tree `name` in a temporary folder (the source may then change it).
  static func copy(_ name: String) throws -> TempDir {
    let dir = try TempDir()
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent(name).appendingPathComponent(".projects"),
      to: dir.url.appendingPathComponent(".projects"))
    return dir
  }

  @Test func aTreeWithTabsInItsBlocksReadsWhole() throws {
    let ws = MarkdownWorkspace(workspace: Self.fixtures.appendingPathComponent("tabs").path)
    let snap = ws.read()
    #expect(snap.problems.isEmpty, "\(snap.problems)")
    try #require(snap.records.map(\.feature.id) == ["FEAT-MAK", "FEAT-TAB"])
    let mak = snap.records[0]
    #expect(mak.feature.title == "Makefile targets for build and test")
    #expect(mak.feature.status == "in-progress" && mak.feature.estimate == "S")
    #expect(mak.feature.labels == ["build", "sprint:s2"])
    #expect(mak.feature.updatedAt == Make.t("2026-03-05T14:02:11Z"))
    #expect(mak.version == 2)
    #expect(mak.body.contains("build:\n\tgo build ./...\n\tgo vet ./...\n"))
    let tab = snap.records[1]
    #expect(tab.feature.labels == ["sprint:s2", "go:\n\tfmt"])
    #expect(tab.feature.status == "todo" && tab.feature.priority == "P3")
  }

  @Test func theSourceFollowsATreeWithTabs() throws {
    let dir = try Self.copy("tabs")
    let source = OrchestraMarkdownSource(origin: "orchestra-md:\(dir.url.path)", workspace: dir.url.path)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 2 && $0.origins[source.origin]?.connection == .live })
    let state = board.board()
    #expect(state.counters.rejected == 0)
    #expect(state.origins[source.origin]?.lastError == nil)
    #expect(state.feature("FEAT-MAK")?.ownSprintIds == ["s2"])
    #expect(state.origins[source.origin]?.connectionDetail == "markdown \(dir.url.path)/.projects")
  }

  @Test func aTabThatIndentsAKeyIsOneProblemNamingItsFileAndLine() throws {
    let ws = MarkdownWorkspace(workspace: Self.fixtures.appendingPathComponent("unreadable").path)
    let snap = ws.read()
    #expect(snap.records.map(\.feature.id) == ["FEAT-MAK"], "the other file is read")
    let problem = try #require(snap.problems.first)
    #expect(snap.problems.count == 1)
    #expect(problem.file.hasSuffix("/.projects/orchestra-go/features/FEAT-BAD.md"))
    #expect(problem.line == 8)
    #expect(problem.problem == "a tab in the indentation")
    #expect(!problem.mayBeTorn)
  }
}

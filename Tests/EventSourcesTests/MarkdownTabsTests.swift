import Clock
import EventSources
import Foundation
import SourceKit
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
    let source = OrchestraMarkdownSource(
      origin: "orchestra-md:\(dir.url.path)", workspace: dir.url.path, clock: .system)
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

/// Which feature files cannot be read now: the follower keeps them, the source says them in its
/// line on the board (its connection detail), and forgets them when they read again or go.
@Suite("Unreadable feature files, said on the source's line", .serialized)
struct UnreadableFeatureFileTests {
  static func entry(_ path: String, size: Int64) -> MarkdownWorkspace.Entry {
    MarkdownWorkspaceTests.entry(path, size: size)
  }

  static func record(_ id: String) -> MarkdownWorkspace.Record {
    MarkdownWorkspaceTests.record(id, status: "todo")
  }

  @Test func theFollowerKnowsWhichFilesAreUnreadableNow() {
    var f = MarkdownFollower()
    f.retryDelays = []
    var listing = MarkdownWorkspace.Listing()
    listing.entries["/p/A.md"] = Self.entry("/p/A.md", size: 5)
    listing.entries["/p/B.md"] = Self.entry("/p/B.md", size: 5)
    let bad = MarkdownWorkspace.Problem(file: "/p/B.md", line: 8, problem: "a tab in the indentation")
    _ = f.look(listing, at: Instant(millis: 0)) { e in e.path == "/p/B.md" ? .failure(bad) : .success(Self.record("A"))
    }
    #expect(f.unreadable == ["/p/B.md": bad])
    // Changed and still bad: the new problem.
    let worse = MarkdownWorkspace.Problem(file: "/p/B.md", line: 9, problem: "flow mappings")
    listing.entries["/p/B.md"] = Self.entry("/p/B.md", size: 6)
    _ = f.look(listing, at: Instant(millis: 10)) { _ in .failure(worse) }
    #expect(f.unreadable == ["/p/B.md": worse])
    // Fixed: readable again.
    listing.entries["/p/B.md"] = Self.entry("/p/B.md", size: 7)
    _ = f.look(listing, at: Instant(millis: 20)) { _ in .success(Self.record("B")) }
    #expect(f.unreadable.isEmpty)
    // Bad again, then removed.
    listing.entries["/p/B.md"] = Self.entry("/p/B.md", size: 8)
    _ = f.look(listing, at: Instant(millis: 30)) { _ in .failure(bad) }
    #expect(f.unreadable.keys.sorted() == ["/p/B.md"])
    listing.entries["/p/B.md"] = nil
    _ = f.look(listing, at: Instant(millis: 40)) { _ in .success(Self.record("A")) }
    #expect(f.unreadable.isEmpty)
  }

  @Test func aTornFileIsNotUnreadableWhileItIsReadAgain() {
    var f = MarkdownFollower()
    var listing = MarkdownWorkspace.Listing()
    listing.entries["/p/A.md"] = Self.entry("/p/A.md", size: 5)
    let torn = MarkdownWorkspace.Problem(file: "/p/A.md", line: 2, problem: "no closing", mayBeTorn: true)
    _ = f.look(listing, at: Instant(millis: 0)) { _ in .failure(torn) }
    #expect(f.unreadable.isEmpty, "not yet: it is read again first")
    _ = f.look(listing, at: Instant(millis: 150)) { _ in .success(Self.record("A")) }
    #expect(f.unreadable.isEmpty)
  }

  @Test func theLineNamesTheFileItsLineAndWhy() {
    let one = MarkdownWorkspace.Problem(
      file: "/ws/.projects/go/features/FEAT-BAD.md", line: 8, problem: "a tab in the indentation")
    let two = MarkdownWorkspace.Problem(file: "/ws/.projects/go/features/FEAT-AAA.md", problem: "larger than 1 MiB")
    #expect(MarkdownWorkspace.unreadableText([]) == nil)
    #expect(
      MarkdownWorkspace.unreadableText([one]) == "1 feature file unreadable: FEAT-BAD.md:8: a tab in the indentation")
    #expect(
      MarkdownWorkspace.unreadableText([one, two]) == "2 feature files unreadable: FEAT-AAA.md: larger than 1 MiB",
      "the first by path")
    let ws = MarkdownWorkspace(workspace: "/ws")
    #expect(ws.detail(.plugin, unreadable: []) == "markdown /ws/.projects")
    #expect(
      ws.detail(.plugin, unreadable: [one])
        == "1 feature file unreadable: FEAT-BAD.md:8: a tab in the indentation · markdown /ws/.projects")
  }

  /// The source's line on the board says the unreadable file, and stops saying it once fixed.
  @Test func theSourceSaysItsUnreadableFileUntilItIsFixed() throws {
    let dir = try MarkdownTabsTests.copy("unreadable")
    let source = OrchestraMarkdownSource(
      origin: "orchestra-md:\(dir.url.path)", workspace: dir.url.path, clock: .system)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    let said = "1 feature file unreadable: FEAT-BAD.md:8: a tab in the indentation · markdown \(dir.url.path)/.projects"
    #expect(board.wait(5) { $0.origins[source.origin]?.connectionDetail == said }, "\(board.board().origins)")
    #expect(board.board().features.count == 1, "the other file is on the board")
    #expect(board.board().origins[source.origin]?.rejected == 1, "rejected once, as before")
    // Fixed: the tab becomes four spaces.
    let file = dir.url.appendingPathComponent(".projects/orchestra-go/features/FEAT-BAD.md")
    let fixed = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\n\t- ", with: "\n    - ")
    try fixed.write(to: file, atomically: false, encoding: .utf8)
    #expect(
      board.wait(5) {
        $0.origins[source.origin]?.connectionDetail == "markdown \(dir.url.path)/.projects" && $0.features.count == 2
      }, "\(board.board().origins)")
  }
}

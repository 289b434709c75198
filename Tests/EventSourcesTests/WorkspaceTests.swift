import EventSources
import Foundation
import SQLite
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import EventSources

/// Finding an Orchestra workspace's store, and reading its database as the plugin wrote it.
@Suite("Orchestra workspace: the store and its database", .serialized)
struct WorkspaceTests {
  @Test func pathsAreCleanedLikeGoWithoutFollowingLinks() {
    #expect(WorkspaceLocator.absolute("ws", from: "/home/ana") == "/home/ana/ws")
    #expect(WorkspaceLocator.absolute("./a//b/../c/", from: "/x") == "/x/a/c")
    #expect(WorkspaceLocator.absolute("/../..", from: "/x") == "/")
  }

  static func home() throws -> (TempDir, WorkspaceLocator) {
    let dir = try TempDir("wallboard-home")
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent(".orchestra/db"), withIntermediateDirectories: true)
    return (dir, WorkspaceLocator(home: dir.url.path, currentDirectory: "/home/ana"))
  }

  @Test func theIndexWinsThenTheHashRuleThenTheMarkdownTree() throws {
    let (dir, locator) = try Self.home()
    let db = dir.url.appendingPathComponent(".orchestra/db")
    let ws = dir.url.appendingPathComponent("ws")
    try FileManager.default.createDirectory(
      at: ws.appendingPathComponent(".projects"), withIntermediateDirectories: true)
    // Nothing but the markdown tree.
    var found = locator.locate(workspace: ws.path)
    #expect(found.store == .markdown(ws.path + "/.projects"))
    // The hash rule's database.
    let hashed = locator.hashedDatabase(for: ws.path)
    #expect(hashed.hasSuffix(".db") && hashed.count == db.path.count + 1 + 16 + 3)
    _ = FileManager.default.createFile(atPath: hashed, contents: Data())
    found = locator.locate(workspace: ws.path + "/")
    #expect(found.store == .database(hashed))
    #expect(found.detail == "SQLite \(hashed)")
    // index.json, as the plugin writes it (sorted keys, 2-space indent, no final newline), maps
    // another hash to the workspace (the standalone binary's "." registration): it wins.
    _ = FileManager.default.createFile(atPath: db.appendingPathComponent("0123456789abcdef.db").path, contents: Data())
    try "{\n  \"0123456789abcdef\": \"\(ws.path)\",\n  \"ffffffffffffffff\": \"/elsewhere\"\n}".write(
      to: db.appendingPathComponent("index.json"), atomically: true, encoding: .utf8)
    found = locator.locate(workspace: ws.path)
    #expect(found.store == .database(db.appendingPathComponent("0123456789abcdef.db").path))
    #expect(found.detail.hasSuffix("(index.json)"))
    // When the index maps the hash rule's database too (the standalone binary registers both
    // "." and the folder), that one — what `orchestra serve` opens — is read.
    let hashKey = String((hashed as NSString).lastPathComponent.dropLast(3))
    try "{\n  \"0123456789abcdef\": \"\(ws.path)\",\n  \"\(hashKey)\": \"\(ws.path)\"\n}".write(
      to: db.appendingPathComponent("index.json"), atomically: true, encoding: .utf8)
    found = locator.locate(workspace: ws.path)
    #expect(found.store == .database(hashed))
    // And the database a file names is mapped back to its workspace.
    #expect(locator.workspace(ofDatabase: hashed) == ws.path)
  }

  /// Issue 20, item 11: a folder that is not there, a file where the folder should be, and a
  /// folder with neither store are three outcomes, each naming its path.
  @Test func neitherStoreIsSaidPlainly() throws {
    let (dir, locator) = try Self.home()
    let nowhere = dir.url.appendingPathComponent("nowhere").path
    var found = locator.locate(workspace: nowhere)
    #expect(found.store == .missing(.noFolder(nowhere)))
    #expect(found.detail == "\(nowhere): no such folder")

    let file = dir.url.appendingPathComponent("a-file").path
    _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
    found = locator.locate(workspace: file)
    #expect(found.store == .missing(.notAFolder(file)))
    #expect(found.detail == "\(file): not a folder")

    let empty = dir.url.appendingPathComponent("empty-ws").path
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    found = locator.locate(workspace: empty)
    let hashed = locator.hashedDatabase(for: empty)
    #expect(found.store == .missing(.noStore(workspace: empty, tree: empty + "/.projects", database: hashed)))
    #expect(found.detail == "\(empty): no .projects folder and no Orchestra database (\(hashed))")
    // The markdown tree alone: the same folder outcomes, and no `.projects/` without a database.
    #expect(WorkspaceLocator.treeMissing(nowhere) == .noFolder(nowhere))
    #expect(WorkspaceLocator.treeMissing(empty)?.description == "\(empty): no .projects folder")
    try FileManager.default.createDirectory(atPath: empty + "/.projects/web", withIntermediateDirectories: true)
    #expect(WorkspaceLocator.treeMissing(empty) == nil)
    #expect(WorkspaceLocation.Store.markdown(empty + "/.projects").projects == ["web"])
  }

  /// Issue 20, item 11: the projects a database holds, for a `--project` that matches none.
  @Test func aDatabaseListsTheProjectsOfItsFeatures() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.project("api")
    try ws.write(id: "FEAT-A", project: "web", status: "todo")
    try ws.write(id: "FEAT-B", project: "api", status: "todo")
    try ws.write(id: "FEAT-C", project: "web", status: "done")
    #expect(WorkspaceLocation.Store.database(ws.path).projects == ["api", "web"])
    #expect(WorkspaceLocation.Store.database(ws.path + ".missing").projects == nil)
  }

  /// A title past the cap is cut on a character boundary (as the markdown reader cuts): never
  /// half a UTF-8 sequence shown as U+FFFD, so both stores show the same title.
  @Test func aLongTitleIsCutOnACharacterBoundary() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-LONG", title: "a" + String(repeating: "é", count: 3000), status: "todo")
    let (features, _) = try OrchestraDatabase(path: ws.path).features()
    let title = try #require(features.first?.title)
    #expect(title.utf8.count <= 4096 && title.utf8.count >= 4094)
    #expect(!title.unicodeScalars.contains("\u{FFFD}"))
    #expect(title.hasPrefix("aé"))
  }

  @Test func featuresReadAsThePluginWroteThem() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.project("api")
    try ws.write(id: "FEAT-ABC", status: "in-progress", estimate: "M", labels: #"["sprint:s1","area:\u003cui\u003e"]"#)
    try ws.write(id: "FEAT-DEF", project: "api", status: "in_review")
    // A row the migration made: SQLite's own timestamp format, the DDL's defaults.
    try ws.writer.sql(
      "INSERT INTO features (id, project_id, title, created_at, updated_at) VALUES ('FEAT-OLD', 'web', 'Old', '2026-03-08 16:53:37', '2026-03-08 16:53:37')"
    )
    let db = try OrchestraDatabase(path: ws.path)
    let (features, problems) = try db.features()
    #expect(problems.isEmpty)
    // By project, then id: ids are unique only within a project.
    #expect(features.map(\.key.qualified) == ["api/FEAT-DEF", "web/FEAT-ABC", "web/FEAT-OLD"])
    let abc = features[1]
    #expect(abc.projectId == "web")
    #expect(abc.status == "in-progress")
    #expect(abc.estimate == "M")
    #expect(abc.labels == ["sprint:s1", "area:<ui>"])
    #expect(abc.ownSprintIds == ["s1"])
    #expect(abc.updatedAt == Make.t("2026-11-03T10:00:00Z"))
    #expect(features[0].status == "in-review", "spellings read by the contract's rule")
    #expect(features[2].status == "backlog")
    #expect(features[2].estimate == nil, "an empty estimate is none")
    #expect(features[2].createdAt == Make.t("2026-03-08T16:53:37Z"))
    #expect(try db.features(projects: ["api"]).features.map(\.id) == ["FEAT-DEF"])
  }

  @Test func theChangeLogIsReadAfterACursor() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")
    try ws.write(id: "FEAT-A", status: "in-progress", at: "2026-11-03T10:05:00Z")
    try ws.delete(id: "FEAT-A")
    let db = try OrchestraDatabase(path: ws.path)
    #expect(try db.lastChange() == 3)
    let changes = try #require(try db.changes(after: 1))
    #expect(changes.map(\.action) == ["upsert", "delete"])
    #expect(changes.map(\.entityID) == ["FEAT-A", "FEAT-A"])
    #expect(changes[0].at == Make.t("2026-11-03T10:05:00Z"))
    #expect(try db.features(id: "FEAT-A").isEmpty)
  }

  @Test func anOlderSchemaReadsWithDefaultsAndBadRowsAreNamed() throws {
    // Before 2026-03-20: no change_log; and a schema with fewer columns.
    let ws = try OrchestraWorkspace(
      ddl: "CREATE TABLE features (id TEXT PRIMARY KEY, title TEXT, status TEXT, labels TEXT, extra TEXT);")
    try ws.writer.sql("INSERT INTO features VALUES ('FEAT-A', 'A', 'done', '[\"x\"]', 'ignored')")
    try ws.writer.sql("INSERT INTO features VALUES ('FEAT-B', 'B', 'todo', 'not json', NULL)")
    let db = try OrchestraDatabase(path: ws.path)
    #expect(!db.hasChangeLog)
    #expect(try db.changes(after: 0) == nil)
    let (features, problems) = try db.features()
    #expect(features.map(\.id) == ["FEAT-A"])
    #expect(features.first?.projectId == nil)
    #expect(problems.map(\.id) == ["FEAT-B"])
    #expect(problems.first?.problem.hasPrefix("labels are not a JSON list") == true)
  }
}

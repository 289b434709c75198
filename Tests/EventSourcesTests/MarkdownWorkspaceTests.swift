import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import EventSources

/// Reading a `.projects/` tree as the plugin (and the export) wrote it.
@Suite("Orchestra workspace: the markdown tree", .serialized)
struct MarkdownWorkspaceTests {
  static let fixtures = Paths.fixtures.appendingPathComponent("markdown")

  @Test func theCheckedInTreeReadsAsItWasWritten() throws {
    let ws = MarkdownWorkspace(workspace: Self.fixtures.appendingPathComponent("plugin").path)
    let snap = ws.read()
    #expect(snap.problems.isEmpty, "\(snap.problems)")
    #expect(snap.variant == .plugin)
    #expect(snap.records.map(\.feature.id) == ["FEAT-ESC", "FEAT-OLD", "FEAT-QUO"])
    let esc = snap.records[0]
    #expect(esc.feature.status == "in-review", "the contract's spelling rule")
    #expect(esc.feature.title == "Escapes: every one yaml allows")
    #expect(esc.feature.createdAt == Make.t("2026-03-01T09:00:00Z"), "SQLite's timestamp form too")
    #expect(esc.feature.labels.isEmpty)
    #expect(esc.version == 0, "no sidecar")
    let old = snap.records[1]
    #expect(old.feature.status == "ready-for-testing", "legacy spellings kept as stored")
    #expect(old.version == 0, "front-matter version 16 is not the storage version")
    #expect(old.feature.ownSprintIds == ["s0"])
    #expect(old.body == "# An old feature\n\n---\n**backlog -> in-progress**: started\n")
    let quo = snap.records[2]
    #expect(quo.version == 3, "the sidecar is the version")
    #expect(quo.feature.projectId == "orchestra-swift")
    #expect(quo.feature.title == #"Fix: the board's "login" # page"#)
    #expect(quo.feature.status == "in-progress")
    #expect(quo.feature.priority == "P1" && quo.feature.kind == "bug" && quo.feature.assignee == "ana")
    #expect(quo.feature.estimate == "M")
    #expect(quo.feature.labels == ["sprint:s1", "area: ui", "yes", "2026-03-01", "\u{1F680} launch", "multi\nline"])
    #expect(quo.feature.updatedAt == Make.t("2026-03-02T10:30:00Z"))
    #expect(quo.body.hasSuffix("**in-progress -> in-testing** (2026-03-02T10:30:00Z):\nTests pass.\n"))
    #expect(ws.read(projects: ["elsewhere"]).records.isEmpty)
    let project = try ws.project("orchestra-swift").get()
    #expect(project.name == "orchestra-swift" && project.variant == .plugin)
  }

  @Test func theExportIsRecognisedAndRead() throws {
    let ws = MarkdownWorkspace(workspace: Self.fixtures.appendingPathComponent("export").path)
    let snap = ws.read()
    #expect(snap.problems.isEmpty, "\(snap.problems)")
    #expect(snap.variant == .exportMarkdown)
    #expect(ws.detail(snap.variant).contains("export_markdown snapshot: no labels"))
    let f = try #require(snap.records.first)
    #expect(f.variant == .exportMarkdown)
    #expect(f.feature.id == "FEAT-EXP" && f.feature.projectId == "web")
    #expect(f.feature.title == "Fix: login # twice")
    #expect(f.feature.status == "in-progress" && f.feature.estimate == "M" && f.feature.assignee == nil)
    #expect(f.feature.labels.isEmpty && f.feature.updatedAt == nil)
    let project = try ws.project("web").get()
    #expect(project.name == "Web app" && project.variant == .exportMarkdown)
  }

  @Test func aWorkspaceBuiltByTheWriterReadsBackAsWritten() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.project("web")
    try writer.project("api")
    var written: [String: [String: Any]] = [:]
    let titles = ["Plain", "Fix: login", "it's \"quoted\"", "#1 priority", "\u{1F680} launch", "yes", "12:30", " lead"]
    for (i, title) in titles.enumerated() {
      let id = "FEAT-\(UnicodeScalar(UInt8(65 + i)))AA"
      var f: [String: Any] = [
        "id": id, "title": title, "status": ["todo", "in-progress", "in-review", "backlog"][i % 4],
        "priority": "P\(i % 3)", "created_at": "2026-11-0\(i + 1)T09:00:00Z",
        "updated_at": "2026-11-0\(i + 1)T10:00:00Z",
        "description": i % 2 == 0 ? "line one\nline two" : "",
      ]
      if i % 2 == 0 { f["labels"] = ["sprint:s1", "area: ui #\(i)"] }
      if i % 3 == 0 { f["estimate"] = "L" }
      if i % 3 == 1 { f["assignee"] = "ana" }
      let project = i < 5 ? "web" : "api"
      try writer.feature(f, project: project)
      if i == 0 { try writer.feature(f, project: project) }  // written twice: version 2
      f["project"] = project
      written[id] = f
    }
    let snap = MarkdownWorkspace(workspace: dir.url.path).read()
    #expect(snap.problems.isEmpty, "\(snap.problems)")
    #expect(snap.records.count == titles.count)
    for r in snap.records {
      let f = try #require(written[r.feature.id])
      #expect(r.feature.title == f["title"] as? String)
      #expect(r.feature.status == f["status"] as? String)
      #expect(r.feature.projectId == f["project"] as? String)
      #expect(r.feature.labels == (f["labels"] as? [String] ?? []))
      #expect(r.feature.estimate == f["estimate"] as? String)
      #expect(r.feature.assignee == f["assignee"] as? String)
      #expect(r.feature.updatedAt == Make.t(f["updated_at"] as! String))
      #expect(r.version == (r.feature.id == "FEAT-AAA" ? 2 : 1))
      #expect(r.feature.priority == f["priority"] as? String)
      #expect(r.feature.createdAt == Make.t(f["created_at"] as! String))
      // The tools' body at creation: `# {title}\n\n{description}\n`.
      #expect(r.body == "# \(f["title"] as! String)\n\n\(f["description"] as! String)\n")
    }
    #expect(MarkdownWorkspace(workspace: dir.url.path).read(projects: ["api"]).records.count == 3)
  }

  @Test func badFilesAreNamedAndCostNothingElse() throws {
    let dir = try TempDir()
    let features = dir.url.appendingPathComponent(".projects/web/features")
    try FileManager.default.createDirectory(at: features, withIntermediateDirectories: true)
    func put(_ name: String, _ text: String) throws {
      try text.write(to: features.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }
    try put("FEAT-OK.md", "---\nid: FEAT-OK\nstatus: todo\ntitle: ok\n---\n\n")
    try put("FEAT-BAD.md", "---\nid: FEAT-BAD\nlabels: {a: 1}\n---\n\n")
    try put("FEAT-LST.md", "---\nid: FEAT-LST\ntitle:\n    - a\n---\n\n")
    try put("FEAT-NOFM.md", "# no front matter\n")
    try put("FEAT-TORN.md", "---\nid: FEAT-TORN\nsta")
    try put("FEAT-BIG.md", "---\nid: FEAT-BIG\n---\n\n" + String(repeating: "x", count: 2 << 20))
    try put("notes.txt", "not a feature")
    try "7".write(to: features.appendingPathComponent("FEAT-OK.md.version"), atomically: false, encoding: .utf8)
    // A link that leads out of the tree is not followed; one that stays inside is.
    let outside = dir.url.appendingPathComponent("outside.md")
    try "---\nid: FEAT-OUT\n---\n\n".write(to: outside, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: features.appendingPathComponent("FEAT-OUT.md").path, withDestinationPath: outside.path)
    try FileManager.default.createSymbolicLink(
      atPath: features.appendingPathComponent("FEAT-IN.md").path,
      withDestinationPath: features.appendingPathComponent("FEAT-OK.md").path)
    let snap = MarkdownWorkspace(workspace: dir.url.path).read()
    #expect(snap.records.map(\.feature.id) == ["FEAT-OK", "FEAT-OK"])
    #expect(snap.records.map(\.version) == [0, 7], "FEAT-IN.md has no sidecar of its own")
    let byFile = Dictionary(snap.problems.map { ($0.file.split(separator: "/").last.map(String.init)!, $0) }) { a, _ in
      a
    }
    #expect(
      byFile["FEAT-BAD.md"]?.description.hasSuffix("FEAT-BAD.md:3: unsupported YAML: flow mappings (`{…}`)") == true)
    #expect(byFile["FEAT-LST.md"]?.description.hasSuffix("FEAT-LST.md:3: `title` is a list, not text") == true)
    #expect(byFile["FEAT-NOFM.md"]?.line == 1)
    #expect(byFile["FEAT-TORN.md"]?.mayBeTorn == true)
    #expect(byFile["FEAT-BIG.md"]?.problem.hasSuffix("larger than 1048576") == true)
    #expect(byFile["FEAT-OUT.md"]?.problem == "leads out of .projects/: not followed")
    #expect(snap.problems.count == 6)
  }

  // MARK: The follower, without a file system

  static func entry(_ path: String, size: Int64, sidecar: Int64? = nil) -> MarkdownWorkspace.Entry {
    MarkdownWorkspace.Entry(
      path: path, project: "web", stamp: FileStamp(device: 1, inode: 1, size: size, mtime: size),
      sidecar: sidecar.map { FileStamp(device: 1, inode: 2, size: 1, mtime: $0) })
  }

  static func record(_ id: String, status: String) -> MarkdownWorkspace.Record {
    MarkdownWorkspace.Record(
      path: "/p/\(id).md", feature: Feature(id: id, projectId: "web", status: status), version: 1, body: "",
      bodyTruncated: false, variant: .plugin, modified: Instant(millis: 0))
  }

  @Test func aTornReadIsRetriedAndTheLastGoodVersionStays() {
    var f = MarkdownFollower()
    var listing = MarkdownWorkspace.Listing()
    listing.entries["/p/A.md"] = Self.entry("/p/A.md", size: 10, sidecar: 1)
    var reads = 0
    var out = f.look(listing, at: Instant(millis: 0)) { _ in
      reads += 1
      return .success(Self.record("A", status: "todo"))
    }
    #expect(out == [.upserted(Self.record("A", status: "todo"))])
    // Nothing changed: nothing read.
    out = f.look(listing, at: Instant(millis: 50)) { _ in
      reads += 1
      return .success(Self.record("A", status: "todo"))
    }
    #expect(out.isEmpty && reads == 1)
    // Rewritten in place, caught half-way: nothing said, read again after the delays.
    listing.entries["/p/A.md"] = Self.entry("/p/A.md", size: 3, sidecar: 1)
    let torn = MarkdownWorkspace.Problem(file: "/p/A.md", line: 2, problem: "no closing", mayBeTorn: true)
    out = f.look(listing, at: Instant(millis: 1000)) { _ in .failure(torn) }
    #expect(out.isEmpty)
    #expect(f.shown["/p/A.md"]?.feature.status == "todo", "the last good version stays")
    #expect(f.nextRetry == Instant(millis: 1100))
    out = f.look(listing, at: Instant(millis: 1050)) { _ in
      Issue.record("read before its retry was due")
      return .failure(torn)
    }
    #expect(out.isEmpty)
    // The rest of the write lands: read at once, whatever the retry schedule.
    listing.entries["/p/A.md"] = Self.entry("/p/A.md", size: 12, sidecar: 2)
    out = f.look(listing, at: Instant(millis: 1060)) { _ in .success(Self.record("A", status: "done")) }
    #expect(out == [.upserted(Self.record("A", status: "done"))])
    #expect(f.nextRetry == nil)
  }

  /// A folder that cannot be listed for a moment (no descriptor left, a permission change)
  /// says nothing of its files: none is reported deleted; once it lists again, a file really
  /// gone is.
  @Test func aFolderThatCannotBeListedDeletesNothing() {
    var f = MarkdownFollower()
    var listing = MarkdownWorkspace.Listing()
    listing.entries["/p/web/features/A.md"] = Self.entry("/p/web/features/A.md", size: 10, sidecar: 1)
    listing.entries["/p/api/features/B.md"] = Self.entry("/p/api/features/B.md", size: 10, sidecar: 1)
    _ = f.look(listing, at: Instant(millis: 0)) { e in
      .success(Self.record(e.path.contains("A.md") ? "A" : "B", status: "todo"))
    }
    var blind = MarkdownWorkspace.Listing()
    blind.entries["/p/api/features/B.md"] = listing.entries["/p/api/features/B.md"]
    blind.unreadable = ["/p/web/features"]
    #expect(f.look(blind, at: Instant(millis: 100)) { _ in .success(Self.record("B", status: "todo")) }.isEmpty)
    #expect(f.shown["/p/web/features/A.md"] != nil)
    var gone = MarkdownWorkspace.Listing()
    gone.entries["/p/api/features/B.md"] = listing.entries["/p/api/features/B.md"]
    #expect(
      f.look(gone, at: Instant(millis: 200)) { _ in .success(Self.record("B", status: "todo")) } == [
        .deleted(id: "A", project: "web", path: "/p/web/features/A.md")
      ])
  }

  @Test func aFileThatStaysBadIsRejectedOnceThenReadAgainWhenItChanges() {
    var f = MarkdownFollower()
    var listing = MarkdownWorkspace.Listing()
    listing.entries["/p/B.md"] = Self.entry("/p/B.md", size: 5)
    let bad = MarkdownWorkspace.Problem(file: "/p/B.md", line: 3, problem: "flow mappings")
    var rejected = 0
    var t: Int64 = 0
    for _ in 0..<20 {
      for o in f.look(listing, at: Instant(millis: t), read: { _ in .failure(bad) }) {
        if case .rejected(let p) = o, p == bad { rejected += 1 }
      }
      t += 100
    }
    #expect(rejected == 1, "reported once, after its retries (within about a second)")
    #expect(f.nextRetry == nil)
    listing.entries["/p/B.md"] = Self.entry("/p/B.md", size: 6)
    let out = f.look(listing, at: Instant(millis: t)) { _ in .success(Self.record("B", status: "todo")) }
    #expect(out == [.upserted(Self.record("B", status: "todo"))])
    // Removed: deleted once, by its feature id.
    #expect(
      f.look(MarkdownWorkspace.Listing(), at: Instant(millis: t)) { _ in .failure(bad) } == [
        .deleted(id: "B", project: "web", path: "/p/B.md")
      ])
    #expect(f.look(MarkdownWorkspace.Listing(), at: Instant(millis: t)) { _ in .failure(bad) }.isEmpty)
  }

  @Test func aFeatureInTwoFilesStaysWhileOneRemains() {
    var f = MarkdownFollower()
    var listing = MarkdownWorkspace.Listing()
    listing.entries["/p/A.md"] = Self.entry("/p/A.md", size: 5)
    listing.entries["/p/A-copy.md"] = Self.entry("/p/A-copy.md", size: 5)
    #expect(f.look(listing, at: Instant(millis: 0)) { _ in .success(Self.record("A", status: "todo")) }.count == 2)
    listing.entries["/p/A-copy.md"] = nil
    #expect(
      f.look(listing, at: Instant(millis: 10)) { _ in .success(Self.record("A", status: "todo")) } == [
        .upserted(Self.record("A", status: "todo"))
      ])
    #expect(
      f.look(MarkdownWorkspace.Listing(), at: Instant(millis: 20)) { _ in .failure(Self.torn) } == [
        .deleted(id: "A", project: "web", path: "/p/A.md")
      ])
  }

  static let torn = MarkdownWorkspace.Problem(file: "/p/A.md", problem: "empty file", mayBeTorn: true)
}

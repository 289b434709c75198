import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import EventSources

/// One bad row never hides a store: a value over a cap costs its own row (named, with the
/// column and its size), never the other rows; past the row cap the first rows are kept.
@Suite("One bad row never hides a store", .serialized)
struct OverCapRowTests {
  /// A store of three features of `web` (FEAT-A, FEAT-B, FEAT-C), written by a second process.
  static func store() throws -> OrchestraWorkspace {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    for id in ["FEAT-A", "FEAT-B", "FEAT-C"] { try ws.write(id: id, status: "todo") }
    return ws
  }

  /// SQL for a text of `bytes` bytes (`x…x`), inside `prefix` and `suffix`.
  static func big(_ bytes: Int, _ prefix: String = "", _ suffix: String = "") -> String {
    "'\(prefix)' || printf('%.*c', \(bytes - prefix.utf8.count - suffix.utf8.count), 'x') || '\(suffix)'"
  }

  /// Every column the reader reads as text, with a value over the cap: 300 KB (10 MB of labels).
  static let columns: [(column: String, value: String, bytes: Int)] = [
    ("title", big(300_000), 300_000),
    ("labels", big(10_000_000, #"[""#, #""]"#), 10_000_000),
    ("depends_on", big(300_000, #"[""#, #""]"#), 300_000),
    ("status", big(300_000), 300_000),
    ("priority", big(300_000), 300_000),
    ("kind", big(300_000), 300_000),
    ("assignee", big(300_000), 300_000),
    ("estimate", big(300_000), 300_000),
    ("created_at", big(300_000), 300_000),
    ("updated_at", big(300_000), 300_000),
    ("project_id", big(300_000), 300_000),
    ("id", big(300_000), 300_000),
  ]

  @Test(arguments: columns.map(\.column))
  func aValueOverTheCapRejectsItsRowByName(column: String) throws {
    let c = try #require(Self.columns.first { $0.column == column })
    let ws = try Self.store()
    try ws.writer.script(
      "PRAGMA foreign_keys = OFF; UPDATE features SET \(c.column) = \(c.value) WHERE id = 'FEAT-B';")
    let db = try OrchestraDatabase(path: ws.path)
    let (features, problems) = try db.features()
    #expect(features.map(\.id) == ["FEAT-A", "FEAT-C"], "every other row shows")
    let p = try #require(problems.first)
    #expect(problems.count == 1)
    #expect(p.problem.contains("\(column) holds \(c.bytes) bytes"), "\(p.problem)")
    switch column {
    case "id": #expect(p.name == "web/?", "an id it cannot read, in its project")
    case "project_id": #expect(p.name == "FEAT-B")
    default: #expect(p.name == "web/FEAT-B")
    }
    // The feature read by id (as a change is) is the same problem, not an error.
    if column != "id" {
      let again = try db.features(id: "FEAT-B")
      guard case .failure(let q)? = again.first else {
        Issue.record("FEAT-B read by id: \(again)")
        return
      }
      #expect(q.problem == p.problem)
    }
    // A time over the cap in the change log, and in the fingerprint, reads too.
    #expect(throws: Never.self) { _ = try db.fingerprint() }
  }

  @Test func aHugeBodyCostsNothing() throws {
    let ws = try Self.store()
    try ws.writer.script("UPDATE features SET body = \(Self.big(10_000_000)) WHERE id = 'FEAT-B';")
    let db = try OrchestraDatabase(path: ws.path)
    let read = try db.features(history: (Make.t("2026-11-05T00:00:00Z"), "backlog"))
    #expect(read.features.map(\.id) == ["FEAT-A", "FEAT-B", "FEAT-C"])
    #expect(read.problems.isEmpty, "\(read.problems)")
  }

  @Test func aChangeLogRowOverTheCapIsPassedOver() throws {
    let ws = try Self.store()
    try ws.writer.script(
      """
      INSERT INTO change_log (entity_type, entity_id, action, version, timestamp)
      VALUES ('features', \(Self.big(300_000)), 'upsert', 1, \(Self.big(300_000)));
      """)
    let db = try OrchestraDatabase(path: ws.path)
    let changes = try #require(try db.changes(after: 0))
    #expect(changes.count == 4)
    #expect(changes.last?.entityID == "" && changes.last?.at == nil)
    #expect(try db.lastChangeTime() == nil)
  }

  @Test func pastTheRowCapTheFirstByProjectAndIdAreKept() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.writer.script(
      """
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
      INSERT INTO features (id, project_id, title, status) SELECT printf('F%06d', i), 'web', 't', 'todo' FROM n;
      """)
    let db = try OrchestraDatabase(path: ws.path)
    let read = try db.features(history: nil)
    #expect(read.features.count == OrchestraDatabase.maxFeatures)
    #expect(read.leftOut == 1)
    #expect(read.features.first?.id == "F000000" && read.features.last?.id == "F099999")

    let (source, board) = Self.follow(ws.path)
    defer { source.stop() }
    #expect(board.wait(30) { $0.features.count == OrchestraDatabase.maxFeatures })
    #expect(
      board.wait(5) {
        $0.origins[source.origin]?.connectionDetail == "1 feature left out (cap 100,000) · SQLite \(ws.path)"
      }, "\(board.board().origins[source.origin]?.connectionDetail ?? "")")
  }

  static func follow(_ path: String) -> (OrchestraDBSource, LiveBoard) {
    let source = OrchestraDBSource(origin: "orchestra-db:\(path)", clock: .system) { (path, "SQLite \(path)") }
    source.pollInterval = 0.05
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board)
  }

  @Test func aBadRowIsNamedOnTheBoardAndNeverMakesTheSourceReadEverythingAgain() throws {
    let ws = try Self.store()
    try ws.writer.script("UPDATE features SET title = \(Self.big(300_000)) WHERE id = 'FEAT-B';")
    let (source, board) = Self.follow(ws.path)
    defer { source.stop() }
    let expected = "1 feature row unreadable: web/FEAT-B: title holds 300000 bytes"
    #expect(
      board.wait(5) { s in
        s.features.count == 2 && s.origins[source.origin]?.connection == .live
          && s.origins[source.origin]?.connectionDetail?.hasPrefix(expected) == true
      }, "\(board.board().origins[source.origin]?.connectionDetail ?? "")")
    // A change to another row, and a change-log row over the cap, while the bad row stays.
    try ws.write(id: "FEAT-A", status: "in-progress", at: "2026-11-04T10:00:00Z")
    try ws.writer.script(
      """
      INSERT INTO change_log (entity_type, entity_id, action, version, timestamp)
      VALUES ('features', \(Self.big(300_000)), 'upsert', 1, '2026-11-04T10:01:00Z');
      """)
    #expect(board.wait(3) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-progress" })
    Thread.sleep(forTimeInterval: 1)  // twenty polls
    #expect(source.fullReads == 1, "the store was read in full \(source.fullReads) times")
    #expect(board.board().origins[source.origin]?.connection == .live)
    // Mended: it shows, and the line no longer names it.
    try ws.write(id: "FEAT-B", title: "short again", status: "todo", at: "2026-11-04T10:02:00Z")
    #expect(
      board.wait(3) { s in
        s.features.count == 3 && s.origins[source.origin]?.connectionDetail == "SQLite \(ws.path)"
      })
    #expect(source.fullReads == 1)
  }

  // MARK: The global database's workflows

  @Test(arguments: ["states", "transitions", "initial_state", "project_id"])
  func aWorkflowsRowOverTheCapCostsOnlyItself(column: String) throws {
    let dir = try TempDir("wallboard-overcap")
    let global = dir.url.appendingPathComponent("global.db").path
    let writer = try SQLWriter(path: global)
    defer { writer.stop() }
    try writer.script(
      "CREATE TABLE workflows (id TEXT PRIMARY KEY, project_id TEXT, name TEXT, states TEXT, transitions TEXT, initial_state TEXT)"
    )
    let states = #"{"done":{"label":"Done","terminal":true},"todo":{"label":"Next"}}"#
    let transitions = #"[{"from":"todo","to":"done"}]"#
    for (id, project) in [("wf1", "web"), ("wf2", "api"), ("wf3", "ops")] {
      try writer.sql("INSERT INTO workflows VALUES (?, ?, 'lean', ?, ?, 'todo')", [id, project, states, transitions])
    }
    try writer.script(
      """
      UPDATE workflows SET \(column) = \(Self.big(300_000)) WHERE id = 'wf2';
      UPDATE workflows SET states = 'not json' WHERE id = 'wf3';
      """)
    let (definitions, _, problems) = WorkspaceWorkflows(globalDatabase: global).load()
    #expect(definitions.compactMap(\.projectId) == ["web"], "the readable row is kept")
    #expect(problems.count == 2, "\(problems.map { $0.prefix(200) })")
    let named = column == "project_id" ? "a workflows row" : "the workflows row of project api"
    let label = column == "project_id" ? "project" : column
    #expect(problems.contains { $0.contains("\(named): \(label) holds 300000 bytes") }, "\(problems)")
    #expect(problems.contains { $0.contains("the workflows row of project ops: states are not a JSON map") })
  }

  // MARK: The markdown tree

  /// A feature file of the plugin's layout with `frontMatter` lines and `body`.
  static func file(_ id: String, _ frontMatter: [String] = [], body: String = "# body\n") -> String {
    (["---", "id: \(id)", "status: todo", "title: \(id)"] + frontMatter + ["---", "", body]).joined(separator: "\n")
  }

  /// Every cap of a feature file, over it.
  static let files: [(cap: String, text: String, says: String)] = [
    (
      "a 300 KB title",
      file("FEAT-B", ["labels: []"]).replacingOccurrences(
        of: "title: FEAT-B", with: "title: " + String(repeating: "x", count: 300_000)), "longer than 65536 bytes"
    ),
    (
      "10 MB of labels", file("FEAT-B", ["labels: [" + String(repeating: "\"x\", ", count: 2_000_000) + "\"x\"]"]),
      "larger than"
    ),
    ("a string over 32 KiB", file("FEAT-B", ["assignee: " + String(repeating: "x", count: 40_000)]), "FEAT-B.md"),
    ("over 1,000 labels", file("FEAT-B", ["labels:"] + Array(repeating: "  - x", count: 1_001)), "FEAT-B.md"),
    ("over 256 keys", file("FEAT-B", (0..<260).map { "k\($0): v" }), "FEAT-B.md"),
    ("a huge body", file("FEAT-B", body: String(repeating: "line of the body\n", count: 100_000)), "larger than"),
  ]

  @Test(arguments: files.map(\.cap))
  func aFileOverACapIsRejectedByNameAndCostsNoOther(cap: String) throws {
    let f = try #require(Self.files.first { $0.cap == cap })
    let dir = try TempDir("wallboard-overcap")
    let features = dir.url.appendingPathComponent(".projects/web/features")
    try FileManager.default.createDirectory(at: features, withIntermediateDirectories: true)
    for id in ["FEAT-A", "FEAT-C"] {
      try Self.file(id).write(to: features.appendingPathComponent("\(id).md"), atomically: true, encoding: .utf8)
    }
    try f.text.write(to: features.appendingPathComponent("FEAT-B.md"), atomically: true, encoding: .utf8)
    let snap = MarkdownWorkspace(workspace: dir.url.path).read()
    #expect(snap.records.map(\.feature.id) == ["FEAT-A", "FEAT-C"])
    let p = try #require(snap.problems.first)
    #expect(snap.problems.count == 1)
    #expect(p.file.hasSuffix("/FEAT-B.md") && p.description.contains(f.says), "\(p.description.prefix(200))")
  }

  @Test func pastTheFileCapTheFirstByProjectAndNameAreKept() throws {
    let dir = try TempDir("wallboard-overcap")
    for (project, ids) in [("web", ["FEAT-E", "FEAT-A", "FEAT-C"]), ("api", ["FEAT-D", "FEAT-B"])] {
      let features = dir.url.appendingPathComponent(".projects/\(project)/features")
      try FileManager.default.createDirectory(at: features, withIntermediateDirectories: true)
      for id in ids {
        try Self.file(id).write(to: features.appendingPathComponent("\(id).md"), atomically: true, encoding: .utf8)
      }
    }
    var limits = MarkdownWorkspace.Limits()
    limits.maxFiles = 3
    let tree = MarkdownWorkspace(workspace: dir.url.path, limits: limits)
    let listing = tree.list()
    #expect(
      listing.entries.values.map(\.path).map { $0.split(separator: "/").suffix(3).joined(separator: "/") }.sorted()
        == ["api/features/FEAT-B.md", "api/features/FEAT-D.md", "web/features/FEAT-A.md"])
    #expect(listing.leftOut == 2)
    #expect(listing.problems.isEmpty, "the cap is said in the detail, not as a bad file")
    #expect(tree.detail(.plugin, leftOut: listing.leftOut) == "2 features left out (cap 3) · markdown \(tree.root)")
    #expect(Set(tree.read().records.map(\.feature.id)) == ["FEAT-A", "FEAT-B", "FEAT-D"])

    // The source shows what the cap allows and says how many were left out.
    let source = OrchestraMarkdownSource(
      origin: "orchestra-md:\(dir.url.path)", workspace: dir.url.path, projects: nil, clock: .system,
      waiter: FileWatcher(mode: .automatic, pollInterval: 1.0, debounce: 0.05, clock: .system), limits: limits)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(
      board.wait(5) { s in
        s.features.count == 3
          && s.origins[source.origin]?.connectionDetail == "2 features left out (cap 3) · markdown \(tree.root)"
      }, "\(board.board().origins[source.origin]?.connectionDetail ?? "")")
    #expect(board.board().counters.rejected == 0, "the cap is not a bad file")
  }
}

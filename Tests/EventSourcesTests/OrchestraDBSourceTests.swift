import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// `orchestra-db:`: the board follows the plugin's database while a second process writes it.
@Suite("Following an Orchestra workspace database", .serialized)
struct OrchestraDBSourceTests {
  static func follow(_ path: String) -> (OrchestraDBSource, LiveBoard) {
    let source = OrchestraDBSource(origin: "orchestra-db:\(path)", clock: .system) {
      WorkspaceLocator.isFile(path) ? (path, "SQLite \(path)") : (nil, "\(path): no such database yet")
    }
    source.pollInterval = 0.1
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board)
  }

  @Test func everyChangeReachesTheBoardWithinTwoSeconds() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo", estimate: "M")
    try ws.write(id: "FEAT-B", status: "in-progress")
    let (source, board) = Self.follow(ws.path)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 2 && $0.origins[source.origin]?.connection == .live })
    #expect(board.board().origins[source.origin]?.connectionDetail == "SQLite \(ws.path)")
    #expect(board.board().workflow(forProject: "web") == .upstream, "upstream's workflow for these sources")

    // A status change, a label change (into a sprint), an estimate change, a new feature, a delete.
    try ws.write(
      id: "FEAT-A", status: "in-review", estimate: "L", labels: #"["sprint:s1"]"#, at: "2026-11-04T10:00:00Z")
    try ws.write(id: "FEAT-C", status: "todo", at: "2026-11-04T10:01:00Z")
    try ws.delete(id: "FEAT-B", at: "2026-11-04T10:02:00Z")
    #expect(
      board.wait(2) { s in
        s.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-review"
          && s.features[FeatureKey(project: "web", id: "FEAT-A")]?.labels == ["sprint:s1"]
          && s.features[FeatureKey(project: "web", id: "FEAT-A")]?.estimate == "L"
          && s.features[FeatureKey(project: "web", id: "FEAT-C")] != nil
          && s.features[FeatureKey(project: "web", id: "FEAT-B")] == nil
      }, "\(board.board().features.mapValues(\.status))")
    // Each change is timed by its change-log row.
    #expect(
      board.board().history[FeatureKey(project: "web", id: "FEAT-C")]?.versions.first?.at
        == Make.t("2026-11-04T10:01:00Z"))
    #expect(board.board().counters.rejected == 0)
  }

  @Test func aLockedDatabaseIsStillReadAndARowWithoutItsLogEntryIsCaught() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")
    let (source, board) = Self.follow(ws.path)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 1 })
    // A change, then the writer holds its lock: WAL readers go on, and the change is read.
    try ws.write(id: "FEAT-A", status: "in-progress", at: "2026-11-04T09:00:00Z")
    try ws.writer.send(["begin": "immediate"])
    #expect(
      board.wait(2) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-progress" },
      "read while the writer holds its lock")
    #expect(board.board().origins[source.origin]?.connection == .live)
    try ws.writer.send(["commit": true])
    // The row is written; its change-log entry never is (a failed insert): the fingerprint finds it.
    try ws.write(id: "FEAT-A", status: "done", at: "2026-11-04T10:00:00Z", logged: false)
    #expect(board.wait(2) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "done" })
  }

  @Test func aDatabaseThatAppearsLaterIsFollowedFromThen() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("later.db").path
    let (source, board) = Self.follow(path)
    defer { source.stop() }
    #expect(board.wait(3) { $0.origins[source.origin]?.connection == .offline })
    #expect(board.board().origins[source.origin]?.connectionDetail == "\(path): no such database yet")
    let writer = try SQLWriter(path: path)
    defer { writer.stop() }
    try writer.script(OrchestraWorkspace.ddl)
    try writer.sql("INSERT INTO projects (slug, name) VALUES ('web', 'web')")
    try writer.sql(
      "INSERT INTO features (id, project_id, title, status, updated_at) VALUES ('FEAT-X', 'web', 'X', 'todo', '2026-11-04T10:00:00Z')"
    )
    #expect(
      board.wait(3) {
        $0.features[FeatureKey(project: "web", id: "FEAT-X")] != nil && $0.origins[source.origin]?.connection == .live
      })
  }
}

/// `orchestra-db:` on first sight: the board's history starts with the audit trail in each body.
@Suite("Following an Orchestra workspace database: history from the trail", .serialized)
struct OrchestraDBBackfillTests {
  typealias M = Make

  static func version(_ at: String, _ status: String, points: Double? = 2) -> FeatureVersion {
    FeatureVersion(at: M.t(at), status: status, points: points, sprints: [], exists: true)
  }

  @Test func theBoardAfterFirstSightHasHistoryFromTheTrail() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    // A: the current tools, a bug's gate skipped, approved with a comment.
    try ws.write(id: "FEAT-A", status: "todo", estimate: "M", at: "2026-11-02T09:00:00Z")
    try ws.advance(id: "FEAT-A", kind: "silent", to: "in-progress", at: "2026-11-02T10:00:00Z")
    try ws.advance(
      id: "FEAT-A", kind: "gated", to: "in-testing", at: "2026-11-03T10:00:00Z",
      text: "## Changes\n- **svc package** (internal/svc): new\n\n---\n**Phase 2 -> 3**: a rule in the evidence")
    try ws.advance(id: "FEAT-A", kind: "gate-skipped", to: "in-review", at: "2026-11-04T10:00:00Z", text: "bug")
    try ws.advance(id: "FEAT-A", kind: "review", to: "done", at: "2026-11-05T10:00:00Z", text: "Ship it")
    // B: v0.1's untimed lines, then a note: the row's status holds from its updated_at.
    try ws.write(id: "FEAT-B", status: "todo", estimate: "M", at: "2026-11-02T09:00:00Z")
    try ws.advance(id: "FEAT-B", kind: "v0.1", to: "in-progress", at: "2026-11-03T09:00:00Z", text: "go")
    try ws.advance(id: "FEAT-B", kind: "note", to: "", at: "2026-11-06T09:00:00Z", text: "**todo -> done**: no")
    // C: no trail at all.
    try ws.write(id: "FEAT-C", status: "todo", estimate: "M", at: "2026-11-07T09:00:00Z")

    let path = ws.path
    let source = OrchestraDBSource(
      origin: "orchestra-db:\(path)", clock: .system.stamping { M.t("2026-11-20T00:00:00Z") }
    ) {
      (path, "SQLite \(path)")
    }
    source.pollInterval = 0.1
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 3 })
    let s = board.board()
    #expect(
      s.history[FeatureKey(project: "web", id: "FEAT-A")]?.versions == [
        // The first line starts from in-progress: `set_current_feature` wrote none.
        Self.version("2026-11-02T09:00:00Z", "in-progress"), Self.version("2026-11-03T10:00:00Z", "in-testing"),
        Self.version("2026-11-04T10:00:00Z", "in-review"), Self.version("2026-11-05T10:00:00Z", "done"),
      ])
    #expect(
      s.history[FeatureKey(project: "web", id: "FEAT-B")]?.versions == [
        Self.version("2026-11-02T09:00:00Z", "todo"), Self.version("2026-11-06T09:00:00Z", "in-progress"),
      ])
    #expect(
      s.history[FeatureKey(project: "web", id: "FEAT-C")]?.versions == [Self.version("2026-11-07T09:00:00Z", "todo")])
    #expect(s.origins[source.origin]?.historyFrom == M.t("2026-11-02T09:00:00Z"))

    // A live move afterwards comes after the past, dated by its change-log row.
    try ws.advance(id: "FEAT-C", kind: "silent", to: "in-progress", at: "2026-11-20T00:00:00Z")
    #expect(board.wait(2) { $0.features[FeatureKey(project: "web", id: "FEAT-C")]?.status == "in-progress" })
    #expect(
      board.board().history[FeatureKey(project: "web", id: "FEAT-C")]?.versions == [
        Self.version("2026-11-07T09:00:00Z", "todo"), Self.version("2026-11-20T00:00:00Z", "in-progress"),
      ])
    #expect(board.board().counters.rejected == 0)
  }
}

extension OrchestraDBBackfillTests {
  @Test func aDatabaseWithoutBodiesAndABodyPastTheCap() throws {
    // An older schema without `body`: the timestamps alone.
    let old = try OrchestraWorkspace(
      ddl: OrchestraWorkspace.ddl.replacingOccurrences(
        of: "depends_on TEXT DEFAULT '[]', body TEXT DEFAULT '',", with: "depends_on TEXT DEFAULT '[]',"))
    try old.project("web")
    try old.write(id: "FEAT-A", status: "todo", at: "2026-11-02T09:00:00Z")
    try old.writer.sql("UPDATE features SET status = 'done', updated_at = '2026-11-05T09:00:00Z'")
    let now = M.t("2026-11-20T00:00:00Z")
    let rows = try OrchestraDatabase(path: old.path).features(history: (now, "todo"))
    #expect(
      rows.history == [
        FeatureKey(project: "web", id: "FEAT-A"): [
          StatusMove(at: M.t("2026-11-02T09:00:00Z"), status: "todo"),
          StatusMove(at: M.t("2026-11-05T09:00:00Z"), status: "done"),
        ]
      ])

    // A body far past the value cap is read from its end: the newest entry, the start unknown.
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-B", status: "todo", at: "2026-11-02T09:00:00Z")
    try ws.advance(
      id: "FEAT-B", kind: "gated", to: "in-testing", at: "2026-11-03T09:00:00Z",
      text: String(repeating: "ü", count: 300_000))
    try ws.advance(id: "FEAT-B", kind: "gated", to: "in-review", at: "2026-11-04T09:00:00Z", text: "## Results")
    let db = try OrchestraDatabase(path: ws.path)
    let read = try db.features(history: (now, "todo"))
    #expect(read.problems == [])
    #expect(
      read.history == [
        FeatureKey(project: "web", id: "FEAT-B"): [StatusMove(at: M.t("2026-11-04T09:00:00Z"), status: "in-review")]
      ],
      "the start is unknown")
  }
}

/// The review's cases: several rows of one feature in one poll, and a row seen before its log
/// row (the plugin's two commits).
@Suite("Following a database: one poll, many rows", .serialized)
struct OrchestraDBPollTests {
  static func follow(_ path: String, interval: Double) -> (OrchestraDBSource, LiveBoard) {
    let source = OrchestraDBSource(origin: "orchestra-db:\(path)", clock: .system) { (path, "SQLite \(path)") }
    source.pollInterval = interval
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board)
  }

  @Test func aFeatureChangedTwiceBetweenPollsIsOneEventAtItsLastTime() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo", at: "2026-11-03T23:00:00Z")
    let (source, board) = Self.follow(ws.path, interval: 60)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features[FeatureKey(project: "web", id: "FEAT-A")] != nil })
    let before = board.board().history[FeatureKey(project: "web", id: "FEAT-A")]?.versions.count ?? 0
    try ws.write(id: "FEAT-A", status: "in-progress", at: "2026-11-03T23:59:58Z")
    try ws.write(id: "FEAT-A", status: "done", at: "2026-11-04T00:00:03Z")
    source.lookNow()
    #expect(board.wait(3) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "done" })
    let versions = board.board().history[FeatureKey(project: "web", id: "FEAT-A")]?.versions ?? []
    #expect(versions.count == before + 1, "one event for the two rows: \(versions)")
    #expect(versions.last?.at == Make.t("2026-11-04T00:00:03Z"), "done on the day it was done")
  }

  @Test func aRowSeenBeforeItsLogRowIsNoResync() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")
    let (source, board) = Self.follow(ws.path, interval: 0.2)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features[FeatureKey(project: "web", id: "FEAT-A")] != nil })
    _ = board.board()
    let snapshots = board.snapshots
    // The plugin's first commit (the row) …
    try ws.write(id: "FEAT-A", status: "in-review", at: "2026-11-04T10:00:00Z", logged: false)
    Thread.sleep(forTimeInterval: 0.3)
    // … and, a poll later, its second (the log row).
    try ws.writer.sql(
      "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', 'FEAT-A', 'upsert', 2, '2026-11-04T10:00:00Z')"
    )
    #expect(board.wait(3) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-review" })
    Thread.sleep(forTimeInterval: 0.5)
    _ = board.board()
    #expect(board.snapshots == snapshots, "the change came through its log row, not a full read")
  }

  /// A row that cannot be read is said on the source's line for as long as it stays so, first by
  /// project and id, and the line is the store's alone again once it reads.
  @Test func anUnreadableRowIsOnTheSourcesLineUntilItReads() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.write(id: "FEAT-A", status: "todo")
    try ws.write(id: "FEAT-B", status: "todo", labels: "not json")
    let (source, board) = Self.follow(ws.path, interval: 0.1)
    defer { source.stop() }
    let base = "SQLite \(ws.path)"
    let bad = "1 feature row unreadable: web/FEAT-B: labels are not a JSON list of strings: not json · \(base)"
    #expect(
      board.wait(5) { $0.origins[source.origin]?.connectionDetail == bad },
      "\(board.board().origins[source.origin]?.connectionDetail ?? "-")")
    #expect(board.board().features.count == 1, "the other row is read")

    // A second bad row by the change log: counted, the first still named.
    try ws.write(id: "FEAT-C", status: "todo", labels: "[1]", at: "2026-11-04T10:00:00Z")
    #expect(
      board.wait(3) {
        $0.origins[source.origin]?.connectionDetail?.hasPrefix("2 feature rows unreadable: web/FEAT-B:") == true
      }, "\(board.board().origins[source.origin]?.connectionDetail ?? "-")")

    // Both mended: the line is the store's again, said at once.
    try ws.write(id: "FEAT-B", status: "todo", at: "2026-11-04T10:01:00Z")
    try ws.write(id: "FEAT-C", status: "done", at: "2026-11-04T10:02:00Z")
    #expect(
      board.wait(3) { $0.origins[source.origin]?.connectionDetail == base && $0.features.count == 3 },
      "\(board.board().origins[source.origin]?.connectionDetail ?? "-")")
  }
}

import Clock
import EventSources
import Foundation
import Projections
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// Issue 21, item 9, end to end: through each store a workspace has and the burndown, a trail
/// entry dated 9999-12-31 does not move today's remaining work, and the source says what it set aside.
@Suite("Audit-trail dates through the stores and the burndown", .serialized)
struct TrailLifetimeStoreTests {
  typealias M = Make
  typealias T = TrailText
  static let now = M.t("2026-11-09T12:00:00Z")
  static let created = "2026-10-28T09:00:00Z"

  /// A: done 11-04 by `updated_at`, its approval dated 9999-12-31. B: done 11-06, a move dated
  /// 1970 in its trail. C: still to do.
  static let rows: [(id: String, status: String, updated: String, body: String)] = [
    (
      "FEAT-A", "done", "2026-11-04T15:00:00Z",
      T.created + T.gated("in-progress", "in-review", "2026-11-03T10:00:00Z", "x")
        + T.review("approved", "9999-12-31T00:00:00Z", "far future")
    ),
    ("FEAT-B", "done", "2026-11-06T11:00:00Z", T.created + T.gated("in-progress", "done", "1970-01-01T00:00:00Z", "y")),
    ("FEAT-C", "todo", created, T.created),
  ]

  /// What a source delivered, gathered.
  final class Inputs: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [BoardInput] = []
    func put(_ i: BoardInput) { lock.withLock { all.append(i) } }
    var list: [BoardInput] { lock.withLock { all } }
    func wait(_ seconds: Double, _ ok: ([BoardInput]) -> Bool) -> Bool {
      let end = Date().addingTimeInterval(seconds)
      while Date() < end {
        if ok(list) { return true }
        Thread.sleep(forTimeInterval: 0.02)
      }
      return ok(list)
    }
  }

  static func snapshot(_ inputs: [BoardInput]) -> Event? {
    for case .event(let e) in inputs { if case .boardSnapshot = e.body { return e } }
    return nil
  }

  static func reasons(_ inputs: [BoardInput]) -> [String] {
    inputs.compactMap { if case .rejected(_, _, let reason, _) = $0 { reason } else { nil } }
  }

  /// The board after the sprint and the store's snapshot, and its burndown now.
  static func checkBurndown(_ snapshot: Event) throws {
    let s = M.state([
      M.event(
        "2026-11-01T00:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13")),
        origin: "jsonl:sprints"),
      snapshot,
    ])
    let a = try #require(s.history.first { $0.key.id == "FEAT-A" }?.value)
    #expect(a.versions.first { $0.status == "done" }?.at == M.t("2026-11-04T15:00:00Z"), "\(a.versions)")
    let b = Burndown.compute(state: s, sprint: try #require(s.activeSprint()), at: Self.now, boardZone: .utc)
    #expect(b.committed == 6)
    // 11-02 … 11-09: A burns on the 4th, B on the 6th; today (the 9th) moves nothing.
    #expect(Array(b.remaining.prefix(8)) == [6, 6, 4, 4, 2, 2, 2, 2])
  }

  @Test func theDatabaseBody() throws {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    for r in Self.rows {
      try ws.write(id: r.id, status: r.status, estimate: "M", labels: #"["sprint:s1"]"#, at: Self.created)
      try ws.writer.sql("UPDATE features SET body = ?, updated_at = ? WHERE id = ?", [r.body, r.updated, r.id])
    }
    let path = ws.path
    let now = Self.now
    let source = OrchestraDBSource(origin: "orchestra-db:\(path)", clock: .system.stamping { now }) {
      (path, "SQLite \(path)")
    }
    let inputs = Inputs()
    source.start { inputs.put($0) }
    defer { source.stop() }
    #expect(inputs.wait(10) { Self.snapshot($0) != nil })
    try Self.checkBurndown(try #require(Self.snapshot(inputs.list)))
    let reasons = Self.reasons(inputs.list)
    #expect(reasons.count == 2, "\(reasons)")
    #expect(reasons.contains { $0.hasPrefix("\(path): feature web/FEAT-A: ") && $0.contains("9999-12-31T00:00:00Z") })
    #expect(reasons.contains { $0.hasPrefix("\(path): feature web/FEAT-B: ") && $0.contains("1970-01-01T00:00:00Z") })
    // A read row, not an unreadable one: the detail names no unreadable row.
    for case .connection(_, .live, _, let detail?) in inputs.list { #expect(!detail.contains("unreadable")) }
  }

  @Test func theMarkdownBody() throws {
    let dir = try TempDir("wallboard-trail")
    let project = dir.url.appendingPathComponent(".projects/web")
    let features = project.appendingPathComponent("features")
    try FileManager.default.createDirectory(at: features, withIntermediateDirectories: true)
    try Data(
      "---\ncreated_at: \"\(Self.created)\"\nid: web\nname: web\nslug: web\nupdated_at: \"\(Self.created)\"\n---\n"
        .utf8
    ).write(to: project.appendingPathComponent("project.json"))
    for r in Self.rows {
      let file = """
        ---
        created_at: "\(Self.created)"
        estimate: M
        id: \(r.id)
        labels:
            - sprint:s1
        project_id: web
        status: \(r.status)
        title: Feature \(r.id)
        updated_at: "\(r.updated)"
        ---

        # Feature \(r.id)
        \(r.body)
        """
      try Data(file.utf8).write(to: features.appendingPathComponent("\(r.id).md"))
    }
    let now = Self.now
    let source = OrchestraMarkdownSource(
      origin: "orchestra-md:\(dir.url.path)", workspace: dir.url.path, clock: .system.stamping { now })
    let inputs = Inputs()
    source.start { inputs.put($0) }
    defer { source.stop() }
    #expect(inputs.wait(10) { Self.snapshot($0) != nil })
    try Self.checkBurndown(try #require(Self.snapshot(inputs.list)))
    let reasons = Self.reasons(inputs.list)
    #expect(reasons.count == 2, "\(reasons)")
    let file = features.appendingPathComponent("FEAT-A.md").path
    #expect(reasons.contains { $0.hasPrefix("\(file): ") && $0.contains("9999-12-31T00:00:00Z") }, "\(reasons)")
    #expect(reasons.contains { $0.contains("FEAT-B.md: ") && $0.contains("1970-01-01T00:00:00Z") }, "\(reasons)")
  }
}

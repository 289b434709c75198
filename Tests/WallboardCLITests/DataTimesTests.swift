import Clock
import Foundation
import Projections
import TestSupport
import Testing
import WallboardCLI
import WallboardCore
import Widgets
import Wire

/// Times are the data's, not the read's: a workspace whose newest change is months old shows
/// that date — on first read, with `--at`, and after a restart from the journal — in the
/// freshness line, the Recent changes and `inspect`.
@Suite("Times are the data's, not the read's", .serialized)
struct DataTimesTests {
  /// The tests' clock: months after the data last changed.
  static let now = Make.t("2026-11-20T00:00:00Z")

  /// A workspace of the fixtures, and what its newest change is.
  struct Workspace: CustomStringConvertible, Sendable {
    var kind: String
    /// When the data last changed: for the database its change log's last row (a delete).
    var newest: String
    var description: String { kind }
  }

  static let workspaces = [
    Workspace(kind: "markdown", newest: "2026-03-09T14:30:00Z"),
    Workspace(kind: "sqlite", newest: "2026-03-09T16:00:00Z"),
  ]

  /// The `--source` of a fixture workspace (the database made from `sqlite/march.sql` in `dir`).
  static func source(_ w: Workspace, in dir: TempDir) throws -> String {
    switch w.kind {
    case "markdown":
      return "orchestra-md:" + Paths.fixtures.appendingPathComponent("markdown/march").path
    default:
      let ws = try OrchestraWorkspace(at: dir.url.appendingPathComponent("march.db").path)
      try ws.writer.script(
        String(contentsOf: Paths.fixtures.appendingPathComponent("sqlite/march.sql"), encoding: .utf8))
      ws.writer.stop()
      return "orchestra-db:" + ws.path
    }
  }

  static func run(_ args: [String], home: TempDir, now: Instant = now) throws -> JSONObject {
    let c = Captured()
    let app = App(
      console: c.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "HOME": home.url.path],
      now: { now })
    let code = app.main(["inspect", "--tz", "UTC", "--settle", "0.3", "--wait", "10"] + args)
    try #require(code == 0, "inspect \(args): \(c.err)")
    guard case .object(let root) = try JSONParser.parse(c.out) else { throw Failure("not an object: \(c.out)") }
    return root
  }

  /// The board `snapshot` would draw: its freshness line and Recent changes, as text.
  static func frame(_ args: [String], home: TempDir, now: Instant = now) throws -> FrameModel {
    var options = try ArgumentParser.parse(["--tz", "UTC", "--settle", "0.3", "--wait", "10"] + args)
    options.commandLine = []
    let load = try FiniteLoad.load(
      options, now: now, environment: ["HOME": home.url.path], clock: .system.stamping { now })
    return FrameModel(state: load.state, at: load.at, now: now, zone: .utc, unit: .auto)
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
  }

  static func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { s } else { nil } }

  static func sources(_ root: JSONObject) -> [JSONObject] {
    guard case .array(let a)? = root["sources"] else { return [] }
    return a.compactMap { if case .object(let o) = $0 { o } else { nil } }
  }

  /// `recent` as "FEAT-ID → state @ at", newest first.
  static func recent(_ root: JSONObject) -> [String] {
    guard case .array(let a)? = root["recent"] else { return [] }
    return a.compactMap { v in
      guard case .object(let o) = v else { return nil }
      return "\(string(o["feature_id"]) ?? "?") → \(string(o["to"]) ?? "?") @ \(string(o["at"]) ?? "?")"
    }
  }

  /// What the fixtures' audit trails and timestamps say happened, newest first.
  static let happened = [
    "FEAT-PAY → in-testing @ 2026-03-09T14:30:00Z",
    "FEAT-LOG → done @ 2026-03-05T16:00:00Z",
    "FEAT-LOG → in-review @ 2026-03-04T11:00:00Z",
    "FEAT-CRT → todo @ 2026-03-02T10:00:00Z",
    "FEAT-PAY → in-progress @ 2026-02-24T09:00:00Z",
    "FEAT-LOG → in-progress @ 2026-02-23T09:00:00Z",
  ]

  @Test(arguments: workspaces)
  func theFirstReadSaysWhenTheDataLastChanged(_ w: Workspace) throws {
    let dir = try TempDir("wallboard-times")
    let source = try Self.source(w, in: dir)
    let root = try Self.run(["--source", source], home: dir)
    // The moment shown is the read's (the present), not the data's newest change.
    #expect(Self.string(root["at"]) == Self.now.rfc3339)
    let s = try #require(Self.sources(root).first)
    #expect(Self.string(s["status"]) == "live", "live: the source is followed")
    #expect(Self.string(s["last_change_at"]) == w.newest)
    #expect(Self.string(s["last_event_at"]) == w.newest)
    #expect(Self.recent(root) == Self.happened)

    let frame = try Self.frame(["--source", source], home: dir)
    let row = try #require(frame.sources.first)
    #expect(row.status == .live)
    #expect(row.age == "updated 9 Mar", "\(row.age)")
    #expect(frame.recent.map(\.age) == ["9 Mar", "5 Mar", "4 Mar", "2 Mar", "24 Feb", "23 Feb"])
  }

  @Test(arguments: workspaces)
  func atAMomentInMarchTheAgesAreFromThen(_ w: Workspace) throws {
    let dir = try TempDir("wallboard-times")
    let source = try Self.source(w, in: dir)
    let at = "2026-03-10T12:00:00Z"
    let root = try Self.run(["--source", source, "--at", at], home: dir)
    #expect(Self.string(root["at"]) == at)
    let s = try #require(Self.sources(root).first)
    #expect(Self.string(s["last_change_at"]) == w.newest)
    #expect(Self.recent(root) == Self.happened)

    let frame = try Self.frame(["--source", source, "--at", at], home: dir)
    let row = try #require(frame.sources.first)
    #expect(row.age == (w.kind == "markdown" ? "updated 21 h ago" : "updated 20 h ago"), "\(row.age)")
    #expect(frame.recent.prefix(3).map(\.age) == ["21 h ago", "4 d ago", "6 d ago"])
  }

  @Test(arguments: workspaces)
  func dataFromAfterTheMomentGivesNoNegativeAge(_ w: Workspace) throws {
    let dir = try TempDir("wallboard-times")
    let source = try Self.source(w, in: dir)
    let frame = try Self.frame(["--source", source, "--at", "2026-03-07T12:00:00Z"], home: dir)
    let row = try #require(frame.sources.first)
    // Changed after the moment shown: dated, never "0 s ago" nor a negative age.
    #expect(row.age == "updated 9 Mar", "\(row.age)")
    #expect(frame.recent.first?.age == "9 Mar")
    #expect(frame.recent.dropFirst().first?.age == "1 d ago")
  }

  @Test(arguments: workspaces)
  func aRestartFromTheJournalShowsTheSameDate(_ w: Workspace) throws {
    let dir = try TempDir("wallboard-times")
    let source = try Self.source(w, in: dir)
    let journal = dir.url.appendingPathComponent("board.db").path
    let first = try Self.run(["--source", source, "--journal", journal], home: dir)
    #expect(Self.string(Self.sources(first).first?["last_change_at"]) == w.newest)

    // A day later, from the journal alone, and from the journal with the workspace again.
    let later = Make.t("2026-11-21T00:00:00Z")
    for args in [["--journal", journal], ["--source", source, "--journal", journal]] {
      let root = try Self.run(args, home: dir, now: later)
      let s = try #require(Self.sources(root).first, "\(args)")
      #expect(Self.string(s["last_change_at"]) == w.newest, "\(args)")
      #expect(Self.recent(root) == Self.happened, "\(args)")
      let frame = try Self.frame(args, home: dir, now: later)
      #expect(frame.sources.first?.age == "updated 9 Mar", "\(args)")
      #expect(frame.recent.first?.age == "9 Mar", "\(args)")
    }
  }
}

import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// A folder made read-only for one command, as on read-only media (the kiosk's `/home` drop-in, a
/// journal on a USB stick): `unshare -rm` (a user and mount namespace of its own), the folder
/// bind-mounted over itself and remounted read-only, then the command.
enum ReadOnlyMount {
  static let unshare = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
  static let script = #"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@""#

  /// Why no read-only mount can be made here; nil when one can (tried once: a folder made
  /// read-only refuses a new file).
  static let unavailable: String? = {
    guard let unshare else { return "no unshare(1) on this machine" }
    do {
      let dir = try TempDir("wallboard-ro-probe")
      let r = try TestSupport.Command.run(
        URL(fileURLWithPath: unshare),
        ["-rm", "sh", "-c", script, "sh", dir.url.path, "sh", "-c", "! touch \"$0/x\"", dir.url.path],
        timeout: 10)
      return r.status == 0 ? nil : "unshare -rm + mount -o bind,ro failed (exit \(r.status)): \(r.err.prefix(300))"
    } catch {
      return "unshare could not be run: \(error)"
    }
  }()

  /// Whether the tests can run; when not, the reason is printed (the test shows as skipped).
  static var available: Bool {
    if let why = unavailable {
      FileHandle.standardError.write(Data("ReadOnlyMediaTests skipped: \(why)\n".utf8))
      return false
    }
    return true
  }

  /// `wallboard args` with `folder` read-only.
  static func wallboard(_ args: [String], readOnly folder: String, home: String) throws -> TestSupport.Command.Result {
    try TestSupport.Command.run(
      URL(fileURLWithPath: unshare!), ["-rm", "sh", "-c", script, "sh", folder, Paths.binary.path] + args,
      environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "HOME": home, "PATH": "/usr/bin:/bin"], timeout: 60)
  }
}

/// Issue 21, item 5: a workspace database, a journal and a replay on read-only media, their
/// writers stopped — read, and nothing left beside them.
@Suite(
  "Read-only media: workspace database, journal, replay", .serialized,
  .enabled(if: ReadOnlyMount.available, "needs a mount namespace (unshare -rm, mount -o bind,ro): reason on stderr"))
struct ReadOnlyMediaTests {
  static func listing(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  static func object(_ out: String) -> JSONObject? {
    guard case .object(let root)? = try? JSONParser.parse(out) else { return nil }
    return root
  }

  static func source(_ out: String, prefix: String) -> JSONObject? {
    guard case .array(let sources)? = object(out)?["sources"] else { return nil }
    for case .object(let s) in sources {
      if case .string(let n)? = s["name"], n.hasPrefix(prefix) { return s }
    }
    return nil
  }

  @Test func aWorkspaceDatabaseWhoseWriterStoppedIsReadFromAReadOnlyHome() throws {
    let (home, ws, dbDir, path) = try WorkspaceInspectTests.homeWithWorkspace()
    let writer = try SQLWriter(path: path)
    try writer.script(OrchestraWorkspace.ddl)
    try writer.sql("INSERT INTO projects (slug, name) VALUES ('web', 'web')")
    for (id, status) in [("FEAT-A", "todo"), ("FEAT-B", "done"), ("FEAT-C", "backlog")] {
      try writer.sql(
        "INSERT INTO features (id, project_id, title, status, updated_at) VALUES (?, 'web', ?, ?, '2026-11-04T10:00:00Z')",
        [id, id, status])
    }
    writer.stop()
    let before = try Self.listing(dbDir.path)
    #expect(before == [(path as NSString).lastPathComponent], "the writer's close removed its -wal and -shm")
    let r = try ReadOnlyMount.wallboard(
      ["inspect", "--source", "orchestra:\(ws.path)", "--settle", "0.3", "--wait", "5", "--tz", "UTC"],
      readOnly: home.url.path, home: home.url.path)
    #expect(r.status == 0, "\(r.err)")
    #expect(WorkspaceInspectTests.tallies(r.out).values.reduce(0, +) == 3, "\(r.out.prefix(1200))")
    let source = try #require(Self.source(r.out, prefix: "orchestra:"), "\(r.out.prefix(1200))")
    #expect(source["status"] == JSONValue.string("live"), "\(source)")
    #expect(source["detail"] == JSONValue.string("SQLite \(path)"), "\(source)")
    #expect(try Self.listing(dbDir.path) == before)
  }

  @Test func aLiveWritersDatabaseIsReadFromAReadOnlyHome() throws {
    let (home, ws, dbDir, path) = try WorkspaceInspectTests.homeWithWorkspace()
    let writer = try SQLWriter(path: path)
    defer { writer.stop() }
    try writer.script(OrchestraWorkspace.ddl)
    try writer.sql("INSERT INTO projects (slug, name) VALUES ('web', 'web')")
    for id in ["FEAT-A", "FEAT-B"] {
      try writer.sql("INSERT INTO features (id, project_id, title, status) VALUES (?, 'web', ?, 'todo')", [id, id])
    }
    // The writer's last commit is still in its -wal: the board must read it, not the file alone.
    #expect(try Self.listing(dbDir.path).contains { $0.hasSuffix("-wal") })
    let r = try ReadOnlyMount.wallboard(
      ["inspect", "--source", "orchestra:\(ws.path)", "--settle", "0.3", "--wait", "5", "--tz", "UTC"],
      readOnly: home.url.path, home: home.url.path)
    #expect(r.status == 0, "\(r.err)")
    #expect(WorkspaceInspectTests.tallies(r.out).values.reduce(0, +) == 2, "\(r.out.prefix(1200))")
  }

  @Test func aJournalOnReadOnlyMediaIsInspectedAndReplayed() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let at = JournalCLITests.earlier
    _ = try JournalCLITests.inspect(["--source", "sim", "--journal", journal])
    let before = try Self.listing(dir.url.path)
    #expect(before == ["board.db"], "the board's close removed its -wal and -shm")
    let inspected = try ReadOnlyMount.wallboard(
      ["inspect", "--tz", "UTC", "--journal", journal, "--at", at], readOnly: dir.url.path, home: dir.url.path)
    #expect(inspected.status == 0, "\(inspected.err)")
    let replayed = try ReadOnlyMount.wallboard(
      ["inspect", "--tz", "UTC", "--source", "replay:\(journal)", "--at", at], readOnly: dir.url.path,
      home: dir.url.path)
    #expect(replayed.status == 0, "\(replayed.err)")
    #expect(try Self.listing(dir.url.path) == before)
    // What the same journal gives where it can be written.
    let original = try JournalCLITests.inspect(["--journal", journal, "--at", at])
    #expect(Self.object(inspected.out)?["tallies"] == Self.object(original)?["tallies"], "\(inspected.out.prefix(600))")
    #expect(Self.object(replayed.out)?["tallies"] == Self.object(original)?["tallies"], "\(replayed.out.prefix(600))")
    #expect(Self.object(original)?["tallies"] != nil)
  }
}

/// Issue 21, item 5: a workspace whose database cannot be opened at all reads its markdown tree,
/// and says why in its detail.
@Suite("A workspace database that cannot be opened", .serialized)
struct UnopenableDatabaseTests {
  @Test(arguments: ["not a database", ""])
  func theMarkdownTreeIsReadAndTheDetailSaysWhy(junk: String) throws {
    let ws = try OrchestraWorkspaceInspectTests.Workspace()
    try OrchestraWorkspaceInspectTests.team(ws)
    let dbDir = ws.home.url.appendingPathComponent(".orchestra/db")
    try FileManager.default.createDirectory(at: dbDir, withIntermediateDirectories: true)
    let path = EventSourcesLocator.hashed(home: ws.home.url.path, workspace: ws.path)
    try Data(String(repeating: junk, count: 64).utf8).write(to: URL(fileURLWithPath: path))
    let root = try OrchestraWorkspaceInspectTests.inspect(ws)
    let source = try #require(OrchestraWorkspaceInspectTests.source(root), "no orchestra source")
    #expect(source["status"] == JSONValue.string("live"), "\(source)")
    guard case .string(let detail)? = source["detail"] else {
      Issue.record("no detail: \(source)")
      return
    }
    #expect(detail.hasPrefix("markdown \(ws.path)/.projects"), "\(detail)")
    #expect(detail.contains("database \(path) cannot be opened"), "\(detail)")
    guard case .array(let tallies)? = root["tallies"] else {
      Issue.record("no tallies")
      return
    }
    var total = 0.0
    for case .object(let t) in tallies { if case .number(let n)? = t["count"] { total += n } }
    #expect(total == 3)
  }
}

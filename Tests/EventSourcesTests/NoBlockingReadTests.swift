import Clock
import EventSources
import Foundation
import Posix
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// Issue 21, item 3: no read blocks for ever. Every file the workspace code opens is opened
/// without waiting and refused by name unless it is a regular file; every workspace query ends
/// within its deadline, and a store whose query does not is tried again after a back-off.
@Suite("Reads that never block", .serialized)
struct NoBlockingReadTests {
  static func fifo(_ path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
  }

  // MARK: The one helper

  @Test func aFIFOADeviceAFolderAndALinkAreRefusedByName() throws {
    let dir = try TempDir()
    let fifo = dir.url.appendingPathComponent("a.fifo").path
    try Self.fifo(fifo)
    let file = dir.url.appendingPathComponent("small.json").path
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    let link = dir.url.appendingPathComponent("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    let cases: [(String, Bool, Result<[UInt8], RegularFile.ReadError>)] = [
      (fifo, true, .failure(.notRegular("FIFO"))),
      ("/dev/zero", true, .failure(.notRegular("character device"))),
      (dir.url.path, true, .failure(.notRegular("directory"))),
      (link, false, .failure(.notRegular("symbolic link"))),
      (link, true, .success(Array("{}".utf8))),
      (file, true, .success(Array("{}".utf8))),
      (dir.url.appendingPathComponent("none").path, true, .failure(.missing)),
    ]
    for (path, follow, expected) in cases {
      let got = Deadline.within(5) { RegularFile.read(path, limit: 1024, followLinks: follow) }
      #expect(got == expected, "\(path)")
    }
    #expect(RegularFile.ReadError.notRegular("FIFO").description == "a FIFO, not a regular file: not read")
  }

  @Test(arguments: [0, 1, 2, 3, 100])
  func theLimitHolds(size: Int) throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("f").path
    try Data(repeating: 0x41, count: size).write(to: URL(fileURLWithPath: file))
    let got = RegularFile.read(file, limit: 2)
    #expect(got == (size <= 2 ? .success([UInt8](repeating: 0x41, count: size)) : .failure(.tooLarge(Int64(size)))))
  }

  // MARK: Every file the locator opens

  /// A home with a markdown workspace `team-ws` under it.
  static func home() throws -> (TempDir, String) {
    let home = try TempDir("wallboard-home")
    let ws = home.url.appendingPathComponent("team-ws").path
    try FileManager.default.createDirectory(atPath: ws + "/.projects/web/features", withIntermediateDirectories: true)
    return (home, ws)
  }

  @Test(arguments: [".orchestra/db/index.json", ".orchestra/run/team-ws.info"])
  func aFIFOWhereTheLocatorReadsDoesNotHoldItUp(file: String) throws {
    let (home, ws) = try Self.home()
    try Self.fifo(home.url.path + "/" + file)
    let locator = WorkspaceLocator(home: home.url.path, currentDirectory: "/")
    let path = home.url.path + "/" + file
    let found = Deadline.within(5) {
      (
        locator.locate(workspace: ws).store,
        locator.workspace(ofDatabase: locator.hashedDatabase(for: ws)), locator.read(path) == nil
      )
    }
    let (store, mapped, refused) = try #require(found, "the locator blocked on a FIFO at \(file)")
    #expect(store == .markdown(ws + "/.projects"))
    #expect(mapped == nil)
    #expect(refused)
  }

  @Test func aWorkspaceSourceWithFIFOsAtIndexAndInfoGoesLive() throws {
    let (home, ws) = try Self.home()
    try Self.fifo(home.url.path + "/.orchestra/db/index.json")
    try Self.fifo(home.url.path + "/.orchestra/run/team-ws.info")
    let locator = WorkspaceLocator(home: home.url.path, currentDirectory: "/")
    let source = OrchestraWorkspaceSource(origin: "orchestra:\(ws)", workspace: ws, locator: locator, clock: .system) {
      found in
      guard case .markdown = found.store else { return nil }
      return OrchestraMarkdownSource(origin: "orchestra:\(ws)", workspace: found.workspace, clock: .system)
    }
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(
      board.wait(8) { $0.origins[source.origin]?.connection == .live },
      "\(String(describing: board.board().origins[source.origin]))")
  }

  @Test(arguments: ["features/FEAT-A.md", "project.json"])
  func aFIFOInTheMarkdownTreeIsNamedNotRead(file: String) throws {
    let (home, ws) = try Self.home()
    _ = home
    let path = ws + "/.projects/web/" + file
    try Self.fifo(path)
    let source = OrchestraMarkdownSource(origin: "orchestra:\(ws)", workspace: ws, clock: .system)
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(8) { $0.origins[source.origin]?.connection == .live })
    if file.hasSuffix(".md") {
      #expect(
        board.wait(3) { $0.origins[source.origin]?.lastError?.contains("a FIFO, not a regular file") == true },
        "\(String(describing: board.board().origins[source.origin]?.lastError))")
    }
  }

  // MARK: Every workspace query

  /// The plugin's tables, with one of them replaced by a view that counts for ever and yields
  /// nothing.
  static func ddl(endless table: String) -> String {
    let columns =
      table == "features"
      ? """
      'FEAT-X' AS id, 'web' AS project_id, 'X' AS title, '' AS description, 'todo' AS status, 'P2' AS priority,
      'feature' AS kind, '' AS assignee, '' AS estimate, '[]' AS labels, '[]' AS depends_on, '' AS body,
      1 AS version, '2026-11-02T09:00:00Z' AS created_at, '2026-11-02T09:00:00Z' AS updated_at
      """
      : """
      n AS id, 'features' AS entity_type, 'FEAT-X' AS entity_id, 'upsert' AS action, 1 AS version,
      '2026-11-02T09:00:00Z' AS timestamp, 0 AS synced
      """
    let view = """
      CREATE VIEW \(table) AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
      SELECT \(columns) FROM r WHERE n < 0;
      """
    // The plugin's DDL without the table the view replaces.
    let statements = OrchestraWorkspace.ddl.components(separatedBy: ";").filter {
      !$0.contains("EXISTS \(table) (") && !$0.contains("ON \(table)(") && !$0.allSatisfy(\.isWhitespace)
    }
    return statements.joined(separator: ";") + ";\n" + view
  }

  @Test(arguments: ["features", "change_log"])
  func aViewThatNeverEndsPutsTheSourceOutWithinItsDeadlineAndBacksOff(table: String) throws {
    let ws = try OrchestraWorkspace(ddl: Self.ddl(endless: table))
    defer { ws.writer.stop() }
    let path = ws.path
    let source = OrchestraDBSource(origin: "orchestra-db:\(path)", clock: .system) { (path, "SQLite \(path)") }
    source.pollInterval = 0.05
    source.statementTimeout = 0.3
    source.backoff = Backoff(initial: 1, max: 30, jitter: 0, seed: 1)
    let board = LiveBoard()
    let started = Date()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(
      board.wait(4) { $0.origins[source.origin]?.connection == .reconnecting },
      "\(String(describing: board.board().origins[source.origin]))")
    let took = Date().timeIntervalSince(started)
    #expect(took < 2.5, "out after \(took) s; the deadline is 0.3 s")
    let detail = board.board().origins[source.origin]?.connectionDetail ?? ""
    #expect(detail.contains("time limit") && detail.contains("FROM"), "\(detail)")
    // Not tried again in a loop: the waits grow (1 s, 2 s, 4 s…), and the board knows when.
    let first = try #require(
      Deadline.within(5) { () -> Double? in
        let end = Date().addingTimeInterval(3)
        while Date() < end {
          if let at = source.nextAttemptAt { return Double(at.millis - Clock.system.now().millis) / 1000 }
          Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
      } ?? nil, "no next attempt announced")
    // 1 s, or four times the 0.3 s the failed read took, whichever is longer.
    #expect(first > 0.5 && first <= 1.3, "the first wait: \(first) s")
    Thread.sleep(forTimeInterval: 2)
    let later = try #require(source.nextAttemptAt.map { Double($0.millis - Clock.system.now().millis) / 1000 })
    #expect(later > 1.0, "the second wait is longer: \(later) s")
  }
}

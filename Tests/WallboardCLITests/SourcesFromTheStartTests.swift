import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// Issue 21, item 4: no "sources: []". A source whose first read has not finished (a large
/// workspace, a stuck query) is listed from the start with its state, never left out.
@Suite("Every source listed from the start", .serialized)
struct SourcesFromTheStartTests {
  /// The plugin's tables with `features` a view that counts for ever and yields nothing.
  static let endless =
    OrchestraWorkspace.ddl.components(separatedBy: ";").filter {
      !$0.contains("EXISTS features (") && !$0.contains("ON features(") && !$0.allSatisfy(\.isWhitespace)
    }.joined(separator: ";")
      + """
      ;
      CREATE VIEW features AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
      SELECT 'FEAT-X' AS id, 'web' AS project_id, 'X' AS title, 'todo' AS status, '[]' AS labels, 1 AS version,
      '2026-11-02T09:00:00Z' AS created_at, '2026-11-02T09:00:00Z' AS updated_at FROM r WHERE n < 0;
      """

  @Test func aSourceStillOnItsFirstReadIsListedAsConnecting() throws {
    let ws = try OrchestraWorkspace(ddl: Self.endless)
    defer { ws.writer.stop() }
    let home = try TempDir("wallboard-home")
    let started = Date()
    // `--wait` runs out before the query's own deadline (5 s): the first read is not done.
    let r = WorkspaceInspectTests.run(
      ["inspect", "--source", "orchestra-db:\(ws.path)", "--settle", "0.5", "--wait", "1.5"], home: home.url.path)
    let took = Date().timeIntervalSince(started)
    #expect(took < 6, "inspect took \(took) s")
    guard case .object(let root)? = try? JSONParser.parse(r.out), case .array(let sources)? = root["sources"] else {
      Issue.record("not JSON: \(r.out.prefix(400)) \(r.err)")
      return
    }
    #expect(sources.count == 1, "\(sources)")
    guard case .object(let s)? = sources.first else { return }
    #expect(s["name"] == .string("orchestra-db:\(ws.path)"))
    #expect(s["status"] == .string("connecting"), "\(s)")
  }
}

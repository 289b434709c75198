import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// `inspect` over live sources (`--settle`, `--wait`), and several sources at once.
@Suite("inspect with live sources", .serialized)
struct LiveInspectTests {
  @Test func inspectFollowsAnOrchestraServerAndAFileAtOnce() throws {
    let peer = try OrchestraPeer(
      events: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path)
    defer { peer.stop() }
    let started = Date()
    let r = Captured.run([
      "inspect", "--source", "orchestra://127.0.0.1:\(peer.port)", "--source", "sim", "--settle", "0.5", "--wait", "8",
      "--tz", "UTC",
    ])
    #expect(r.code == 0, "\(r.err)")
    #expect(Date().timeIntervalSince(started) < 8)
    guard case .object(let root) = try JSONParser.parse(r.out), case .array(let sources)? = root["sources"] else {
      Issue.record("no sources")
      return
    }
    let byName = Dictionary(
      uniqueKeysWithValues: sources.compactMap { v -> (String, JSONObject)? in
        guard case .object(let o) = v, case .string(let n)? = o["name"] else { return nil }
        return (n, o)
      })
    let orchestra = try #require(byName["orchestra://127.0.0.1:\(peer.port)"])
    #expect(orchestra["status"] == .string("live"), "the status as it was, not 'stopped'")
    #expect(orchestra["kind"] == .string("orchestra"))
    #expect(byName["sim"]?["status"] == .string("live"))
  }

  @Test func waitBoundsAServerThatNeverAnswers() throws {
    let peer = try OrchestraPeer()
    let port = peer.port
    peer.stop()
    let started = Date()
    let r = Captured.run(["inspect", "--source", "orchestra://127.0.0.1:\(port)", "--settle", "5", "--wait", "1.5"])
    #expect(r.code == 0)
    #expect(Date().timeIntervalSince(started) < 4)
    #expect(
      r.out.contains("\"status\": \"reconnecting\"") || r.out.contains("\"status\": \"connecting\""),
      "\(r.out.suffix(600))")
    // What the board shows about the failure, the JSON says too.
    #expect(r.out.contains("\"last_error\": \"cannot connect"), "\(r.out.suffix(600))")
  }
}

import Foundation
import TestSupport
import Testing
import Wire

/// No input makes the board unboundedly slow or large: sprints have a length limit, and one
/// far-off moment does not stretch the present.
@Suite("Bounded time and size")
struct BoundsTests {
  static func inspect(_ lines: String, _ extra: [String] = []) throws -> (code: Int32, root: JSONObject, err: String) {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("events.jsonl")
    try lines.write(to: file, atomically: true, encoding: .utf8)
    let r = Captured.run(["inspect", "--source", "jsonl:\(file.path)", "--tz", "UTC"] + extra)
    guard case .object(let root)? = try? JSONParser.parse(r.out) else { return (r.code, JSONObject(), r.err) }
    return (r.code, root, r.err)
  }

  static func days(_ root: JSONObject) -> Int {
    guard case .object(let b)? = root["burndown"], case .array(let days)? = b["days"] else { return 0 }
    return days.count
  }

  @Test func aSprintOfEightThousandYearsIsRefusedWithItsReason() throws {
    let r = try Self.inspect(
      #"{"topic":"sprint.created","time":"2026-11-02T08:00:00Z","payload":{"id":"s","name":"S","start_date":"1970-01-01","end_date":"9999-12-31"}}"#
    )
    #expect(r.code == 0, "\(r.err)")
    #expect(r.root["sprint"] == .null)
    guard case .array(let sources)? = r.root["sources"], case .object(let s)? = sources.first,
      case .string(let error)? = s["last_error"]
    else {
      Issue.record("no last_error")
      return
    }
    #expect(error.contains("lasts 2932897 days"), "\(error)")
    #expect(error.contains("the limit is 366"))
  }

  @Test func aFarFutureHeartbeatDoesNotStretchThePresent() throws {
    let r = try Self.inspect(
      """
      {"topic":"sprint.created","time":"2026-11-02T08:00:00Z","payload":{"id":"s1","name":"S","start_date":"2026-11-02","end_date":"2026-11-13"}}
      {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"id":"A","title":"A","status":"todo","sprint_id":"s1"}}
      {"topic":"heartbeat","time":"9999-12-31T23:00:00Z","payload":{}}
      """)
    #expect(r.code == 0, "\(r.err)")
    guard case .string(let at)? = r.root["at"] else {
      Issue.record("no at")
      return
    }
    #expect(!at.hasPrefix("9999"), "the present is \(at)")
    #expect(Self.days(r.root) <= 12 + 90)
  }

  @Test func anOverrunningSprintsChartStopsNinetyDaysAfterItsEnd() throws {
    let r = try Self.inspect(
      """
      {"topic":"sprint.created","time":"2026-11-02T08:00:00Z","payload":{"id":"s1","name":"S","start_date":"2026-11-02","end_date":"2026-11-13"}}
      {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"id":"A","title":"A","status":"todo","sprint_id":"s1"}}
      """, ["--at", "9999-12-31T00:00:00Z"])
    #expect(r.code == 0, "\(r.err)")
    #expect(Self.days(r.root) == 12 + 90)
  }
}

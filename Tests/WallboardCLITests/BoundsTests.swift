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

/// `inspect --wait S` returns within S (and a little) on any input: endless inputs are cut off.
@Suite("inspect --wait bounds every input", .serialized)
struct WaitBoundsTests {
  static func fifo() throws -> (TempDir, String) {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("events.fifo").path
    #expect(mkfifo(path, 0o600) == 0)
    return (dir, path)
  }

  static func source(_ out: String) -> JSONObject? {
    guard case .object(let root)? = try? JSONParser.parse(out), case .array(let sources)? = root["sources"],
      case .object(let s)? = sources.first
    else { return nil }
    return s
  }

  @Test func aFifoWithNoWriterDoesNotHang() throws {
    let (dir, path) = try Self.fifo()
    let started = Date()
    let r = Captured.run(["inspect", "--source", "jsonl:\(path)", "--wait", "1.5"])
    _ = dir
    #expect(r.code == 0, "\(r.err)")
    #expect(Date().timeIntervalSince(started) < 3)
  }

  @Test func anEndlessWriterIsCutOffAtTheWait() throws {
    let (dir, path) = try Self.fifo()
    let stop = Flag()
    // A writer that never stops: a valid event, then garbage, again and again.
    // The reader closes first: the writer's next write must fail with EPIPE, not kill the tests.
    signal(SIGPIPE, SIG_IGN)
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      guard fd >= 0 else { return }
      defer { close(fd) }
      let chunk = Array(
        (#"{"topic":"heartbeat","payload":{}}"# + "\n" + String(repeating: "x", count: 4000) + "\n").utf8)
      while !stop.isSet {
        if chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) < 0 { break }
      }
    }
    writer.start()
    defer { stop.set() }
    let started = Date()
    let r = Captured.run(["inspect", "--source", "jsonl:\(path)", "--wait", "1.5"])
    let took = Date().timeIntervalSince(started)
    _ = dir
    #expect(r.code == 0, "\(r.err)")
    #expect(took < 3, "inspect took \(took) s")
    let s = try #require(Self.source(r.out), "\(r.out.prefix(300))")
    #expect(s["status"] == .string("live"))
    #expect(s["detail"] == .string("\(path): still being read when the time ran out"))
  }

  @Test func aFarOffMomentOfTheSimulationIsCutOffAtTheWait() throws {
    let started = Date()
    let r = Captured.run(["inspect", "--source", "sim", "--at", "2400-01-01T00:00:00Z", "--wait", "1.5"])
    #expect(r.code == 0, "\(r.err)")
    #expect(Date().timeIntervalSince(started) < 3)
    let s = try #require(Self.source(r.out))
    guard case .string(let detail)? = s["detail"] else {
      Issue.record("no detail")
      return
    }
    #expect(detail.hasPrefix("simulated up to"), "\(detail)")
  }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

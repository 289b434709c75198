import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// Issue 9, items 1 and 2, from their reproductions, through the command's entry point.
@Suite("Numeric inputs through the command line")
struct NumericInputRegressionTests {
  /// Item 1: two features estimated `"1e308"` summed to infinity and `inspect` stopped on
  /// writing it (SIGILL in the JSON number text).
  @Test func inspectOfTwoFeaturesEstimated1e308() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("events.jsonl")
    try """
    {"topic":"feature.created","payload":{"id":"A","estimate":"1e308"}}
    {"topic":"feature.created","payload":{"id":"B","estimate":"1e308"}}

    """.write(to: file, atomically: true, encoding: .utf8)
    let r = Captured.run(["inspect", "--source", "jsonl:\(file.path)", "--tz", "UTC"])
    #expect(r.code == 0, "\(r.err)")
    let json = try JSONParser.parse(r.out)
    guard case .object(let root) = json, case .object(let progress)? = root["progress"] else {
      Issue.record("no progress in \(r.out.prefix(300))")
      return
    }
    #expect(progress["total"] == .number(2))
    #expect(progress["total_points"] == .number(0), "1e308 is no number of points: both are unestimated")
  }

  /// Item 1: a sprint member estimated with the largest double stopped `snapshot` (a Double →
  /// Int conversion while laying out the burndown's labels). Now the line is rejected, and
  /// `0x10` is no longer 16 points.
  @Test func snapshotOfASprintWithAHugeOrHexEstimate() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("events.jsonl")
    try """
    {"topic":"sprint.created","payload":{"id":"S1","start_date":"2026-11-02","end_date":"2026-11-13","feature_ids":["A","B","C"]}}
    {"topic":"sprint.started","payload":{"id":"S1","started_at":"2026-11-02T09:00:00Z"}}
    {"topic":"feature.created","time":"2026-11-03T09:00:00Z","payload":{"id":"A","estimate":1.7976931348623157e308}}
    {"topic":"feature.created","time":"2026-11-03T09:00:00Z","payload":{"id":"B","estimate":"1e308"}}
    {"topic":"feature.created","time":"2026-11-03T09:00:00Z","payload":{"id":"C","estimate":"0x10"}}

    """.write(to: file, atomically: true, encoding: .utf8)
    let out = dir.url.appendingPathComponent("board.png").path
    let snap = Captured.run([
      "snapshot", "--source", "jsonl:\(file.path)", "--tz", "UTC", "--size", "800x480", "--out", out,
    ])
    #expect(snap.code == 0, "\(snap.err)")
    #expect(FileManager.default.fileExists(atPath: out))
    let r = Captured.run(["inspect", "--source", "jsonl:\(file.path)", "--tz", "UTC"])
    #expect(r.code == 0, "\(r.err)")
    guard case .object(let root) = try JSONParser.parse(r.out), case .object(let events)? = root["events"],
      case .object(let sprint)? = root["sprint"]
    else {
      Issue.record("unexpected output \(r.out.prefix(300))")
      return
    }
    #expect(events["rejected"] == .number(1), "the 1.8e308 estimate is over the cap")
    #expect(sprint["unit"] == .string("count"), "neither 1e308 nor 0x10 is a number of points")
  }

  /// Item 2: `--estimates s=1,S=2` named one size twice once upper-cased and stopped the
  /// program (a duplicate dictionary key). It is a usage error naming the option and the size.
  @Test(arguments: ["s=1,S=2", "S=1,S=2", "xl=5,M=2,Xl=3"])
  func estimatesNamingOneSizeTwice(_ value: String) throws {
    let r = Captured.run(["inspect", "--estimates", value])
    #expect(r.code == 2, "\(r.err)")
    #expect(r.err.contains("--estimates"), "\(r.err)")
    #expect(r.err.contains("the same size") || r.err.contains("given twice"), "\(r.err)")
  }

  /// The same in a config file: a bad value there names the file and the line (exit 3).
  @Test func estimatesNamingOneSizeTwiceInTheConfig() throws {
    let dir = try TempDir()
    let config = dir.url.appendingPathComponent("wallboard.conf")
    try "estimates s=1,S=2\n".write(to: config, atomically: true, encoding: .utf8)
    let r = Captured.run(["inspect", "--config", config.path])
    #expect(r.code == 3, "\(r.err)")
    #expect(r.err.contains("\(config.path):1: --estimates"), "\(r.err)")
    #expect(r.err.contains("\"s\" and \"S\""), "\(r.err)")
  }

  /// `--estimates` points are plain decimals within the cap too: `0x10` and `1e3` were read by
  /// `Double(_:)` as 16 and 1000.
  @Test(arguments: ["S=0x10", "S=1e3", "S=inf", "S=nan", "S=1000001", "S=-1"])
  func estimatePointsAreCapped(_ value: String) {
    let r = Captured.run(["inspect", "--estimates", value])
    #expect(r.code == 2, "\(value): \(r.err)")
  }
}

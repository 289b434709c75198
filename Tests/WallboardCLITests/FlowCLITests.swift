import Foundation
import Projections
import TestSupport
import Testing
import WallboardCore
import Wire

@testable import Runtime
@testable import WallboardCLI

/// `--flow-days`, and the `flow` and `throughput` of `inspect` (issue 10, item 9).
@Suite("The flow on the command line")
struct FlowCLITests {
  /// A team without sprints: four features over four days, two of them done.
  static let sprintless = """
    {"topic":"feature.created","time":"2026-11-16T09:00:00Z","payload":{"id":"A","title":"A","status":"todo"}}
    {"topic":"feature.created","time":"2026-11-16T09:05:00Z","payload":{"id":"B","title":"B","status":"todo"}}
    {"topic":"feature.created","time":"2026-11-16T09:10:00Z","payload":{"id":"C","title":"C","status":"zeta"}}
    {"topic":"feature.updated","time":"2026-11-17T10:00:00Z","payload":{"id":"A","status":"in-progress"}}
    {"topic":"feature.updated","time":"2026-11-18T11:00:00Z","payload":{"id":"A","status":"done"}}
    {"topic":"feature.created","time":"2026-11-18T12:00:00Z","payload":{"id":"D","title":"D","status":"todo"}}
    {"topic":"feature.updated","time":"2026-11-19T08:00:00Z","payload":{"id":"B","status":"done"}}
    """

  static func object(_ v: JSONValue?) -> JSONObject? { if case .object(let o)? = v { o } else { nil } }
  static func array(_ v: JSONValue?) -> [JSONValue]? { if case .array(let a)? = v { a } else { nil } }

  static func inspect(_ extra: [String], events: String = sprintless) throws -> JSONObject {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("events.jsonl")
    try events.write(to: file, atomically: true, encoding: .utf8)
    let r = Captured.run(["inspect", "--source", "jsonl:\(file.path)", "--tz", "UTC"] + extra)
    #expect(r.code == 0, "\(r.err)")
    return try #require(object(try JSONParser.parse(r.out)))
  }

  /// The last flow entry's counts are the report's tallies, state for state.
  static func expectLastFlowIsTallies(_ root: JSONObject) throws {
    let flow = try #require(array(root["flow"]))
    let last = try #require(object(flow.last))
    let counts = try #require(object(last["counts"]))
    let tallies = try #require(array(root["tallies"]))
    #expect(counts.count >= tallies.count)
    for t in tallies {
      let tally = try #require(object(t))
      guard case .string(let state)? = tally["state"] else { throw Failure.malformed }
      #expect(counts[state] == tally["count"], "\(state)")
    }
    // Whatever the tallies leave out is empty today.
    let listed = Set(tallies.compactMap { object($0)?["state"] })
    for m in counts where !listed.contains(.string(m.key)) { #expect(m.value == .number(0), "\(m.key)") }
  }

  enum Failure: Error { case malformed }

  @Test func inspectWithoutASprintHasTheFlowEndingTodayAndItsThroughput() throws {
    let root = try Self.inspect(["--at", "2026-11-19T12:00:00Z", "--flow-days", "5"])
    #expect(root["sprint"] == .null)
    let flow = try #require(Self.array(root["flow"]))
    #expect(
      flow.compactMap { Self.object($0)?["date"] }
        == ["2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"].map(JSONValue.string))
    let nov18 = try #require(Self.object(Self.object(flow[3])?["counts"]))
    #expect(nov18["todo"] == .number(2) && nov18["done"] == .number(1) && nov18["zeta"] == .number(1))
    try Self.expectLastFlowIsTallies(root)

    let throughput = try #require(Self.object(root["throughput"]))
    let days = try #require(Self.array(throughput["days"]))
    #expect(days.compactMap { Self.object($0)?["done"] } == [0, 0, 0, 1, 1].map(JSONValue.number))
    #expect(throughput["total"] == .number(2))
    // History begins on the 16th: 2 done over 4 known days.
    #expect(throughput["per_day"] == .number(0.5))
    #expect(throughput["history_from"] == .string("2026-11-16T09:00:00Z"))
  }

  @Test func inspectWithASprintStillHasTheFlowOfItsMembers() throws {
    let r = Captured.run(["inspect", "--source", "sim:seed=1", "--at", "2026-11-11T15:00:00Z", "--tz", "UTC"])
    #expect(r.code == 0, "\(r.err)")
    let root = try #require(Self.object(try JSONParser.parse(r.out)))
    #expect(root["sprint"] != .null)
    let flow = try #require(Self.array(root["flow"]))
    #expect(flow.count == Flow.defaultDays)
    #expect(Self.object(flow.last)?["date"] == .string("2026-11-11"))
    try Self.expectLastFlowIsTallies(root)
    #expect(Self.object(root["throughput"])?["total"] != nil)
  }

  @Test(arguments: ["1", "14", "90", "07"])
  func flowDaysTakesADayCountFrom1To90(_ value: String) throws {
    #expect(try ArgumentParser.parse(["--flow-days", value]).flowDays == Int(value))
    let o = try ArgumentParser.applyConfig("flow-days \(value)\n", file: "k.conf", under: [])
    #expect(o.flowDays == Int(value))
  }

  @Test(arguments: ["0", "91", "-1", "", "x", "1.5", "1e1", "0x10", "9223372036854775808", "+3", " 3"])
  func flowDaysRefusesAnythingElse(_ value: String) throws {
    do {
      _ = try ArgumentParser.parse(["--flow-days", value])
      Issue.record("--flow-days \(value) was accepted")
    } catch {
      #expect(error.exitCode == 2)
      #expect(error.description.contains("--flow-days"), "\(error)")
      #expect(error.description.contains("1 to 90"), "\(error)")
    }
    do {
      _ = try ArgumentParser.applyConfig("# c\nflow-days \(value)x\n", file: "k.conf", under: [])
      Issue.record("flow-days \(value)x was accepted in a config file")
    } catch {
      #expect(error.exitCode == 3 && error.description.contains("k.conf:2:"), "\(error)")
    }
  }

  @Test func aSavedConfigChangesTheWindowWhileRunRuns() throws {
    let o = try ArgumentParser.applyConfig("flow-days 30\n", file: "k.conf", under: [])
    #expect(LiveSettings(o).flowDays == 30)
    #expect(LiveSettings(try ArgumentParser.parse([])).flowDays == Flow.defaultDays)
  }

  @Test func theDefaultIs14Days() throws {
    #expect(try ArgumentParser.parse([]).flowDays == 14)
    let root = try Self.inspect(["--at", "2026-11-19T12:00:00Z"])
    #expect(Self.array(root["flow"])?.count == 14)
  }

  @Test func theTextBoardHasAFlowLineWithoutASprint() throws {
    var s = BoardState()
    for e in [
      Make.event("2026-11-16T09:00:00Z", .featureCreated(Make.feature("A"))),
      Make.status("2026-11-18T11:00:00Z", "A", "done"),
    ] {
      Reducer.reduce(into: &s, e)
    }
    let at = Make.t("2026-11-19T12:00:00Z")
    let text = TextBoard.render(state: s, at: at, now: at, zone: .utc, unit: .auto, flowDays: 4)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Flow") })
    #expect(line == "Flow · last 4 days: 1 done · 0.3/day    █ ")
    #expect(!text.contains("No sprint"))
  }
}

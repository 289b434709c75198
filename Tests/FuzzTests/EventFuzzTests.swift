import EventSources
import Foundation
import Layout
import Projections
import Raster
import SourceKit
import TestSupport
import Testing
import WallboardCLI
import WallboardCore
import Widgets
import Wire

/// The acceptance fuzz of issue 9 for events: the worked example's events file (with lines of
/// the other topics mixed in), mutated at the value level (one JSON value made extreme, a key
/// renamed) and at the byte and token level, decoded (whole and in random chunks) and reduced in process, then
/// projected, written as `inspect` JSON and drawn. No case may crash (a crash of the test
/// process is the failure), take 2 s, or break an invariant:
///
/// - decoding is the same whole and in chunks, and reducing is deterministic;
/// - the reducer says what it did with every input (the counters add up to the inputs);
/// - tallies sum to `progress.total`; done and closed add up to completed;
/// - every burndown day has remaining = scope − completed, and the steps end where the daily
///   series does; every number is finite;
/// - the `inspect` JSON parses back.
@Suite("Fuzz: events files")
struct EventFuzzTests {
  static let shards = 4

  static let example: [[UInt8]] = {
    let text =
      (try? String(
        contentsOf: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl"), encoding: .utf8))
      ?? ""
    return text.split(separator: "\n").map { Array($0.utf8) }
  }()

  /// Lines of the other topics, so that mutations reach every decoder and reducer path.
  static let extra: [[UInt8]] = [
    #"{"topic":"workflow.defined","seq":10,"source":"example","payload":{"states":[{"id":"todo"},{"id":"in-progress","active_work":true},{"id":"done","terminal":true},{"id":"rejected","terminal":true,"done":false}],"initial_state":"todo"}}"#,
    #"{"topic":"workflow.transitioned","time":"2026-11-05T12:00:00Z","seq":11,"source":"example","payload":{"feature_id":"C","from":"todo","to":"rejected","at":"2026-11-05T12:00:00Z"}}"#,
    #"{"topic":"feature.updated","time":"2026-11-05T13:00:00Z","seq":12,"source":"example","payload":{"id":"A","estimate":"XL","points":null,"labels":["sprint:s1","ui"]}}"#,
    #"{"topic":"sprint.scope_changed","time":"2026-11-06T09:00:00Z","seq":13,"source":"example","payload":{"sprint_id":"s1","removed":["A"]}}"#,
    #"{"topic":"feature.deleted","time":"2026-11-06T10:00:00Z","seq":14,"source":"example","payload":{"id":"D"}}"#,
    #"{"topic":"sprint.closed","time":"2026-11-13T18:00:00Z","seq":15,"source":"example","payload":{"id":"s1","closed_at":"2026-11-13T18:00:00Z"}}"#,
    #"{"topic":"heartbeat","time":"2026-11-06T11:00:00Z","seq":16,"source":"example","payload":{}}"#,
    #"{"topic":"board.snapshot","time":"2026-11-06T12:00:00Z","seq":17,"source":"example","payload":{"features":[{"id":"A","status":"done","points":3,"sprint_id":"s1"},{"id":"E","status":"In_Review","estimate":"M"}],"sprints":[{"id":"s1","name":"Sprint 1","start_date":"2026-11-02","end_date":"2026-11-13","feature_ids":["A","E"],"holidays":["2026-11-11"],"non_working_days":["sat","sun"],"time_zone":"Europe/Berlin"}],"active_sprint_id":"s1","seq":17}}"#,
    #"{"topic":"sprint.created","time":"2026-11-06T13:00:00Z","seq":18,"source":"other","payload":{"id":"s2","start_date":"2026-11-16","end_date":"2026-11-27","goal":"next"}}"#,
    #"{"topic":"sprint.started","time":"2026-11-16T08:00:00Z","seq":19,"source":"other","payload":{"id":"s2","started_at":"2026-11-16T08:00:00Z","feature_ids":["B","C"]}}"#,
    #"{"topic":"feature.created","time":"2026-11-03T09:00:00Z","seq":20,"source":"example","payload":{"id":"F","estimate":"5","sprint_id":"s1"}}"#,
    #"{"topic":"feature.created","time":"2026-11-03T09:30:00Z","seq":21,"source":"example","payload":{"id":"G","estimate":"2.5","labels":["sprint:s1"]}}"#,
    #"{"topic":"feature.updated","time":"2026-11-04T09:00:00Z","seq":22,"source":"example","payload":{"id":"C","estimate":"L","points":null}}"#,
  ].map { Array($0.utf8) }

  /// A sprint of three estimated members, one done.
  static let smallSprint: [[UInt8]] = [
    #"{"topic":"sprint.created","time":"2026-10-30T10:00:00Z","seq":1,"payload":{"id":"s1","start_date":"2026-11-02","end_date":"2026-11-13"}}"#,
    #"{"topic":"sprint.started","time":"2026-11-02T08:00:00Z","seq":2,"payload":{"id":"s1"}}"#,
    #"{"topic":"feature.created","time":"2026-11-02T09:00:00Z","seq":3,"payload":{"id":"A","estimate":"8","sprint_id":"s1"}}"#,
    #"{"topic":"feature.created","time":"2026-11-02T09:00:00Z","seq":4,"payload":{"id":"B","estimate":"M","points":3,"sprint_id":"s1"}}"#,
    #"{"topic":"feature.created","time":"2026-11-03T09:00:00Z","seq":5,"payload":{"id":"C","estimate":2.5,"labels":["sprint:s1"]}}"#,
    #"{"topic":"feature.updated","time":"2026-11-04T15:00:00Z","seq":6,"payload":{"id":"B","status":"done"}}"#,
  ].map { Array($0.utf8) }

  static var corpus: [[UInt8]] { example + extra + smallSprint }

  static let receivedAt = Make.t("2026-11-20T00:00:00Z")

  @Test(arguments: 0..<shards)
  func mutatedEventFiles(shard: Int) throws {
    let config = FuzzConfig.current
    let kit = try RenderKit()
    var budget = TimeBudget()
    var lineCount = 0
    let cases = config.cases(config.eventCases, shard: shard, of: Self.shards)
    for index in cases {
      if config.trace { print("fuzz events case \(index)") }
      var m = Mutator(seed: config.caseSeed(index, kind: 1))
      // The worked example with lines of other topics, or (one case in three) a small sprint of
      // estimated members, where a mutation reaches the numbers a burndown adds up more often.
      var lines = index % 3 == 2 ? Self.smallSprint : Self.example
      if m.chance(60) {
        for _ in 0..<(1 + m.below(4)) {
          lines.insert(Self.extra[m.below(Self.extra.count)], at: m.below(lines.count + 1))
        }
      }
      // Values first (structure-aware), then bytes; at least one of the two.
      let valueMutations = m.chance(70)
      if valueMutations {
        for _ in 0..<(1 + m.below(3)) {
          let i = m.below(lines.count)
          lines[i] = m.mutateJSON(lines[i])
        }
      }
      var file = Array(lines.joined(separator: [0x0A])) + [0x0A]
      if !valueMutations || m.chance(60) { file = m.mutate(file, corpus: Self.corpus) }
      lineCount += file.split(separator: 0x0A).count
      let chunks = (0..<4).map { _ in 1 + m.below(64) }
      let layout = index % kit.layouts.count
      budget.run(index) { Self.runCase(file, chunks: chunks, layout: layout, index: index, kit: kit) }
    }
    fuzzCheck(
      budget.overBudget.isEmpty, "events", budget.overBudget.first ?? -1, "over 2 s: cases \(budget.overBudget)")
    print(
      "fuzz events shard \(shard): \(cases.count) files (\(lineCount) lines), slowest \(budget.milliseconds) ms (case \(budget.slowestCase)), "
        + "\(budget.overBudget.count) over 2 s")
  }

  /// Decodes, reduces, projects, writes and draws one events file, checking the invariants.
  static func runCase(_ file: [UInt8], chunks: [Int], layout: Int, index: Int, kit: RenderKit) {
    var whole = LineDecoder(origin: "jsonl:fuzz.jsonl", label: "fuzz.jsonl")
    let inputs = whole.push(file, receivedAt: receivedAt) + whole.finish(receivedAt: receivedAt)
    var chunked = LineDecoder(origin: "jsonl:fuzz.jsonl", label: "fuzz.jsonl")
    var pieces: [BoardInput] = []
    var offset = 0
    var k = 0
    while offset < file.count {
      let n = min(chunks[k % chunks.count], file.count - offset)
      pieces += chunked.push(file[offset..<(offset + n)], receivedAt: receivedAt)
      offset += n
      k += 1
    }
    pieces += chunked.finish(receivedAt: receivedAt)
    fuzzCheck(pieces == inputs, "events", index, "chunked decoding differs from whole: \(shown(file))")

    var state = BoardState()
    var said: [String: Int] = [:]
    for input in inputs {
      switch Reducer.reduce(into: &state, input) {
      case .applied: said["applied", default: 0] += 1
      case .duplicate: said["duplicate", default: 0] += 1
      case .ignored: said["ignored", default: 0] += 1
      case .rejected: said["rejected", default: 0] += 1
      }
    }
    var again = BoardState()
    for input in pieces { Reducer.reduce(into: &again, input) }
    fuzzCheck(again == state, "events", index, "the same inputs gave another state: \(shown(file))")
    let c = state.counters
    fuzzCheck(
      c.applied == said["applied", default: 0] && c.duplicates == said["duplicate", default: 0]
        && c.ignored == said["ignored", default: 0] && c.rejected == said["rejected", default: 0]
        && c.applied + c.duplicates + c.ignored + c.rejected == inputs.count,
      "events", index, "counters \(c) do not add up to \(inputs.count) inputs (\(said)): \(shown(file))")

    for at in [state.lastEventTime ?? receivedAt, Make.t("2026-11-06T12:00:00Z")] {
      let frame = FrameModel(state: state, at: at, now: receivedAt, zone: .utc, unit: .auto)
      checkProjections(frame, index: index, file: file)
      let json = InspectReport.json(state: state, at: at, now: receivedAt, zone: .utc, unit: .auto)
      let text = json.serialized(pretty: true)
      do {
        let back = try JSONParser.parse(text)
        fuzzCheck(back == json, "events", index, "inspect JSON parses back to another value: \(shown(file))")
      } catch {
        fuzzCheck(
          false, "events", index,
          "inspect JSON (\(text.utf8.count) bytes, \(frame.burndown?.days.count ?? 0) burndown days) does not "
            + "parse back: \(error): \(shown(file))")
      }
    }
    let frame = FrameModel(
      state: state, at: state.lastEventTime ?? receivedAt, now: receivedAt, zone: .utc, unit: .auto)
    let size = [(320, 180), (480, 270), (270, 480)][index % 3]
    let dirty = kit.render(frame, layout: kit.layouts[layout].layout, width: size.0, height: size.1, theme: index)
    let bounds = IRect(x: 0, y: 0, width: size.0, height: size.1)
    fuzzCheck(dirty.allSatisfy { $0.intersection(bounds) == $0 }, "events", index, "drew outside the frame")
  }

  static func checkProjections(_ frame: FrameModel, index: Int, file: [UInt8]) {
    let p = frame.progress
    fuzzCheck(
      frame.tallies.map(\.count).reduce(0, +) == p.total, "events", index,
      "tallies \(frame.tallies.map(\.count)) do not sum to total \(p.total): \(shown(file))")
    fuzzCheck(
      p.done + p.closed.map(\.count).reduce(0, +) == p.completed && p.completed <= p.total, "events", index,
      "done \(p.done) + closed \(p.closed) ≠ completed \(p.completed) of \(p.total): \(shown(file))")
    fuzzCheck((0...100).contains(p.percent), "events", index, "percent \(p.percent)")
    // Every number that becomes points is capped: no total passes the cap times the count.
    let cap = Feature.maxPoints * Double(p.total)
    let points = [p.totalPoints, p.donePoints, p.completedPoints] + frame.tallies.map(\.points)
    fuzzCheck(
      points.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= cap }, "events", index,
      "points \(points) beyond \(cap): \(shown(file))")
    fuzzCheck(
      close(frame.tallies.map(\.points).reduce(0, +), p.totalPoints), "events", index,
      "tally points do not sum to total points: \(shown(file))")
    guard let b = frame.burndown else { return }
    let n = b.days.count
    fuzzCheck(
      [b.working.count, b.ideal.count, b.remaining.count, b.scope.count, b.completed.count].allSatisfy { $0 == n },
      "events", index, "burndown series of different lengths")
    for i in 0..<n {
      guard let r = b.remaining[i] else {
        fuzzCheck(
          b.scope[i] == nil && b.completed[i] == nil, "events", index, "day \(i): remaining unknown, scope known")
        continue
      }
      guard let s = b.scope[i], let c = b.completed[i] else {
        fuzzCheck(false, "events", index, "day \(i): remaining known, scope or completed not")
        continue
      }
      fuzzCheck(
        close(r, s - c) && r.isFinite && s.isFinite && c.isFinite, "events", index,
        "day \(b.days[i]): remaining \(r) ≠ scope \(s) − completed \(c): \(shown(file))")
    }
    let members = Double(max(1, frame.tallies.map(\.count).reduce(0, +), b.steps.count))
    let values =
      b.ideal + [b.committed, b.startScope, b.startCompleted] + b.scope.compactMap { $0 }
      + b.steps.flatMap { [$0.scope, $0.completed] }
    fuzzCheck(
      values.allSatisfy {
        $0.isFinite && abs($0) <= Feature.maxPoints * max(members, Double(b.scopeChanges.count + 1)) * 4
      },
      "events", index, "burndown numbers not finite or beyond the cap: \(shown(file))")
    if let t = b.todayIndex, let r = b.remaining[t] {
      let last = b.steps.last?.remaining ?? (b.startScope - b.startCompleted)
      fuzzCheck(
        close(last, r), "events", index,
        "the steps end at \(last), the daily series at \(r) on \(b.days[t]): \(shown(file))")
    }
    for (a, z) in zip(b.steps, b.steps.dropFirst()) {
      fuzzCheck(a.at <= z.at, "events", index, "steps out of order")
    }
  }

  static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
}

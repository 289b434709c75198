// `make bench`: throughput of the parts that must keep up with a busy team, in release mode.
// Each case runs a few times; the best run is reported (the least disturbed by the machine).
import EventSources
import Foundation
import Projections
import WallboardCore
import Wire

struct Result {
  var name: String
  var count: Int
  var seconds: Double
  var goal: Double?
  var perSecond: Double { Double(count) / seconds }
}

func measure(_ name: String, count: Int, goal: Double?, runs: Int = 5, _ body: () -> Void) -> Result {
  var best = Double.infinity
  for _ in 0..<runs {
    let start = ContinuousClock.now
    body()
    let d = ContinuousClock.now - start
    let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    best = min(best, s)
  }
  return Result(name: name, count: count, seconds: best, goal: goal)
}

func peakRSSKiB() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
  }
  return 0
}

let featureCount = 500
let statuses = Workflow.seed.states.map(\.id)
let base = try! Instant(rfc3339: "2026-11-02T09:00:00Z")

/// A 500-feature board in one sprint.
func seededBoard() -> BoardState {
  var s = BoardState()
  var ids: [String] = []
  for i in 0..<featureCount {
    let id = "FEAT-\(i)"
    ids.append(id)
    Reducer.reduce(
      into: &s,
      Event(
        origin: "bench", seq: nil, time: base,
        body: .featureCreated(Feature(id: id, title: "Feature \(i)", status: "todo", estimate: "M"))))
  }
  let sprint = Sprint(
    id: "s1", name: "Sprint 1", startDate: base.utcDate, endDate: base.utcDate.adding(days: 11), featureIds: ids)
  Reducer.reduce(into: &s, Event(origin: "bench", time: base, body: .sprintCreated(sprint)))
  Reducer.reduce(
    into: &s, Event(origin: "bench", time: base, body: .sprintStarted(id: "s1", startedAt: base, patch: SprintPatch())))
  return s
}

// 1. Reducer: status changes over a 500-feature board.
let changes = 1_000_000
let statusEvents: [Event] = (0..<changes).map { i in
  Event(
    origin: "bench", publisher: "p", seq: Int64(i + 1), time: base.adding(seconds: Double(i) * 0.5),
    body: .featureUpdated(
      FeaturePatch(id: "FEAT-\(i % featureCount)", status: statuses[(i / featureCount) % statuses.count])))
}
let board = seededBoard()
var sink = 0
let reducer = measure("reducer: status changes, 500-feature board", count: changes, goal: 1_000_000) {
  var s = board
  for e in statusEvents { Reducer.reduce(into: &s, e) }
  sink &+= s.counters.applied
}

// 2. JSON Lines: decode + reduce.
let lineCount = 300_000
var text = [UInt8]()
text.reserveCapacity(lineCount * 180)
for i in 0..<lineCount {
  let t = base.adding(seconds: Double(i) * 0.5).rfc3339
  let line =
    "{\"topic\":\"feature.updated\",\"event_type\":\"status_changed\",\"time\":\"\(t)\",\"seq\":\(i + 1),\"source\":\"tools.features\",\"payload\":{\"id\":\"FEAT-\(i % featureCount)\",\"status\":\"\(statuses[(i / featureCount) % statuses.count])\"}}\n"
  text += Array(line.utf8)
}
let jsonl = measure("JSON Lines: decode + reduce", count: lineCount, goal: 200_000) {
  var s = board
  var decoder = LineDecoder(origin: "bench", label: "bench")
  let chunk = 65_536
  var offset = 0
  while offset < text.count {
    let end = min(offset + chunk, text.count)
    for input in decoder.push(text[offset..<end], receivedAt: base) { Reducer.reduce(into: &s, input) }
    offset = end
  }
  for input in decoder.finish(receivedAt: base) { Reducer.reduce(into: &s, input) }
  precondition(s.counters.applied == lineCount + featureCount + 2, "every line must apply (\(s.counters.applied))")
  sink &+= s.counters.applied
}

// 3. Projections on the busy board (for reference).
var busy = board
for e in statusEvents.prefix(200_000) { Reducer.reduce(into: &busy, e) }
let projections = measure("projections: burndown + tallies, 500 features", count: 100, goal: nil) {
  for _ in 0..<100 {
    let sprint = busy.activeSprint()!
    let b = Burndown.compute(state: busy, sprint: sprint, at: base.adding(seconds: 86_400 * 9), boardZone: .utc)
    let scope = BoardScope(state: busy, sprint: sprint)
    sink &+= b.days.count + Tally.compute(state: busy, scope: scope).count
  }
}

print("Wallboard benchmarks (release, best of 5 runs)")
print("")
for r in [reducer, jsonl, projections] {
  let rate = String(format: "%12.0f /s", r.perSecond)
  let goal =
    r.goal.map { g in
      r.perSecond >= g ? String(format: "  goal ≥ %.0f /s: met", g) : String(format: "  goal ≥ %.0f /s: MISSED", g)
    } ?? ""
  print(
    "\(r.name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(rate)  (\(r.count) in \(String(format: "%.3f", r.seconds)) s)\(goal)"
  )
}
print("")
print("peak resident memory: \(peakRSSKiB() / 1024) MiB (including the pre-built inputs)")
if sink == 42 { print("") }

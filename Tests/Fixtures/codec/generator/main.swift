// Writes the codec fixtures of one format version with that version's own code: a few inputs
// (each blob framed by a 4-byte little-endian length) and the board they reduce to.
import Foundation

let out = CommandLine.arguments[1]
let t0 = Instant(millis: 1_793_610_000_000)  // 2026-11-02T09:00:00Z
func at(_ minutes: Int64) -> Instant { Instant(millis: t0.millis + minutes * 60_000) }
var inputs: [BoardInput] = []
func ev(_ m: Int64, _ body: Event.Body, seq: Int64? = nil) {
  inputs.append(
    .event(Event(origin: "jsonl:team", publisher: seq == nil ? nil : "pub", seq: seq, time: at(m), body: body)))
}
ev(
  0,
  .featureCreated(
    Feature(
      id: "F-1", projectId: "shop", title: "Zürich ✓", status: "todo", priority: "high",
      kind: "bug", assignee: "Zoë", labels: ["team-a", "sprint:S1"], estimate: "M", points: 3, sprintId: "S1",
      createdAt: at(0), updatedAt: at(0))), seq: 1)
ev(1, .featureCreated(Feature(id: "F-2", projectId: "shop", title: "Pay", status: "todo", points: 5)), seq: 2)
ev(
  2,
  .sprintCreated(
    Sprint(
      id: "S1", name: "Sprint 1", goal: "Ship", startDate: CivilDate(year: 2026, month: 11, day: 2),
      endDate: CivilDate(year: 2026, month: 11, day: 13), featureIds: ["F-1", "F-2"], timeZone: "UTC")), seq: 3)
ev(3, .sprintStarted(id: "S1", startedAt: at(3), patch: SprintPatch()), seq: 4)
var p = FeaturePatch(id: "F-1")
p.status = "in-progress"
p.points = .some(nil)
ev(60, .featureUpdated(p), seq: 5)
var q = FeaturePatch(id: "F-2")
q.status = "done"
ev(120, .featureUpdated(q), seq: 6)
ev(121, .heartbeat)
inputs.append(.connection(origin: "jsonl:team", status: .live, at: at(122), detail: "reading"))
inputs.append(.rejected(origin: "jsonl:team", at: at(123), reason: "bad line", position: nil))
extraInputs(&inputs, at(124))
var state = BoardState(settings: BoardSettings())
for i in inputs { _ = Reducer.reduce(into: &state, i) }
var framed: [UInt8] = []
for i in inputs {
  let b = BoardCodec.encode(i)
  var n = UInt32(b.count).littleEndian
  withUnsafeBytes(of: &n) { framed += $0 }
  framed += b
}
try! Data(framed).write(to: URL(fileURLWithPath: out + "/inputs.bin"))
try! Data(BoardCodec.encode(state)).write(to: URL(fileURLWithPath: out + "/state.bin"))
print("version", BoardCodec.version, "inputs", inputs.count, "state bytes", BoardCodec.encode(state).count)

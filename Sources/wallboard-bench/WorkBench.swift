import Clock
import Foundation
import Projections
import WallboardCore

/// Issue 26's figures: the projections' cost per frame at 10,000 features (blocked, rework,
/// aging, cycle time, forecast on a fresh `BoardContent`, and on a kept one), and the forecast's
/// cost at its worst case.
enum WorkBench {
  static let features = 10_000
  static let at = try! Instant(rfc3339: "2026-11-30T12:00:00Z")
  static let day: Int64 = 86_400_000

  /// Median milliseconds of `runs` calls of `body`.
  static func median(runs: Int, _ body: () -> Int) -> (ms: Double, sink: Int) {
    var times: [Double] = []
    var sink = 0
    for _ in 0..<runs {
      let start = ContinuousClock.now
      sink &+= body()
      let d = ContinuousClock.now - start
      times.append((Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) * 1000)
    }
    return (times.sorted()[runs / 2], sink)
  }

  static func event(_ t: Int64, _ body: Event.Body) -> Event {
    Event(origin: "bench", time: Instant(millis: at.millis - t), body: body)
  }

  static func move(_ t: Int64, _ project: String, _ id: String, _ status: String) -> Event {
    var p = FeaturePatch(id: id, status: status)
    p.projectId = .some(project)
    return event(t, .featureUpdated(p))
  }

  /// 10,000 features in 10 projects (upstream's workflow), each with a history over the last
  /// 120 days: a fifth done, a fifth in rework, the rest at work or waiting on the previous
  /// feature; a sprint holds a tenth of them.
  static func board() -> BoardState {
    var s = BoardState(settings: BoardSettings(workflow: .upstream))
    var members: [String] = []
    for i in 0..<features {
      let project = "p\(i % 10)"
      let id = "F-\(i / 10)"
      if i % 10 == 0 { members.append("\(project)/\(id)") }
      let deps = i % 3 == 0 && i >= 10 ? ["F-\(i / 10 - 1)"] : []
      let start = Int64(5 + i % 115) * day
      var events = [
        event(start, .featureCreated(Feature(id: id, projectId: project, title: "Feature \(i)", dependsOn: deps))),
        move(start - day, project, id, "in-progress"),
      ]
      switch i % 5 {
      case 0: events += [move(start - 2 * day, project, id, "in-review"), move(start - 3 * day, project, id, "done")]
      case 1:
        events += [
          move(start - 2 * day, project, id, "in-review"), move(start - 3 * day, project, id, "needs-edits"),
          move(start - 4 * day, project, id, "in-progress"),
          move(start - 4 * day - 3_600_000, project, id, "needs-edits"),
        ]
      case 2: events += [move(start - 2 * day, project, id, "in-testing")]
      default: break
      }
      for e in events where e.time <= at { Reducer.reduce(into: &s, e) }
    }
    let sprint = Sprint(
      id: "s1", name: "Sprint 1", startDate: at.utcDate.adding(days: -7), endDate: at.utcDate.adding(days: 6),
      featureIds: members)
    Reducer.reduce(into: &s, event(8 * day, .sprintCreated(sprint)))
    Reducer.reduce(into: &s, event(7 * day, .sprintStarted(id: "s1", startedAt: nil, patch: SprintPatch())))
    return s
  }

  /// The forecast's worst case: a sprint of 5,000 features left and one burst of 14 done in the
  /// 30 sampled days, so that every run walks all 365 working days (3.65 million draws).
  static func worstCase() -> (BoardState, Sprint) {
    var s = BoardState()
    for i in 0..<14 {
      Reducer.reduce(into: &s, event(10 * day, .featureCreated(Feature(id: "D\(i)", status: "in-progress"))))
      Reducer.reduce(into: &s, event(3 * day, .featureUpdated(FeaturePatch(id: "D\(i)", status: "done"))))
    }
    let ids = (0..<5_000).map { "R\($0)" }
    for id in ids { Reducer.reduce(into: &s, event(20 * day, .featureCreated(Feature(id: id)))) }
    let sprint = Sprint(
      id: "s1", name: "S", startDate: at.utcDate.adding(days: -7), endDate: at.utcDate.adding(days: 6),
      featureIds: ids)
    Reducer.reduce(into: &s, event(8 * day, .sprintCreated(sprint)))
    return (s, s.sprints["s1"]!)
  }

  static func figures(into report: Report) {
    let group = "Issue 26 projections, in process (median)"
    let state = board()
    let settings = ViewSettings()
    let fresh = median(runs: 21) {
      let c = BoardContent(state: state, at: at, zone: .utc, settings: settings)
      return c.blocked.count + c.rework.count + c.aging.count + c.cycleTime.samples + c.forecast.sampleDone
    }
    let c = BoardContent(state: state, at: at, zone: .utc, settings: settings)
    let warmed = c.blocked.count + c.rework.count + c.aging.count + c.cycleTime.samples + c.forecast.sampleDone
    let kept = median(runs: 21) {
      c.blocked.count + c.rework.count + c.aging.count + c.cycleTime.samples + c.forecast.sampleDone
    }
    let each: [(String, Double)] = [
      ("blocked", median(runs: 11) { Blocked.compute(state: state).count }.ms),
      ("rework", median(runs: 11) { Blocked.rework(state: state).count }.ms),
      ("aging", median(runs: 11) { Aging.compute(state: state).count }.ms),
      ("cycle time", median(runs: 11) { Aging.cycleTime(state: state, at: at, zone: .utc).samples }.ms),
      (
        "forecast",
        median(runs: 11) {
          Forecast.compute(state: state, sprint: c.sprint, scope: c.scope, at: at, zone: .utc).sampleDone
        }.ms
      ),
    ]
    let split = each.map { "\($0.0) \(Report.number($0.1))" }.joined(separator: ", ")
    report.add(
      group, "blocked + rework + aging + cycle time + forecast, fresh content, \(features) features", fresh.ms, "ms",
      note: "\(c.blocked.count) blocked, \(c.rework.count) rework, \(c.aging.count) aging; \(split) ms")
    report.add(
      group, "the same, content kept (ProjectionMemo)", kept.ms, "ms", note: "sink \(fresh.sink &+ warmed &+ kept.sink)"
    )
    let (worst, sprint) = worstCase()
    let scope = BoardScope(state: worst, sprint: sprint)
    let forecast = median(runs: 21) {
      switch Forecast.compute(state: worst, sprint: sprint, scope: scope, at: at, zone: .utc).outcome {
      case .beyondHorizon: 1
      default: 0
      }
    }
    report.add(
      group, "forecast, worst case (5,000 left, 14 done in 30 days, 10,000 runs)", forecast.ms, "ms", goal: 10,
      note: forecast.sink == 21 ? "every run to the 365-working-day horizon" : "not at the horizon")
  }

  /// `--work-only`: these figures alone.
  static func only() {
    let report = Report()
    figures(into: report)
    report.show(title: "Wallboard benchmarks (release): issue 26", json: nil)
  }
}

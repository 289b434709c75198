internal import Projections
internal import WallboardCore
internal import Wire

/// Issue 26's keys of the `inspect` JSON: what is stuck (`blocked`, `rework`), how old the work
/// is (`aging`, `cycle_time`) and when it will finish (`forecast`), from the view's content.
extension InspectReport {
  /// The aging list, its ages read at `at` (inspect's), each marked when past the P85 cycle time.
  static func agingJSON(_ c: BoardContent, at: Instant) -> JSONValue {
    let cycle = c.cycleTime
    return .array(c.aging.map { agingJSON($0, cycle: cycle, at: at) })
  }

  /// Tenths of a day as days (an age as the board shows it, rounded down); null when unknown.
  static func tenths(_ t: Int?) -> JSONValue { t.map { .number(Double($0) / 10) } ?? .null }

  static func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

  static func time(_ t: Instant?) -> JSONValue { t.map { .string($0.rfc3339) } ?? .null }

  static func date(_ d: CivilDate?) -> JSONValue { d.map { .string($0.description) } ?? .null }

  static func count(_ n: Int) -> JSONValue { .number(Double(n)) }

  /// `{feature_id, project, title, assignee, state, waits_on, since}`; `waits_on` as the
  /// feature's project writes them (a bare id within it, `project/id` across).
  static func blockedJSON(_ b: BlockedItem) -> JSONValue {
    .object(
      JSONObject([
        ("feature_id", .string(b.key.id)), ("project", text(b.key.projectId)), ("title", .string(b.title)),
        ("assignee", text(b.assignee)), ("state", .string(b.status)),
        ("waits_on", .array(b.waitsOn.map { .string(b.written($0)) })), ("since", time(b.since)),
      ]))
  }

  /// `{feature_id, project, title, assignee, times, since}`.
  static func reworkJSON(_ r: ReworkItem) -> JSONValue {
    .object(
      JSONObject([
        ("feature_id", .string(r.key.id)), ("project", text(r.key.projectId)), ("title", .string(r.title)),
        ("assignee", text(r.assignee)), ("times", count(r.times)), ("since", time(r.since)),
      ]))
  }

  /// `{feature_id, project, title, state, age_days, in_progress_days, past_p85}`.
  static func agingJSON(_ a: AgingItem, cycle: CycleTime, at: Instant) -> JSONValue {
    .object(
      JSONObject([
        ("feature_id", .string(a.key.id)), ("project", text(a.key.projectId)), ("title", .string(a.title)),
        ("state", .string(a.status)), ("age_days", tenths(a.stateTenths(at: at))),
        ("in_progress_days", tenths(a.workTenths(at: at))), ("past_p85", .bool(a.pastP85(cycleTime: cycle, at: at))),
      ]))
  }

  /// `{p50_days, p85_days, samples, window_days}`.
  static func cycleJSON(_ c: CycleTime) -> JSONValue {
    .object(
      JSONObject([
        ("p50_days", tenths(c.p50Tenths)), ("p85_days", tenths(c.p85Tenths)), ("samples", count(c.samples)),
        ("window_days", count(c.windowDays)),
      ]))
  }

  /// `{kind, …, sample_days, sample_done, sampled_from, sampled_through, runs, seed}`; `seed` as
  /// a decimal string (a 64-bit number does not survive a JSON double).
  static func forecastJSON(_ f: Forecast) -> JSONValue {
    var fields: [(String, JSONValue)]
    switch f.outcome {
    case .sprint(let remaining, let p50, let p85):
      fields = [
        ("kind", .string("sprint")), ("remaining", count(remaining)), ("p50_date", date(p50)),
        ("p85_date", date(p85)),
      ]
    case .beyondHorizon(let remaining, let p50, let horizon):
      fields = [
        ("kind", .string("beyond_horizon")), ("remaining", count(remaining)), ("p50_date", date(p50)),
        ("p85_date", .null), ("horizon_date", date(horizon)),
      ]
    case .sprintDone: fields = [("kind", .string("sprint_done")), ("remaining", count(0))]
    case .backlog(let days, let p50, let p85):
      fields = [
        ("kind", .string("backlog")), ("days", count(days)), ("p50_features", count(p50)),
        ("p85_features", count(p85)),
      ]
    case .noThroughput: fields = [("kind", .string("no_throughput"))]
    }
    fields += [
      ("sample_days", count(f.sampleDays)), ("sample_done", count(f.sampleDone)),
      ("sampled_from", date(f.sampledFrom)), ("sampled_through", date(f.sampledThrough)),
      ("runs", count(f.runs)), ("seed", .string(String(f.seed))),
    ]
    return .object(JSONObject(fields))
  }
}

public import Projections
public import WallboardCore
internal import Widgets
public import Wire
internal import ZoneFiles

/// The `inspect` JSON of `cli.md`, built from projections.
public enum InspectReport {
  /// - Parameters:
  ///   - at: the moment shown (`--at`).
  ///   - now: the real clock, against which each source's staleness is judged.
  ///   - activeSprint: the sprint `--active-sprint` forces, if any.
  ///   - flowDays: the window of `flow` and `throughput` (`Flow.dayRange`).
  ///   - afterAt: how many events were set aside as dated after `--at`, when some were.
  public static func json(
    state: BoardState, at: Instant, now: Instant, zone: Zone, unit: UnitChoice, activeSprint: String? = nil,
    flowDays: Int = Flow.defaultDays, sprintZones: SprintZones = SprintZones(), afterAt: Int? = nil
  ) -> JSONValue {
    let settings = ViewSettings(unit: unit, activeSprint: activeSprint, flowDays: flowDays)
    return json(
      view: BoardView(state: state, at: at, now: now, zone: zone, settings: settings, sprintZones: sprintZones),
      afterAt: afterAt)
  }

  /// The report of `view`: the frame the board shows (the same content, sources and banner).
  public static func json(view: BoardView, afterAt: Int? = nil) -> JSONValue {
    let c = view.content
    let (state, at, zone) = (view.state, view.at, view.zone)
    // Over the tallies' features, so that the last day's counts are the tallies.
    let flow = c.flow
    let header = HeaderModel(
      projects: c.projects, workspace: HeaderModel.workspaceName(state), sprint: c.sprint,
      burndown: c.burndown, flow: c.sprint == nil ? flow : nil, at: at, zone: zone, filter: state.settings.filter,
      missingSprint: c.missingSprint)
    var sprintJSON: JSONValue = .null
    var burndownJSON: JSONValue = .null
    if let s = c.sprint, let b = c.burndown {
      sprintJSON = Self.sprintJSON(s, b)
      burndownJSON = Self.burndownJSON(b)
    }
    return .object(
      JSONObject([
        ("at", .string(at.rfc3339)),
        ("title", .string(header.title)),
        ("projects", .array(c.projects.map(JSONValue.string))),
        ("sprint", sprintJSON),
        ("burndown", burndownJSON),
        ("tallies", .array(c.tallies.map(tallyJSON))),
        ("progress", progressJSON(c.progress)),
        ("recent", .array(state.recent.reversed().map(transitionJSON))),
        ("flow", flowJSON(flow)),
        ("throughput", throughputJSON(flow)),
        ("sources", .array(view.sources.map(sourceJSON))),
        ("events", eventsJSON(state.counters, afterAt: afterAt)),
        ("active_sprint_error", str(c.missingSprint.map(Self.missingText))),
        // What the board says across its top, in its words (null: nothing).
        ("banner", str(view.banner.map { BannerText.line($0, now: view.now, zone: zone) })),
        ("filter", filterJSON(state)),
        ("declared_sprints", declaredJSON(state, at: at, zone: zone, sprintZones: c.sprintZones)),
        // Issue 26: what is stuck, how old the work is, when it will finish (InspectReport+Work.swift),
        // and the agents' locks (see `agentsJSON`).
        ("blocked", .array(c.blocked.map(blockedJSON))), ("rework", .array(c.rework.map(reworkJSON))),
        ("aging", agingJSON(c, at: at)), ("cycle_time", cycleJSON(c.cycleTime)),
        ("forecast", forecastJSON(c.forecast)),
        ("agents", agentsJSON(c.agents, at: at)),
      ]))
  }

  private static func num(_ d: Double) -> JSONValue { .number(d) }
  private static func opt(_ d: Double?) -> JSONValue { d.map(JSONValue.number) ?? .null }
  private static func str(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
  private static func int(_ i: Int) -> JSONValue { .number(Double(i)) }

  /// The shown sprint, with its burndown's zone, unit and totals.
  static func sprintJSON(_ s: Sprint, _ b: Burndown) -> JSONValue {
    .object(
      JSONObject([
        ("id", .string(s.id)), ("name", .string(s.name)), ("goal", str(s.goal)),
        ("start_date", .string(s.startDate.description)), ("end_date", .string(s.endDate.description)),
        ("time_zone", .string(b.zone.identifier)),
        ("started_at", str(s.startedAt?.rfc3339)), ("closed_at", str(s.closedAt?.rfc3339)),
        ("days_left", int(b.daysLeft)), ("unit", .string(b.unit.rawValue)),
        ("committed", num(b.committed)), ("unestimated", int(b.unestimated)),
        ("label", str(s.membershipLabel)), ("activation", .string(s.activation.rawValue)),
      ]))
  }

  /// The burndown's series, one value a day, and its scope changes.
  static func burndownJSON(_ b: Burndown) -> JSONValue {
    .object(
      JSONObject([
        ("days", .array(b.days.map { .string($0.description) })),
        ("working", .array(b.working.map(JSONValue.bool))),
        ("ideal", .array(b.ideal.map(num))),
        ("remaining", .array(b.remaining.map(opt))),
        ("scope", .array(b.scope.map(opt))),
        ("completed", .array(b.completed.map(opt))),
        (
          "scope_changes",
          .array(
            b.scopeChanges.map { c in
              .object(
                JSONObject([
                  ("date", .string(c.date.description)), ("feature_id", .string(c.featureId)),
                  ("project", str(c.feature.projectId)),
                  ("delta", num(c.delta)), ("kind", .string(c.kind.rawValue)),
                ]))
            })
        ),
      ]))
  }

  static func tallyJSON(_ t: Projections.Tally) -> JSONValue {
    var fields: [(String, JSONValue)] = [
      ("state", .string(t.state)), ("label", .string(t.label)), ("count", int(t.count)),
      ("points", num(t.points)), ("terminal", .bool(t.terminal)), ("known", .bool(t.known)),
    ]
    if let c = t.countsAs { fields.append(("counts_as", .string(c))) }
    return .object(JSONObject(fields))
  }

  static func progressJSON(_ progress: Progress) -> JSONValue {
    .object(
      JSONObject([
        ("total", int(progress.total)), ("done", int(progress.done)), ("completed", int(progress.completed)),
        ("percent", num(progress.percent)),
        ("total_points", num(progress.totalPoints)), ("done_points", num(progress.donePoints)),
        ("completed_points", num(progress.completedPoints)),
        (
          "closed",
          .array(
            progress.closed.map { c in
              .object(JSONObject([("state", .string(c.state)), ("count", int(c.count))]))
            })
        ),
      ]))
  }

  static func transitionJSON(_ t: Transition) -> JSONValue {
    .object(
      JSONObject([
        ("feature_id", .string(t.featureId)), ("project", str(t.project)), ("title", .string(t.title)),
        ("from", str(t.from)), ("to", .string(t.to)), ("at", .string(t.at.rfc3339)),
      ]))
  }

  static func sourceJSON(_ s: SourceStatus) -> JSONValue {
    var o = JSONObject([
      ("name", .string(s.name)), ("kind", .string(s.kind)), ("status", .string(s.status.rawValue)),
      ("last_event_at", str(s.lastEventAt?.rfc3339)),
      ("last_change_at", str(s.lastChangeAt?.rfc3339)), ("events", int(s.events)),
      ("rejected", int(s.rejected)), ("duplicates", int(s.duplicates)), ("gaps", int(s.gaps)),
      ("needs_resync", .bool(s.needsResync)),
      // A failed connection's reason is an error too (the board shows it as well).
      ("last_error", str(s.lastError ?? (Self.failing(s.status) ? s.detail : nil))),
      ("detail", str(s.detail)),
      ("history_from", str(s.historyFrom?.rfc3339)),
    ])
    // A wall's `nats://` source: the stream position its board shows.
    if let p = s.position { o.append("position", .number(Double(p))) }
    return .object(o)
  }

  static func eventsJSON(_ counters: EventCounters, afterAt: Int?) -> JSONValue {
    .object(
      JSONObject(
        [
          ("applied", int(counters.applied)), ("duplicates", int(counters.duplicates)),
          ("rejected", int(counters.rejected)), ("ignored", int(counters.ignored)),
        ] + (afterAt.map { [("after_at", int($0))] } ?? [])))
  }

  /// What the board says of a forced sprint it does not have.
  static func missingText(_ id: String) -> String {
    "--active-sprint \(id): the board has no such sprint"
  }

  /// The board's filter, and how many features it keeps off the board.
  static func filterJSON(_ state: BoardState) -> JSONValue {
    let f = state.settings.filter
    return .object(
      JSONObject([
        ("projects", .array(f.projects.map(JSONValue.string))), ("labels", .array(f.labels.map(JSONValue.string))),
        ("assignees", .array(f.assignees.map(JSONValue.string))), ("hidden", .number(Double(state.hiddenCount))),
      ]))
  }

  /// The sprints whose dates decide (`--sprint`), in the order declared, with their members now
  /// and whether their dates hold `at`.
  static func declaredJSON(_ state: BoardState, at: Instant, zone: Zone, sprintZones: SprintZones) -> JSONValue {
    .array(
      state.sprintOrder.compactMap { state.sprints[$0] }.filter { $0.activation == .dates }.map { s in
        let z = sprintZones.zone(of: s, else: zone)
        let today = z.date(of: at)
        return .object(
          JSONObject([
            ("id", .string(s.id)), ("name", .string(s.name)), ("goal", s.goal.map(JSONValue.string) ?? .null),
            ("start_date", .string(s.startDate.description)), ("end_date", .string(s.endDate.description)),
            ("time_zone", .string(z.identifier)), ("label", s.membershipLabel.map(JSONValue.string) ?? .null),
            ("holidays", .array(s.holidays.sorted().map { .string($0.description) })),
            ("non_working", .array(s.nonWorkingDays.sorted().map { .string($0.rawValue) })),
            ("feature_ids", .array(s.featureIds.map(JSONValue.string))),
            ("members", .number(Double(state.members(of: s).count))),
            ("dates_hold", .bool(s.startDate <= today && today <= s.endDate)),
          ]))
      })
  }

  /// A source whose connection failed: its connection detail is the reason.
  static func failing(_ s: SourceStatus.State) -> Bool { s == .reconnecting || s == .offline || s == .connecting }

  /// `[{"date", "counts": {state: n}}]`, oldest first, ending with today; the counts in the
  /// tallies' state order.
  static func flowJSON(_ f: Flow) -> JSONValue {
    .array(
      f.days.map { d in
        .object(
          JSONObject([
            ("date", .string(d.date.description)),
            ("counts", .object(JSONObject(zip(f.states, d.counts).map { ($0.0.id, .number(Double($0.1))) }))),
          ]))
      })
  }

  /// `{"days": [{"date", "done"}], "total", "per_day"}`: features that entered a done state, per
  /// day of the flow's window; `per_day` over the days the board has history for, to two decimals.
  static func throughputJSON(_ f: Flow) -> JSONValue {
    .object(
      JSONObject([
        (
          "days",
          .array(
            f.days.map { d in
              .object(JSONObject([("date", .string(d.date.description)), ("done", .number(Double(d.done)))]))
            })
        ),
        ("total", .number(Double(f.throughput))),
        ("per_day", .number((f.throughputPerDay * 100).rounded() / 100)),
        ("history_from", f.historyFrom.map { .string($0.rfc3339) } ?? .null),
      ]))
  }
}

// MARK: - Agents at work (issue 26)

extension InspectReport {
  /// `agents`: each agent session's lock, held ones first (longest held first), then the lapsed
  /// ones, as of `at`: `{feature_id, project, title, session_id, since, locked_at, lapses_at,
  /// lapsed}`.
  static func agentsJSON(_ rows: [AgentRow], at: Instant) -> JSONValue {
    .array(
      Agents.arranged(rows, at: at).map { r in
        .object(
          JSONObject([
            ("feature_id", .string(r.lock.feature.id)),
            ("project", r.lock.feature.projectId.map(JSONValue.string) ?? .null),
            ("title", r.title.map(JSONValue.string) ?? .null),
            ("session_id", .string(r.lock.session)),
            ("since", .string(r.lock.since.rfc3339)),
            ("locked_at", .string(r.lock.lockedAt.rfc3339)),
            ("lapses_at", .string(r.lock.lapsesAt.rfc3339)),
            ("lapsed", .bool(r.lapsed(at: at))),
          ]))
      })
  }
}

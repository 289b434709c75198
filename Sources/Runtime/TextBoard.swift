public import Projections
internal import Raster
public import WallboardCore
public import Widgets

/// A plain-text rendering of the board for a terminal (`--display text`): the header, a
/// burndown sparkline (without a sprint, the flow's done-per-day sparkline and throughput), the
/// forecast, the tallies, progress, what needs attention, the work in progress by age, the
/// agents, sources and recent changes. Pure.
public enum TextBoard {
  /// - Parameters:
  ///   - activeSprint: the sprint `--active-sprint` forces, if any.
  ///   - flowDays: the flow's window when no sprint is active (`Flow.dayRange`).
  ///   - restoredFrom: the board was restored from its journal and no source is live yet: when
  ///     it last heard anything (`BoardStore.restoredFrom`).
  public static func render(
    state: BoardState, at: Instant, now: Instant, zone: Zone, unit: UnitChoice, activeSprint: String? = nil,
    flowDays: Int = Flow.defaultDays, sprintZones: SprintZones = SprintZones(), restoredFrom: Instant? = nil
  ) -> String {
    let settings = ViewSettings(unit: unit, activeSprint: activeSprint, flowDays: flowDays)
    return render(
      view: BoardView(
        state: state, at: at, now: now, zone: zone, settings: settings, sprintZones: sprintZones,
        restoredFrom: restoredFrom))
  }

  /// The text of `view`: the frame the pixel board shows (the same content, sources and banner).
  public static func render(view: BoardView) -> String {
    var lines: [String] = []
    let c = view.content
    let (state, at, now, zone) = (view.state, view.at, view.now, view.zone)
    let sources = view.sources
    if let banner = view.banner { lines.append("!! " + BannerText.line(banner, now: now, zone: zone)) }
    if let s = c.sprint, let b = c.burndown {
      lines.append(
        "\(s.name)  \(s.startDate) → \(s.endDate)  ·  \(ProgressText.daysLeft(b.daysLeft))  ·  \(ClockText.hhmm(at, zone)) \(zone.identifier)"
      )
      if let g = s.goal { lines.append("Goal: \(g)") }
      let rem = b.remaining.compactMap { $0 }
      let top = max(b.committed, b.scope.compactMap { $0 }.max() ?? 0, 1)
      let bars = Array("▁▂▃▄▅▆▇█")
      // One of eight bars for a share of the top, whatever the value (never below 0 or past 7).
      func bar(_ v: Double) -> Character { bars[max(0, min(7, Int(saturating: v / top * 7.999)))] }
      let spark = String(rem.map(bar))
      let ideal = String(b.ideal.map(bar))
      let u = b.unit == .points ? "points" : "features"
      lines.append(
        "Burndown (\(u)\(b.unestimated > 0 ? ", \(b.unestimated) unestimated" : "")): remaining \(Numbers.short(rem.last ?? 0)) of \(Numbers.short(b.committed)) committed"
      )
      lines.append("  actual \(spark)")
      lines.append("  ideal  \(ideal)")
      for c in b.scopeChanges.suffix(3) {
        lines.append(
          "  scope \(c.date): \(state.shownId(c.feature)) \(c.kind.rawValue) \(c.delta >= 0 ? "+" : "")\(Numbers.short(c.delta))"
        )
      }
    } else if let missing = c.missingSprint {
      lines.append("Sprint \(missing) not found (--active-sprint)")
    } else {
      lines.append(flowLine(c.flow))
    }
    // The same texts the wall draws (`FrameModel`): the forecast, what needs attention, the
    // work in progress by age, the agents.
    let frame = FrameModel(view: view)
    lines.append(ForecastText.line(c.forecast.outcome))
    let f = state.settings.filter
    if !f.isEmpty { lines.append("Showing " + HeaderModel.scopeText(f, titleNamesProjects: false)) }
    let p = c.progress
    lines.append("Progress: \(ProgressText.summary(p)) (\(ProgressText.donePercent(p)) done)")
    lines.append(c.tallies.map { "\($0.label) \($0.count)" }.joined(separator: " · "))
    lines += attentionLines(frame.attention) + agingLines(frame.aging) + agentLines(frame.agents)
    for s in sources {
      let age = " · " + SourceRow.age(s, now: now, at: at, zone: zone)
      // A source that wants a look says why (the files it cannot read are in its detail).
      let detail = s.needsAttention ? s.detail.map { " · \($0)" } ?? "" : ""
      let error = s.lastError.map { e in detail.contains(e) ? "" : " · last error: \(e)" } ?? ""
      lines.append("● \(s.name): \(s.status.rawValue)\(age)\(detail)\(error)")
    }
    for t in state.recent.suffix(5).reversed() {
      let id = state.shownId(FeatureKey(project: t.project, id: t.featureId))
      let to = StateLabel.of(t.to, project: t.project, in: state)
      lines.append("  \(FeatureName.text(id: id, title: t.title)) → \(to)  \(ClockText.hhmm(t.at, zone))")
    }
    return lines.joined(separator: "\n")
  }

  /// The most rows a section of the text board lists; more are counted ("+3 more").
  static let sectionRows = 10

  /// Up to `sectionRows` of `rows`, each indented, and "+N more" for the rest.
  static func section(_ rows: [String]) -> [String] {
    rows.prefix(sectionRows).map { "  " + $0 }
      + (rows.count > sectionRows ? ["  +\(rows.count - sectionRows) more"] : [])
  }

  /// "Attention: 2 blocked · 1 lapsed" and a line per item, most urgent first; "Attention:
  /// Nothing needs attention".
  public static func attentionLines(_ m: AttentionModel) -> [String] {
    guard !m.rows.isEmpty else { return ["Attention: " + AttentionModel.nothing] }
    return ["Attention: " + m.summary] + section(m.rows.map(\.line))
  }

  /// "Aging, days in progress (P50 4 d · P85 9 d (23 done in 90 d)):" and a line per feature,
  /// oldest first: "In progress  Login flow (FEAT-1)  12 d  past P85".
  public static func agingLines(_ m: AgingChart) -> [String] {
    let head = "Aging, days in progress (\(AgingText.cycleTime(m.cycleTime)))"
    guard !m.dots.isEmpty else { return [head + ": " + AgingChart.empty] }
    let rows = m.dots.map { d in
      "\(m.columns[d.column].label)  \(FeatureName.text(id: d.featureId, title: d.title))  \(AgingText.text(days: d.days))"
        + (d.pastP85 ? "  past P85" : "")
    }
    return [head + ":"] + section(rows)
  }

  /// "Agents: 2 held" and a line per lock, a lapsed one saying so; "Agents: No agent holds a
  /// feature".
  public static func agentLines(_ rows: [AgentStripRow]) -> [String] {
    guard !rows.isEmpty else { return ["Agents: " + AgentStripRow.empty] }
    return ["Agents: " + AgentStripRow.summary(rows)] + section(rows.map(\.line))
  }

  /// "Flow · last 14 days: 12 done · 0.9/day  ▁▃ ▅█" — the done-per-day sparkline (a space on a
  /// day with none) after the throughput.
  static func flowLine(_ f: Flow) -> String {
    let bars = Array("▁▂▃▄▅▆▇█")
    let top = max(1, f.days.map(\.done).max() ?? 0)
    let spark = String(f.days.map { $0.done == 0 ? " " : bars[min(7, ($0.done * 8 - 1) / top)] })
    return "\(FlowWidget.title(f)): \(FlowWidget.throughputText(f))  \(spark)"
  }
}

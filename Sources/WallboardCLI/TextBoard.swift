public import Projections
internal import Raster
public import WallboardCore
internal import Widgets

/// A plain-text rendering of the board for a terminal (`--display text`): the header, a
/// burndown sparkline (without a sprint, the flow's done-per-day sparkline and throughput), the
/// tallies, progress, sources and recent changes. Pure.
public enum TextBoard {
  /// - Parameters:
  ///   - activeSprint: the sprint `--active-sprint` forces, if any.
  ///   - flowDays: the flow's window when no sprint is active (`Flow.dayRange`).
  ///   - restoredFrom: the board was restored from its journal and no source is live yet: when
  ///     it last heard anything (`BoardStore.restoredFrom`).
  public static func render(
    state: BoardState, at: Instant, now: Instant, zone: Zone, unit: UnitChoice, activeSprint: String? = nil,
    flowDays: Int = Flow.defaultDays, restoredFrom: Instant? = nil
  ) -> String {
    var lines: [String] = []
    let sprint = state.activeSprint(preferred: activeSprint, at: at, zone: zone)
    let sources = SourceStatus.compute(state: state, now: now)
    if let restoredFrom {
      let day =
        zone.date(of: restoredFrom) == zone.date(of: now) ? "" : "\(ClockText.dayMonth(zone.date(of: restoredFrom))) "
      lines.append("!! Last known board — showing data from \(day)\(ClockText.hhmm(restoredFrom, zone))")
    } else if let down = sources.first(where: { $0.status != .live && $0.status != .ended }) {
      let since = down.lastHeard.map { " — showing data from \(ClockText.hhmm($0, zone))" } ?? ""
      lines.append("!! Not connected: \(down.name) is \(down.status.rawValue)\(since)")
    }
    if let s = sprint {
      let b = Burndown.compute(state: state, sprint: s, at: at, boardZone: zone, unit: unit)
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
    } else if let missing = state.missingSprint(preferred: activeSprint) {
      lines.append("Sprint \(missing) not found (--active-sprint)")
    } else {
      let f = Flow.compute(state: state, sprint: nil, at: at, zone: zone, days: flowDays)
      lines.append(flowLine(f))
    }
    let f = state.settings.filter
    if !f.isEmpty { lines.append("Showing " + HeaderModel.scopeText(f, titleNamesProjects: false)) }
    let scope = BoardScope(state: state, sprint: sprint)
    let p = Progress.compute(state: state, scope: scope)
    lines.append("Progress: \(ProgressText.summary(p)) (\(ProgressText.donePercent(p)) done)")
    let tallies = Tally.compute(state: state, scope: scope)
    lines.append(tallies.map { "\($0.label) \($0.count)" }.joined(separator: " · "))
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

  /// "Flow · last 14 days: 12 done · 0.9/day  ▁▃ ▅█" — the done-per-day sparkline (a space on a
  /// day with none) after the throughput.
  static func flowLine(_ f: Flow) -> String {
    let bars = Array("▁▂▃▄▅▆▇█")
    let top = max(1, f.days.map(\.done).max() ?? 0)
    let spark = String(f.days.map { $0.done == 0 ? " " : bars[min(7, ($0.done * 8 - 1) / top)] })
    return "\(FlowWidget.title(f)): \(FlowWidget.throughputText(f))  \(spark)"
  }
}

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
    let f = state.settings.filter
    if !f.isEmpty { lines.append("Showing " + HeaderModel.scopeText(f, titleNamesProjects: false)) }
    let p = c.progress
    lines.append("Progress: \(ProgressText.summary(p)) (\(ProgressText.donePercent(p)) done)")
    lines.append(c.tallies.map { "\($0.label) \($0.count)" }.joined(separator: " · "))
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

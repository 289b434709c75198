public import Glyphs
public import Projections
public import WallboardCore

/// What one frame shows, computed once from the board state: each widget reads only its part.
public struct FrameModel: Sendable {
  public var header: HeaderModel
  public var burndown: Burndown?
  /// The cumulative flow and throughput, when no sprint is active (the chart shown instead).
  public var flow: Flow?
  public var tallies: [Tally]
  public var progress: Progress
  public var sources: [SourceRow]
  public var recent: [RecentRow]
  /// Blocked work, lapsed locks, work past P85 and rework, with titles.
  public var attention: AttentionModel
  /// The work in progress by state and age, with the team's cycle time.
  public var aging: AgingChart
  /// The agent sessions' holds.
  public var agents: [AgentStripRow]
  /// When the sprint (or, without one, how much of the backlog) will finish.
  public var forecast: Forecast.Outcome
  /// When not nil, the banner's text: the board restored from its journal, or not connected.
  public var banner: String?
  /// The board's clock.
  public var at: Instant

  /// Builds the frame's models afresh (no kept content: a snapshot, a test).
  ///
  /// - Parameters:
  ///   - at: the board's clock (simulated time for the simulation), for the burndown and clock.
  ///   - now: the real clock, for ages and staleness.
  ///   - reconnectAt: when each source (by name) will try again, if it is waiting to.
  ///   - activeSprint: the sprint `--active-sprint` forces, if any.
  ///   - flowDays: the cumulative flow's window (`Flow.dayRange`), drawn when no sprint is active.
  ///   - sprintZones: the zones the sprints name, as the caller read them (`ZoneBook`).
  ///   - restoredFrom: the board was restored from its journal and no source is live yet: the
  ///     time it last heard anything (`BoardStore.restoredFrom`).
  public init(
    state: BoardState, at: Instant, now: Instant, zone: Zone, unit: UnitChoice, staleAfter: Double = 30,
    reconnectAt: [String: Instant] = [:], activeSprint: String? = nil, flowDays: Int = Flow.defaultDays,
    sprintZones: SprintZones = SprintZones(), restoredFrom: Instant? = nil
  ) {
    let settings = ViewSettings(unit: unit, activeSprint: activeSprint, flowDays: flowDays, staleAfter: staleAfter)
    self.init(
      view: BoardView(
        state: state, at: at, now: now, zone: zone, settings: settings, sprintZones: sprintZones,
        restoredFrom: restoredFrom),
      reconnectAt: reconnectAt)
  }

  /// Builds the frame's models from the frame's view (`BoardView`), the one the text board and
  /// `inspect` read too: its content kept while the board and the day stay the same, and what
  /// reads the clock — the clock itself, the ages, the sources' states, the banner — made for the
  /// view's `at` and `now`.
  public init(view: BoardView, reconnectAt: [String: Instant] = [:]) {
    let (c, state, at, now, zone) = (view.content, view.state, view.at, view.now, view.zone)
    // The pixel board draws the flow only where no sprint is active (the burndown instead).
    burndown = c.burndown
    flow = c.sprint == nil ? c.flow : nil
    tallies = c.tallies
    progress = c.progress
    header = HeaderModel(
      projects: c.projects, workspace: HeaderModel.workspaceName(state), sprint: c.sprint,
      burndown: c.burndown, flow: flow, at: at, zone: zone,
      filter: state.settings.filter, missingSprint: c.missingSprint)
    sources = view.sources.map {
      SourceRow($0, now: now, at: at, zone: zone, reconnectAt: reconnectAt[$0.name])
    }
    recent = state.recent.suffix(Self.recentRows).reversed().map { t in
      RecentRow(
        featureId: state.shownId(FeatureKey(project: t.project, id: t.featureId)), title: t.title,
        to: StateLabel.of(t.to, project: t.project, in: state),
        age: Ages.when(t.at, at: at, zone: zone))
    }
    banner = view.banner.map { BannerText.line($0, now: now, zone: zone) }
    header.connections = ConnectionsLine(sources)
    attention = AttentionModel(
      blocked: c.blocked, rework: c.rework, aging: c.aging, cycleTime: c.cycleTime, agents: c.agents,
      sources: sources, state: state, at: at)
    aging = AgingChart(items: c.aging, cycleTime: c.cycleTime, state: state, at: at)
    agents = Agents.arranged(c.agents, at: at).map { AgentStripRow($0, state: state, at: at) }
    forecast = c.forecast.outcome
    self.at = at
  }

  /// The most recent changes a frame holds.
  public static let recentRows = 8

  /// When the model `init(view:reconnectAt:)` makes would first read differently only because
  /// time passed, on the board's clock and the wall's: the earliest of its texts' own next
  /// changes, each computed beside its text — the header's clock and day, the today line, each
  /// source's state, age and countdown, the recent changes' ages, the banner. What reads the
  /// board rather than the clock (the content) is the `ProjectionMemo`'s to say (`until`). The
  /// text board shows a part of the same texts.
  public static func nextChange(view: BoardView, reconnectAt: [String: Instant] = [:]) -> NextChange {
    let (c, state, at, now, zone) = (view.content, view.state, view.at, view.now, view.zone)
    var next = NextChange(board: HeaderModel.nextChange(at: at, zone: zone))
    if let b = c.burndown { next.board(BurndownWidget.todayFractionChange(after: at, zone: b.zone)) }
    next.wall(SourceStatus.nextChange(state: state, now: now, staleAfter: view.settings.staleAfter))
    for s in view.sources {
      next.add(SourceRow.ageChange(s, now: now, at: at, zone: zone))
      next.wall(SourceRow.countdownChange(reconnectAt: reconnectAt[s.name], now: now))
    }
    for t in state.recent.suffix(Self.recentRows) { next.board(Ages.nextWhenChange(t.at, at: at, zone: zone)) }
    if let banner = view.banner { next.wall(BannerText.nextChange(banner, now: now, zone: zone)) }
    // Ages read on the board's clock: days in progress, P85 crossings, locks held and lapsing.
    next.board(AttentionModel.nextChange(aging: c.aging, cycleTime: c.cycleTime, agents: c.agents, at: at))
    next.board(AgingChart.nextChange(items: c.aging, cycleTime: c.cycleTime, at: at))
    next.board(AgentStripRow.nextChange(c.agents, at: at))
    return next
  }
}

/// The banner's words (`BoardBanner`), the same on the pixel board and the text board.
public enum BannerText {
  /// "Not connected — showing data from 14:02" (with the date when the data is older than
  /// today), "Last known board — …", "No features in project web".
  public static func line(_ banner: BoardBanner, now: Instant, zone: Zone) -> String {
    // The time alone when the data is from today; with the date when it is older.
    func since(_ t: Instant) -> String {
      zone.date(of: t) == zone.date(of: now)
        ? "showing data from \(ClockText.hhmm(t, zone))"
        : "showing data from \(ClockText.dayMonth(zone.date(of: t))) \(ClockText.hhmm(t, zone))"
    }
    switch banner {
    case .restored(let from): return "Last known board — " + since(from)
    case .notConnected(let dataFrom, _): return "Not connected — " + (dataFrom.map(since) ?? "no data yet")
    case .noFeatures(let what): return "No features in " + what
    }
  }

  /// When `line(banner, now:zone:)` next reads differently: its data's time gains its date once
  /// `now` is on a later day; nil when nothing in it turns with the clock.
  public static func nextChange(_ banner: BoardBanner, now: Instant, zone: Zone) -> Instant? {
    let shown: Instant?
    switch banner {
    case .restored(let from): shown = from
    case .notConnected(let dataFrom, _): shown = dataFrom
    case .noFeatures: shown = nil
    }
    guard let shown, zone.date(of: now) <= zone.date(of: shown) else { return nil }
    return zone.nextLocalBoundary(after: now, every: 86_400)
  }
}

/// The header: sprint name and goal, dates, working days left, and the clock; without a sprint,
/// the flow's window ("Flow · last 14 days") and its dates.
public struct HeaderModel: Hashable, Sendable {
  public var title: String
  /// The start of `title` that names the projects ("web · "), dropped first where the title does
  /// not fit, so that the sprint's name is cut last; "" when the title names none.
  public var titleContext: String
  public var goal: String?
  public var dates: String
  public var daysLeft: String
  public var clock: String
  public var day: String
  /// What the filter keeps (labels, assignees, projects beyond the title's), or "".
  public var scope: String
  /// The sources in one line (`FrameModel` sets it from the same rows the connections widget
  /// reads); nil without sources.
  public var connections: ConnectionsLine?

  /// - Parameters:
  ///   - projects: the projects the board counts (`projects(of:)`); the filter's projects,
  ///     when it names some, are named instead.
  ///   - workspace: the name of the workspace the board reads, if one (`workspaceName(_:)`).
  ///   - flow: the flow the chart shows when there is no sprint.
  ///   - filter: the board's filter, which the header says when it is set.
  ///   - missingSprint: the forced sprint the board does not have, said in place of "No sprint".
  public init(
    projects: [String] = [], workspace: String? = nil, sprint: Sprint?, burndown: Burndown?, flow: Flow? = nil,
    at: Instant, zone: Zone,
    filter: FeatureFilter = .all, missingSprint: String? = nil
  ) {
    let name =
      sprint?.name ?? missingSprint.map { "Sprint \($0) not found" } ?? flow.map(FlowWidget.title) ?? "No sprint"
    let shown = HeaderModel.projectsText(filter.projects) ?? HeaderModel.boardText(projects, workspace: workspace)
    titleContext = shown.map { "\($0) · " } ?? ""
    title = titleContext + name
    scope = HeaderModel.scopeText(filter)
    goal = sprint?.goal
    if let s = sprint {
      dates = "\(ClockText.dayMonth(s.startDate)) – \(ClockText.dayMonth(s.endDate))"
    } else if let f = flow, let first = f.days.first, let last = f.days.last, f.days.count > 1 {
      dates = "\(ClockText.dayMonth(first.date)) – \(ClockText.dayMonth(last.date))"
    } else {
      dates = ""
    }
    if let b = burndown {
      daysLeft = ProgressText.daysLeft(b.daysLeft)
    } else {
      daysLeft = ""
    }
    clock = ClockText.hhmm(at, zone)
    let d = zone.date(of: at)
    day = "\(ClockText.weekdayName(d)) \(ClockText.dayMonth(d))"
  }

  /// When the header made at `at` next reads differently by itself: its clock's next minute
  /// (the day's line turns with one of them: a day starts on a minute, or on the zone's switch,
  /// where the minute stops too). The rest is the content's.
  public static func nextChange(at: Instant, zone: Zone) -> Instant { ClockText.hhmmChange(after: at, zone) }
}

extension HeaderModel {
  /// The most projects the title names; more are counted there and named on the scope line.
  public static let titleProjects = 2

  /// The workspace the board reads, by its folder's name: when every workspace source
  /// (`orchestra:`, `orchestra-db:` of a folder, `orchestra-md:`) reads one folder of that name.
  public static func workspaceName(_ state: BoardState) -> String? {
    var names: Set<String> = []
    for origin in state.origins.keys {
      guard let colon = origin.firstIndex(of: ":") else { continue }
      let kind = origin[..<colon]
      guard kind == "orchestra" || kind == "orchestra-db" || kind == "orchestra-md" else { continue }
      var path = Substring(origin[origin.index(after: colon)...])
      while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
      guard !path.hasPrefix("//"), let last = path.split(separator: "/").last, !last.hasSuffix(".db") else { continue }
      names.insert(String(last))
    }
    return names.count == 1 ? names.first : nil
  }

  /// The title's project part for the projects the board counts, without a filter naming some:
  /// the project when there is one; with several, the workspace's name and how many
  /// ("shop · 14 projects", or "14 projects") — never one of them, as if it were the board.
  static func boardText(_ projects: [String], workspace: String?) -> String? {
    switch projects.count {
    case 0: return nil
    case 1: return projects[0]
    default: return (workspace.map { "\($0) · " } ?? "") + "\(projects.count) projects"
    }
  }

  /// The title's project part for the filter's projects: "web · api", or "4 projects".
  static func projectsText(_ projects: [String]) -> String? {
    if projects.isEmpty { return nil }
    return projects.count <= titleProjects ? projects.joined(separator: " · ") : "\(projects.count) projects"
  }

  /// The scope line: "labels team:web, area:ui  ·  assignees ana", with the projects when the
  /// title does not name them (more than `titleProjects`); "" when the filter keeps everything.
  public static func scopeText(_ f: FeatureFilter, titleNamesProjects: Bool = true) -> String {
    var parts: [String] = []
    if !f.projects.isEmpty && (!titleNamesProjects || f.projects.count > titleProjects) {
      parts.append("projects " + f.projects.joined(separator: ", "))
    }
    if !f.labels.isEmpty {
      parts.append((f.labels.count == 1 ? "label " : "labels ") + f.labels.joined(separator: ", "))
    }
    if !f.assignees.isEmpty {
      parts.append((f.assignees.count == 1 ? "assignee " : "assignees ") + f.assignees.joined(separator: ", "))
    }
    return parts.joined(separator: "  ·  ")
  }
}

/// One source's line in the connections widget.
public struct SourceRow: Hashable, Sendable {
  public var name: String
  public var status: SourceStatus.State
  /// When the source's data last changed ("updated 3 h ago", "updated 9 Mar"), else when it was
  /// last heard ("heard 12 s ago"), else "never heard".
  public var age: String
  /// "retry in 4 s" while waiting to reconnect.
  public var countdown: String?
  /// The line under the source: a gap, the source's own detail (what it reads, what it cannot
  /// read now), else its last error.
  public var detail: String?
  /// Whether the source wants a look (`SourceStatus.needsAttention`): where rows are tight, its
  /// detail keeps its line before the others'.
  public var needsAttention: Bool

  /// - Parameters:
  ///   - now: the real clock, for the countdown.
  ///   - at: the board's clock, on which the source's events are dated.
  ///   - zone: the board's zone, for the date of a change a week or more before `at`.
  public init(_ s: SourceStatus, now: Instant, at: Instant, zone: Zone, reconnectAt: Instant?) {
    name = s.name
    status = s.status
    needsAttention = s.needsAttention
    age = SourceRow.age(s, now: now, at: at, zone: zone)
    countdown = SourceRow.countdown(reconnectAt: reconnectAt, now: now)
    if s.needsResync {
      detail = SourceRow.gapText(s.lastGap)
    } else {
      detail = s.detail ?? s.lastError
    }
  }

  /// A source's age as the board says it: when its data last changed, not merely when it was
  /// last heard (a followed file whose last event is hours old is live, but its data is old; a
  /// workspace last changed in March says "updated 9 Mar"). Whether it is live is its status's
  /// to say (the connection), never this age's.
  public static func age(_ s: SourceStatus, now: Instant, at: Instant, zone: Zone) -> String {
    if let changed = s.lastChangeAt { return "updated " + Ages.when(changed, at: at, zone: zone) }
    if let heard = s.lastHeard { return "heard " + Ages.text(from: heard, to: now) }
    return "never heard"
  }

  /// When `age(s, now:at:zone:)` next reads differently, on the clock it reads: the board's for
  /// the age of a change, the wall's for how long ago it was heard.
  public static func ageChange(_ s: SourceStatus, now: Instant, at: Instant, zone: Zone) -> NextChange {
    if let changed = s.lastChangeAt { return NextChange(board: Ages.nextWhenChange(changed, at: at, zone: zone)) }
    if let heard = s.lastHeard { return NextChange(wall: Ages.nextChange(from: heard, to: now)) }
    return .never
  }

  /// "retry in 4 s" while the source waits to try again at `reconnectAt`, counted in whole
  /// seconds rounded up; nil once it is due or when it does not wait.
  public static func countdown(reconnectAt: Instant?, now: Instant) -> String? {
    guard let r = reconnectAt, r > now else { return nil }
    return "retry in \(Int(saturating: Double(r.millis - now.millis) / 1000, .up)) s"
  }

  /// When `countdown(reconnectAt:now:)` next reads differently: the next whole second before
  /// the retry, the last at the retry itself, when it goes; nil while it shows none.
  public static func countdownChange(reconnectAt: Instant?, now: Instant) -> Instant? {
    guard let r = reconnectAt, r > now else { return nil }
    let seconds = (r.millis - now.millis + 999) / 1000
    return Instant(millis: r.millis - (seconds - 1) * 1000)
  }

  /// A source's name without its scheme (`orchestra://`, `jsonl:`), for where room is short.
  public static func withoutScheme(_ name: String) -> String {
    let scalars = Array(name.utf8)
    if let i = scalars.indices.first(where: { scalars[$0...].starts(with: "://".utf8) }) {
      return String(decoding: scalars[(i + 3)...], as: UTF8.self)
    }
    if let colon = name.firstIndex(of: ":") { return String(name[name.index(after: colon)...]) }
    return name
  }

  /// What a gap means: those numbers did not arrive (whether they were events the board needs is
  /// for the snapshot to say).
  public static func gapText(_ gap: ClosedRange<Int64>?) -> String {
    guard let g = gap else { return "sequence gap: waiting for a snapshot" }
    let numbers = g.count == 1 ? "seq \(g.lowerBound)" : "seq \(g.lowerBound)–\(g.upperBound)"
    return "\(numbers) not received; waiting for a snapshot"
  }
}

/// One line of recent changes.
public struct RecentRow: Hashable, Sendable {
  /// The feature's id as shown: `project/id` when another project holds the same id
  /// (`BoardState.shownId`).
  public var featureId: String
  public var title: String
  public var to: String
  public var age: String

  public init(featureId: String, title: String, to: String, age: String) {
    self.featureId = featureId
    self.title = title
    self.to = to
    self.age = age
  }

  /// The age without its " ago": "12 min".
  public var ageNumber: String { age.hasSuffix(" ago") ? String(age.dropLast(4)) : age }

  /// "Login flow (FEAT-ABC) → in-review" in pieces for fitting: the id goes first, then the
  /// title is shortened; the state keeps its end. Without a title, the id is the label.
  public var pieces: [TextPiece] {
    let name = title.trimmingWhiteSpace
    let state = TextPiece.label(" → \(to)", keep: .end)
    return name.isEmpty ? [.label(featureId), state] : [.label(name), .secondary(" (\(featureId))"), state]
  }
}

/// How a list of features in text names one: its title, shortened to `limit` characters, with
/// its id after it; the id alone when it has no title.
public enum FeatureName {
  /// "Login flow (FEAT-ABC)", "A very long title that goes … (FEAT-ABC)", or "FEAT-ABC".
  public static func text(id: String, title: String, limit: Int = 48) -> String {
    let name = title.trimmingWhiteSpace
    if name.isEmpty { return id }
    let short = name.count <= limit ? name : String(name.prefix(Swift.max(1, limit - 1))).trimmingWhiteSpace + "…"
    return "\(short) (\(id))"
  }
}

extension String {
  /// Without white space (and newlines) at either end.
  var trimmingWhiteSpace: String {
    var s = Substring(self)
    while let f = s.first, f.isWhitespace { s.removeFirst() }
    while let l = s.last, l.isWhitespace { s.removeLast() }
    return String(s)
  }
}

/// Human ages: "12 s ago", "3 min ago", "2 h ago", "4 d ago".
public enum Ages {
  public static func text(from then: Instant, to now: Instant) -> String {
    let s = max(0, (now.millis - then.millis) / 1000)
    if s < 60 { return "\(s) s ago" }
    if s < 3600 { return "\(s / 60) min ago" }
    if s < 86_400 { return "\(s / 3600) h ago" }
    return "\(s / 86_400) d ago"
  }

  /// When `text(from: then, to: now)` next reads differently: the next whole second of the age
  /// under a minute, the next whole minute under an hour, the next hour under a day, then the
  /// next day. An age below zero reads "0 s ago" until its first second.
  public static func nextChange(from then: Instant, to now: Instant) -> Instant {
    let age = now.millis - then.millis
    let unit: Int64
    switch max(0, age / 1000) {
    case ..<60: unit = 1000
    case ..<3600: unit = 60_000
    case ..<86_400: unit = 3_600_000
    default: unit = 86_400_000
    }
    return Instant(millis: then.millis + (age < 0 ? unit : (age / unit + 1) * unit))
  }

  /// The longest age said as an age; older is said by its date.
  public static let longestAge: Int64 = 7 * 86_400

  /// When something happened, as the board says it at `now`: its age under a week ("3 h ago",
  /// "6 d ago"), else its date in `zone` ("9 Mar"; "9 Mar 2025" in another year than `now`'s).
  /// A time more than a minute after `now` (data from after the moment shown) is said by its
  /// date too, never as a negative age nor as "0 s ago"; within a minute (clocks a little
  /// apart) it is "0 s ago".
  public static func when(_ then: Instant, at now: Instant, zone: Zone) -> String {
    let s = (now.millis - then.millis) / 1000
    if s >= -60 && s < longestAge { return text(from: then, to: now) }
    let d = zone.date(of: then)
    return d.year == zone.date(of: now).year ? ClockText.dayMonth(d) : "\(ClockText.dayMonth(d)) \(d.year)"
  }

  /// When `when(then, at: now, zone:)` next reads differently: as an age, its next change or the
  /// week's end, whichever is first; as a date, when `now` is a minute from it (it becomes an
  /// age) or its year starts or ends (the date gains or loses its year); nil when it never does
  /// (a date of an earlier year than `now`'s).
  public static func nextWhenChange(_ then: Instant, at now: Instant, zone: Zone) -> Instant? {
    let s = (now.millis - then.millis) / 1000
    if s >= -60 && s < longestAge {
      return min(nextChange(from: then, to: now), Instant(millis: then.millis + longestAge * 1000))
    }
    // A date from more than a minute after `now` becomes "0 s ago" at 60.999 s before it.
    var next: Instant? = s < -60 ? Instant(millis: then.millis - 60_999) : nil
    let (year, thenYear) = (zone.date(of: now).year, zone.date(of: then).year)
    if thenYear >= year {
      let turn = zone.startOfDay(CivilDate(year: thenYear == year ? year + 1 : thenYear, month: 1, day: 1))
      next = NextChange.earlier(next, turn)
    }
    return next
  }
}

/// Numbers as the board writes them: whole numbers without a fraction, others to one decimal.
public enum Numbers {
  public static func short(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String((v * 10).rounded() / 10)
  }
}

/// Clock and calendar text.
public enum ClockText {
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  public static func hhmm(_ t: Instant, _ zone: Zone) -> String {
    let s = zone.secondsIntoDay(t)
    return two(s / 3600) + ":" + two(s / 60 % 60)
  }

  /// When `hhmm(t, zone)` next reads differently: the next local minute, or the zone's
  /// daylight-saving switch when that comes first.
  public static func hhmmChange(after t: Instant, _ zone: Zone) -> Instant {
    zone.nextLocalBoundary(after: t, every: 60)
  }

  public static func dayMonth(_ d: CivilDate) -> String { "\(d.day) \(months[d.month - 1])" }

  public static func weekdayName(_ d: CivilDate) -> String {
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][Weekday.allCases.firstIndex(of: d.weekday)!]
  }

  static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}

internal import WallboardCore

/// Plans one simulated sprint. Internal to `SimulatedTeam`.
struct SprintPlan {
  let team: SimulatedTeam
  let index: Int
  var rng: SplitMix64
  var out: [SimulatedTeam.Entry] = []

  static let people = ["ana", "bo", "chidi", "dara", "eli"]
  static let verbs = [
    "Add", "Fix", "Refine", "Speed up", "Document", "Redesign", "Test", "Harden", "Migrate", "Polish",
  ]
  static let things = [
    "login flow", "burndown export", "sprint planning view", "webhook retries", "theme picker",
    "search index", "audit log", "billing page", "offline mode", "notification digest",
    "feature flags", "rate limiter", "onboarding tour", "CSV import", "dark mode contrast",
    "release notes", "API pagination", "session timeout", "backup job", "health endpoint",
    "keyboard shortcuts", "role permissions", "error pages", "metrics dashboard", "invite emails",
    "workspace switcher", "cache warmup", "mobile layout", "tag filters", "access tokens",
  ]
  /// Working hours of in-progress work per size.
  static let effort: [String: Double] = ["S": 7, "M": 14, "L": 24, "XL": 38]

  init(team: SimulatedTeam, index: Int) {
    self.team = team
    self.index = index
    self.rng = SplitMix64(seed: team.seed &* 0x1000_0001 &+ UInt64(index) &* 7919 &+ 17)
  }

  var sprintId: String { "sprint-\(index + 1)" }
  var startDate: CivilDate { team.start.adding(days: 14 * index) }
  var endDate: CivilDate { startDate.adding(days: 11) }

  func at(_ date: CivilDate, _ hours: Double) -> Instant {
    Instant(millis: Int64(date.daysSinceEpoch) * 86_400_000 + Int64(hours * 3_600_000))
  }

  /// Working time: 09:00–17:30 on weekdays. `offset` hours of work after the sprint start.
  func workTime(_ offset: Double) -> Instant {
    var remaining = max(0, offset)
    var day = startDate
    while true {
      if day.weekday != .sat && day.weekday != .sun {
        if remaining < 8.5 { return Instant(seconds: at(day, 9 + remaining).millis / 1000) }
        remaining -= 8.5
      }
      day = day.adding(days: 1)
    }
  }

  mutating func emit(_ time: Instant, _ topic: String, _ payload: String) {
    out.append(SimulatedTeam.Entry(time: time, topic: topic, payload: payload))
  }

  struct Planned {
    var id: String
    var title: String
    var size: String
    var assignee: String
    var inSprint: Bool
    var viaLabel: Bool
  }

  func featureId(_ n: Int) -> String {
    // FEAT-<three letters>, unique per sprint and feature.
    let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
    var v = index * 40 + n
    var s = ""
    for _ in 0..<3 {
      s.append(letters[v % letters.count])
      v /= letters.count
    }
    return "FEAT-" + String(s.reversed())
  }

  mutating func entries() -> [SimulatedTeam.Entry] {
    let planning = at(startDate.adding(days: -3), 14)  // the Friday before
    let count = 20 + Int(rng.next() % 11)
    let extra = 3
    var features: [Planned] = []
    for n in 0..<(count + extra) {
      let sizeRoll = rng.double(0...1)
      let size = sizeRoll < 0.3 ? "S" : sizeRoll < 0.7 ? "M" : sizeRoll < 0.92 ? "L" : "XL"
      let title =
        Self.verbs[Int(rng.next() % UInt64(Self.verbs.count))] + " "
        + Self.things[Int(rng.next() % UInt64(Self.things.count))]
      features.append(
        Planned(
          id: featureId(n), title: title, size: size, assignee: Self.people[n % Self.people.count],
          inSprint: n < count, viaLabel: n < count && n % 9 == 4))
    }

    // Archive the sprint before last: its features leave the board.
    if index >= 2 {
      let old = SprintPlan(team: team, index: index - 2)
      for n in 0..<old.featureCountForArchive() {
        emit(planning, "feature.deleted", "{\"id\":\"\(old.featureId(n))\"}")
      }
    }

    for (n, f) in features.enumerated() {
      let labels = f.viaLabel ? "[\"team:web\",\"sprint:\(sprintId)\"]" : "[\"team:web\"]"
      let status = f.inSprint ? "todo" : "backlog"
      let priority = "P\(n % 4)"
      emit(
        planning.adding(seconds: Double(n)), "feature.created",
        "{\"id\":\"\(f.id)\",\"project_id\":\"demo\",\"title\":\"\(f.title)\",\"status\":\"\(status)\",\"priority\":\"\(priority)\",\"kind\":\"feature\",\"assignee\":\"\(f.assignee)\",\"labels\":\(labels),\"estimate\":\"\(f.size)\"}"
      )
    }
    let explicit = features.filter { $0.inSprint && !$0.viaLabel }.map { "\"\($0.id)\"" }
    emit(
      planning.adding(seconds: 3600), "sprint.created",
      "{\"id\":\"\(sprintId)\",\"name\":\"Sprint \(index + 1)\",\"goal\":\"Ship the \(Self.things[index % Self.things.count]) and keep the board green\",\"start_date\":\"\(startDate)\",\"end_date\":\"\(endDate)\",\"feature_ids\":[\(explicit.joined(separator: ","))],\"non_working_days\":[\"sat\",\"sun\"],\"time_zone\":\"UTC\"}"
    )
    emit(at(startDate, 9), "sprint.started", "{\"id\":\"\(sprintId)\"}")

    // Mid-sprint scope change: Tuesday of week two, two backlog features in, one out.
    let scopeDay = workTime(8.5 * 6 + 2)
    let added = features[count..<(count + 2)].map(\.id)
    let removedIndex = count - 1
    emit(
      scopeDay, "sprint.scope_changed",
      "{\"sprint_id\":\"\(sprintId)\",\"added\":[\"\(added[0])\",\"\(added[1])\"],\"removed\":[\"\(features[removedIndex].id)\"]}"
    )
    for id in added {
      emit(scopeDay.adding(seconds: 60), "feature.updated", "{\"id\":\"\(id)\",\"status\":\"todo\"}")
    }
    // An estimate grows on day three.
    if let g = features.indices.first(where: { features[$0].inSprint && features[$0].size != "XL" }) {
      let bigger = ["S": "M", "M": "L", "L": "XL"][features[g].size]!
      emit(workTime(8.5 * 2 + 3), "feature.updated", "{\"id\":\"\(features[g].id)\",\"estimate\":\"\(bigger)\"}")
      features[g].size = bigger
    }

    // The work: each person takes their features in turn; after in-progress, the feature moves
    // through testing, docs and review on its own clock.
    var personFree = [Double](repeating: 0, count: Self.people.count)
    let rejected = Int(rng.next() % UInt64(max(1, count - 2)))
    let sprintHours = 8.5 * 10
    for (n, f) in features.enumerated() where (f.inSprint && n != removedIndex) || added.contains(f.id) {
      let p = n % Self.people.count
      var t = max(personFree[p], added.contains(f.id) ? 8.5 * 6 + 3 : 0) + rng.double(0...1.5)
      var steps: [(Double, String)] = [(t, "in-progress")]
      t += Self.effort[f.size]! * rng.double(0.7...1.4)
      if rng.chance(0.18) {
        let blockedAt = steps[0].0 + (t - steps[0].0) * 0.5
        steps.append((blockedAt, "blocked"))
        let unblocked = blockedAt + rng.double(3...14)
        steps.append((unblocked, "in-progress"))
        t += unblocked - blockedAt
      }
      personFree[p] = t
      for (state, dwell) in [
        ("ready-for-testing", 0.5...3.0), ("in-testing", 0.5...2.0), ("ready-for-docs", 1.0...5.0),
        ("in-docs", 0.3...1.5), ("documented", 0.5...4.0), ("in-review", 0.5...4.0),
      ] as [(String, ClosedRange<Double>)] {
        steps.append((t, state))
        t += rng.double(dwell)
      }
      steps.append((t, n == rejected ? "rejected" : "done"))
      var previous = "todo"
      for (hours, state) in steps where hours < sprintHours {
        emit(
          workTime(hours), "workflow.transitioned",
          "{\"feature_id\":\"\(f.id)\",\"from\":\"\(previous)\",\"to\":\"\(state)\"}")
        previous = state
      }
    }

    // A heartbeat at noon on every working day; the sprint closes at the end of its last day.
    var day = startDate
    while day <= endDate {
      if day.weekday != .sat && day.weekday != .sun {
        emit(at(day, 12), "heartbeat", "{\"team\":\"demo\"}")
      }
      day = day.adding(days: 1)
    }
    emit(at(endDate, 17.75), "sprint.closed", "{\"id\":\"\(sprintId)\"}")
    // Stable sort by time keeps same-moment events in the order they were planned.
    return out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
  }

  /// How many features sprint `index` created (for archiving it later).
  func featureCountForArchive() -> Int {
    var r = rng
    return 20 + Int(r.next() % 11) + 3
  }
}

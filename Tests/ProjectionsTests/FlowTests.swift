import Projections
import TestSupport
import Testing
import WallboardCore
import ZoneFiles

@Suite("Cumulative flow and throughput")
struct FlowTests {
  typealias M = Make

  static func flow(
    _ events: [Event], at: String, days: Int = 14, zone: Zone = .utc, settings: BoardSettings = BoardSettings()
  ) -> (Flow, BoardState) {
    let s = M.state(events, from: BoardState(settings: settings))
    return (Flow.compute(state: s, sprint: s.activeSprint(), at: M.t(at), zone: zone, days: days), s)
  }

  static func count(_ f: Flow, _ state: String, day: Int) -> Int {
    f.days[day].counts[f.states.firstIndex { $0.id == state }!]
  }

  @Test func workedExampleCountsEachDayAtItsEnd() {
    let (f, _) = Self.flow(
      [
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("A"))),
        M.event("2026-11-02T10:00:00Z", .featureCreated(M.feature("B"))),
        M.status("2026-11-03T11:00:00Z", "A", "in-progress"),
        M.status("2026-11-04T12:00:00Z", "A", "done"),
        M.event("2026-11-04T13:00:00Z", .featureCreated(M.feature("C", status: "done"))),
        M.status("2026-11-05T08:00:00Z", "B", "in-progress"),
      ], at: "2026-11-05T12:00:00Z", days: 5)
    #expect(f.days.map(\.date.description) == ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"])
    #expect(f.states.map(\.id) == Workflow.seed.states.map(\.id))
    #expect(f.days.map { $0.counts.reduce(0, +) } == [0, 2, 2, 3, 3])
    #expect((0..<5).map { Self.count(f, "todo", day: $0) } == [0, 2, 1, 1, 0])
    #expect((0..<5).map { Self.count(f, "in-progress", day: $0) } == [0, 0, 1, 0, 1])
    #expect((0..<5).map { Self.count(f, "done", day: $0) } == [0, 0, 0, 2, 2])
    // C was created done: nobody saw it enter done, so it is not throughput.
    #expect(f.days.map(\.done) == [0, 0, 0, 1, 0])
    #expect(f.throughput == 1)
    // History begins on the 2nd: four known days.
    #expect(f.firstKnownDay == 1)
    #expect(f.throughputPerDay == 0.25)
  }

  @Test func daysEndAtLocalMidnight() throws {
    let berlin = try #require(Zone("Europe/Berlin"))
    let events = [
      M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("A"))),
      // 23:30 UTC on the 3rd is 00:30 on the 4th in Berlin.
      M.status("2026-11-03T23:30:00Z", "A", "done"),
    ]
    let (utc, _) = Self.flow(events, at: "2026-11-05T12:00:00Z", days: 3)
    let (local, _) = Self.flow(events, at: "2026-11-05T12:00:00Z", days: 3, zone: berlin)
    #expect(utc.days.map(\.done) == [1, 0, 0])
    #expect(local.days.map(\.done) == [0, 1, 0])
    #expect(Self.count(utc, "done", day: 0) == 1)
    #expect(Self.count(local, "done", day: 0) == 0)
    // Today is the date of `at` in the zone: 23:30 UTC on the 5th is the 6th in Berlin.
    let (late, _) = Self.flow(events, at: "2026-11-05T23:30:00Z", days: 1, zone: berlin)
    #expect(late.days.map(\.date.description) == ["2026-11-06"])
  }

  @Test(arguments: [(0, 1), (1, 1), (14, 14), (90, 90), (91, 90), (-5, 1), (Int.max, 90)])
  func windowIsCapped(asked: Int, got: Int) {
    let (f, _) = Self.flow([], at: "2026-11-05T12:00:00Z", days: asked)
    #expect(f.days.count == got)
    #expect(f.days.last?.date == M.d("2026-11-05"))
    #expect(f.throughput == 0 && f.throughputPerDay == 0)
  }

  @Test func unknownAndAliasedStatesAreKeptAndLastDayIsTheTallies() {
    let (f, s) = Self.flow(
      [
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("A", status: "backlog"))),
        M.event("2026-11-02T09:01:00Z", .featureCreated(M.feature("B", status: "zeta"))),
        M.event("2026-11-02T09:02:00Z", .featureCreated(M.feature("C", status: "alpha"))),
        M.status("2026-11-03T09:00:00Z", "C", "done"),
        M.status("2026-11-03T10:00:00Z", "B", "documented"),
      ], at: "2026-11-04T12:00:00Z", days: 3, settings: BoardSettings(workflow: .upstream))
    // Upstream reads backlog as todo and documented as in-review: each keeps a column of its own,
    // as stored, right after that state (as the tallies do); zeta and alpha come last.
    #expect(
      f.states.map(\.id) == [
        "todo", "backlog", "in-progress", "in-testing", "in-docs", "in-review", "documented", "needs-edits", "done",
        "zeta", "alpha",
      ])
    #expect(f.states.suffix(2).allSatisfy { !$0.known })
    #expect(f.states[1].countsAs == "todo" && f.states[1].known && f.states[6].countsAs == "in-review")
    #expect(Self.count(f, "zeta", day: 0) == 1 && Self.count(f, "zeta", day: 2) == 0)
    #expect(Self.count(f, "documented", day: 2) == 1 && Self.count(f, "in-review", day: 2) == 0)
    #expect(Self.count(f, "backlog", day: 2) == 1 && Self.count(f, "todo", day: 2) == 0)
    // Moving from a state the workflow does not know into done is throughput.
    #expect(f.days.map(\.done) == [0, 1, 0])
    let tallies = Tally.compute(state: s, scope: BoardScope(state: s, sprint: nil))
    Self.expectLastDayIsTallies(f, tallies)
  }

  static func expectLastDayIsTallies(_ f: Flow, _ tallies: [Tally], _ note: Comment? = nil) {
    let today = Dictionary(uniqueKeysWithValues: f.today.map { ($0.state, $0.count) })
    for t in tallies { #expect(today[t.state] == t.count, "\(t.state) \(note?.description ?? "")") }
    // Nothing the tallies leave out holds a feature today.
    let listed = Set(tallies.map(\.state))
    #expect(f.today.allSatisfy { listed.contains($0.state) || $0.count == 0 }, note)
    // The tallies' states come in the same order.
    #expect(f.states.map(\.id).filter(listed.contains) == tallies.map(\.state), note)
  }

  @Test func aSprintCountsItsMembersAsTheyWereEachDay() {
    let sprint = M.sprint("s1", start: "2026-11-02", end: "2026-11-13")
    let (f, s) = Self.flow(
      [
        M.event("2026-11-01T09:00:00Z", .sprintCreated(sprint)),
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("A", labels: ["sprint:s1"]))),
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("B"))),
        M.event("2026-11-03T09:00:00Z", .featureUpdated(Self.labels("B", ["sprint:s1"]))),
        M.status("2026-11-04T09:00:00Z", "A", "done"),
        M.event("2026-11-04T10:00:00Z", .featureCreated(M.feature("C", status: "done"))),
      ], at: "2026-11-04T12:00:00Z", days: 3)
    #expect(f.days.map { $0.counts.reduce(0, +) } == [1, 2, 2])
    #expect(f.days.map(\.done) == [0, 0, 1])
    let tallies = Tally.compute(state: s, scope: BoardScope(state: s, sprint: s.activeSprint()))
    Self.expectLastDayIsTallies(f, tallies)
  }

  static func labels(_ id: String, _ labels: [String]) -> FeaturePatch {
    var p = FeaturePatch(id: id)
    p.labels = labels
    return p
  }

  @Test func aDeletedFeatureWhoseHistoryIsKeptCountsUntilItsDeletion() {
    // A sprint refers to A, so the board keeps A's history after the delete.
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .sprintCreated(M.sprint("s1", start: "2026-10-01", end: "2026-10-10"))),
      M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("A", sprintId: "s1"))),
      M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("B"))),
      M.event("2026-11-03T12:00:00Z", .featureDeleted(id: "A")),
    ])
    let f = Flow.compute(state: s, sprint: nil, at: M.t("2026-11-04T12:00:00Z"), zone: .utc, days: 3)
    #expect(f.days.map { $0.counts.reduce(0, +) } == [2, 1, 1])
  }

  // MARK: - Properties

  /// One thing that happened to a feature in the model: its status, or nil once deleted.
  struct Move {
    var at: Instant
    var id: String
    var status: String?
  }

  /// Random creations, moves, deletes and re-creations, strictly later one after the other.
  static func randomBoard(seed: UInt64) -> (events: [Event], moves: [Move], end: Instant) {
    var rng = TestRandom(state: seed)
    let statuses = Workflow.seed.states.map(\.id) + ["zeta", "omega"]
    var t = M.t("2026-10-20T00:00:00Z").adding(seconds: Double(rng.below(86_400)))
    var alive: [String: String] = [:]
    var gone: [String] = []
    var events: [Event] = []
    var moves: [Move] = []
    var next = 0
    for _ in 0..<(20 + rng.below(120)) {
      t = t.adding(seconds: Double(60 + rng.below(12 * 3600)))
      let roll = rng.below(10)
      let time = t.rfc3339
      if alive.isEmpty || roll < 2 {
        let id: String
        if !gone.isEmpty && rng.below(3) == 0 {
          id = gone.remove(at: rng.below(gone.count))
        } else {
          next += 1
          id = "F\(next)"
        }
        let status = statuses[rng.below(statuses.count)]
        events.append(M.event(time, .featureCreated(M.feature(id, status: status))))
        alive[id] = status
        moves.append(Move(at: t, id: id, status: status))
      } else if roll == 2 {
        let id = alive.keys.sorted()[rng.below(alive.count)]
        events.append(M.event(time, .featureDeleted(id: id)))
        alive[id] = nil
        gone.append(id)
        moves.append(Move(at: t, id: id, status: nil))
      } else {
        let id = alive.keys.sorted()[rng.below(alive.count)]
        let status = statuses[rng.below(statuses.count)]
        guard status != alive[id] else { continue }
        events.append(M.status(time, id, status))
        alive[id] = status
        moves.append(Move(at: t, id: id, status: status))
      }
    }
    return (events, moves, t)
  }

  /// What the model says stood at `m`: each feature's status, from its moves since it was last
  /// deleted (the board forgets a deleted feature's history when no sprint refers to it).
  static func modelStatuses(_ moves: [Move], at m: Instant) -> [String: String] {
    let deletedLast = Dictionary(moves.filter { $0.status == nil }.map { ($0.id, $0.at) }, uniquingKeysWith: max)
    var out: [String: String] = [:]
    for mv in moves where mv.at <= m {
      if let d = deletedLast[mv.id], mv.at <= d { continue }
      out[mv.id] = mv.status
    }
    return out
  }

  static let zones = ["UTC", "Europe/Berlin", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"]

  @Test(arguments: 1...40)
  func countsMatchTheFeaturesThatExistedThenAndThroughputMatchesTheMoves(seed: UInt64) throws {
    let (events, moves, end) = Self.randomBoard(seed: seed)
    var rng = TestRandom(state: seed &* 31)
    let zone = try #require(Zone(Self.zones[rng.below(Self.zones.count)]))
    let days = 1 + rng.below(25)
    let at = end.adding(seconds: Double(rng.below(2 * 86_400)))
    let s = M.state(events)
    let f = Flow.compute(state: s, sprint: nil, at: at, zone: zone, days: days)
    let wf = Workflow.seed
    #expect(f.days.count == days)
    #expect(f.days.last?.date == zone.date(of: at))
    for (i, day) in f.days.enumerated() {
      let moment = i == f.days.count - 1 ? at : zone.endOfDay(day.date)
      let model = Self.modelStatuses(moves, at: moment).values
      #expect(day.counts.reduce(0, +) == model.count, "seed \(seed) \(day.date)")
      for (state, n) in zip(f.states, day.counts) {
        #expect(
          model.filter { (wf.state($0)?.id ?? $0) == state.id }.count == n, "seed \(seed) \(day.date) \(state.id)")
      }
    }
    Self.expectLastDayIsTallies(f, Tally.compute(state: s, scope: BoardScope(state: s, sprint: nil)), "seed \(seed)")

    // Throughput: per day, the features that moved from a state that is not done into a done one.
    let first = f.days[0].date
    var entered = Array(repeating: Set<String>(), count: days)
    var last: [String: String] = [:]
    let deletedLast = Dictionary(moves.filter { $0.status == nil }.map { ($0.id, $0.at) }, uniquingKeysWith: max)
    for mv in moves {
      defer { last[mv.id] = mv.status }
      guard let to = mv.status, let from = last[mv.id], mv.at <= at, wf.isDone(to), !wf.isDone(from) else { continue }
      if let d = deletedLast[mv.id], mv.at <= d { continue }
      let day = zone.date(of: mv.at).daysSinceEpoch - first.daysSinceEpoch
      if (0..<days).contains(day) { entered[day].insert(mv.id) }
    }
    #expect(f.days.map(\.done) == entered.map(\.count), "seed \(seed)")
    #expect(f.throughput == entered.map(\.count).reduce(0, +))
    let known = days - (f.firstKnownDay ?? 0)
    #expect(f.throughputPerDay == Double(f.throughput) / Double(max(1, known)))
  }

  @Test func theSprintlessTeamHasHistoryBeforeTheWindowAndThroughputInIt() {
    let at = M.t("2026-11-11T15:00:00Z")
    let s = SprintlessTeam.state(through: at)
    #expect(s.activeSprint() == nil)
    let f = Flow.compute(state: s, sprint: nil, at: at, zone: .utc, days: 14)
    #expect(f.firstKnownDay == 0)
    #expect(f.throughput > 5)
    #expect(f.states.last?.id == "parked")
    #expect(f.days.last!.counts.reduce(0, +) == s.features.count)
  }
}

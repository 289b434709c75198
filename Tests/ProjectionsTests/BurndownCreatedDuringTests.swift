import Projections
import TestSupport
import Testing
import WallboardCore

/// A declared sprint over a workspace whose work was created during it (`docs/burndown.md`,
/// "Committed and scope"): the commitment is what existed at the start, and every member created
/// later is scope added on its creation date — the same numbers for `inspect` and the chart.
@Suite("Burndown: work created during the sprint")
struct BurndownCreatedDuringTests {
  typealias M = Make

  /// Mon 2026-03-02 … Fri 2026-03-13, declared (its dates decide), members by label.
  static let sprint = Sprint(
    id: "s1", name: "Sprint 1", startDate: M.d("2026-03-02"), endDate: M.d("2026-03-13"), membershipLabel: "team",
    activation: .dates)

  /// A feature as a workspace reads it: its creation time, and a trail from it.
  static func feature(
    _ id: String, created: String?, status: String = "todo", points: Double, labels: [String] = ["team"]
  ) -> Feature {
    var f = M.feature(id, status: status, points: points, labels: labels)
    f.createdAt = created.map(M.t)
    return f
  }

  /// The declared sprint first, then one workspace snapshot at `read` with `features` and their trails.
  static func state(read: String, _ features: [Feature], history: [FeatureKey: [StatusMove]]) -> BoardState {
    M.state([
      M.event(read, .boardSnapshot(BoardSnapshot(sprints: [sprint])), origin: "declared"),
      M.event(read, .boardSnapshot(BoardSnapshot(features: features, history: history)), origin: "orchestra-db:/ws"),
    ])
  }

  static func moves(_ pairs: (String, String)...) -> [StatusMove] {
    pairs.map { StatusMove(at: M.t($0.0), status: $0.1) }
  }

  /// committed + the deltas of the scope changes dated up to a day = that day's scope, on every
  /// day the board knows; and the scope changes are exactly the chart's scope steps.
  static func expectConsistent(_ b: Burndown, _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    for (d, scope) in zip(b.days, b.scope) {
      guard let scope else { continue }
      let moved = b.scopeChanges.filter { $0.date <= d }.map(\.delta).reduce(0, +)
      #expect(
        abs(b.committed + moved - scope) < 1e-9,
        "\(note) \(d): committed \(b.committed) + \(moved) ≠ scope \(scope); \(b.scopeChanges)",
        sourceLocation: sourceLocation)
    }
    let scopeSteps = b.steps.filter { $0.kind != .burn }
    #expect(
      scopeSteps.map { "\($0.at) \($0.feature) \($0.scopeDelta) \($0.kind)" }
        == b.scopeChanges.map { "\($0.at) \($0.feature) \($0.delta) \($0.kind)" },
      "\(note): the chart's scope steps are the scope changes", sourceLocation: sourceLocation)
    if b.stepsFrom >= b.startMoment, b.todayIndex != nil {
      #expect(
        b.startScope == b.committed, "\(note): the chart starts from the commitment", sourceLocation: sourceLocation)
    }
    #expect(b.ideal.first.map { $0 <= b.committed } ?? true, sourceLocation: sourceLocation)
  }

  @Test func workCreatedAfterTheStartIsScopeAddedNotCommitted() throws {
    // 42 points, all created on Sat 03-07, five days into the sprint; two of them done since.
    let ids = ["A", "B", "C", "D", "E", "F"]
    var features = ids.map { Self.feature($0, created: "2026-03-07T10:00:00Z", points: 7) }
    features[0].status = "done"
    features[1].status = "done"
    var history: [FeatureKey: [StatusMove]] = [:]
    for f in features { history[f.key] = Self.moves(("2026-03-07T10:00:00Z", "todo")) }
    history["A"]! += Self.moves(("2026-03-09T11:00:00Z", "done"))
    history["B"]! += Self.moves(("2026-03-10T09:00:00Z", "done"))
    let s = Self.state(read: "2026-03-10T12:00:00Z", features, history: history)
    let b = Burndown.compute(state: s, sprint: Self.sprint, at: M.t("2026-03-10T12:00:00Z"), boardZone: .utc)

    #expect(b.committed == 0, "nothing existed when the sprint started")
    #expect(b.ideal.allSatisfy { $0 == 0 }, "the guideline starts from the commitment")
    #expect(b.scopeChanges.map(\.kind) == Array(repeating: .added, count: 6))
    #expect(b.scopeChanges.allSatisfy { $0.date == M.d("2026-03-07") && $0.delta == 7 })
    #expect(b.scope == [0, 0, 0, 0, 0, 42, 42, 42, 42, nil, nil, nil], "the days before are known: empty")
    #expect(b.remaining == [0, 0, 0, 0, 0, 42, 42, 35, 28, nil, nil, nil])
    #expect(b.stepsFrom == b.startMoment)
    #expect(b.startScope == 0)
    #expect(b.steps.filter { $0.kind == .added }.map(\.at) == Array(repeating: M.t("2026-03-07T10:00:00Z"), count: 6))
    Self.expectConsistent(b)
  }

  @Test func theCommitmentIsWhatExistedAtTheStart() throws {
    // A, B created before the start (committed); C created on Wed 03-04 (added); D created done on
    // Thu 03-05: added and completed at once, so the remaining work does not move.
    let features = [
      Self.feature("A", created: "2026-02-20T09:00:00Z", points: 3),
      Self.feature("B", created: "2026-02-27T09:00:00Z", points: 5),
      Self.feature("C", created: "2026-03-04T15:00:00Z", points: 2),
      Self.feature("D", created: "2026-03-05T10:00:00Z", status: "done", points: 8),
      Self.feature("X", created: "2026-03-03T10:00:00Z", points: 13, labels: ["other"]),
    ]
    let history: [FeatureKey: [StatusMove]] = [
      "A": Self.moves(("2026-02-20T09:00:00Z", "todo")),
      "B": Self.moves(("2026-02-27T09:00:00Z", "todo")),
      "C": Self.moves(("2026-03-04T15:00:00Z", "todo")),
      "D": Self.moves(("2026-03-05T10:00:00Z", "done")),
      "X": Self.moves(("2026-03-03T10:00:00Z", "todo")),
    ]
    let s = Self.state(read: "2026-03-06T12:00:00Z", features, history: history)
    let b = Burndown.compute(state: s, sprint: Self.sprint, at: M.t("2026-03-06T12:00:00Z"), boardZone: .utc)

    #expect(b.committed == 8)
    #expect(
      b.scopeChanges.map { "\($0.date) \($0.featureId) \($0.delta) \($0.kind)" } == [
        "2026-03-04 C 2.0 added", "2026-03-05 D 8.0 added",
      ])
    #expect(b.scope.prefix(5) == [8, 8, 10, 18, 18])
    #expect(b.completed.prefix(5) == [0, 0, 0, 8, 8], "D counts as completed from its creation")
    #expect(b.remaining.prefix(5) == [8, 8, 10, 10, 10], "created done: added and burned at once")
    let d = try #require(b.steps.first { $0.feature == "D" })
    #expect(d.kind == .added && d.scopeDelta == 8 && d.completedDelta == 8 && d.remainingDelta == 0)
    Self.expectConsistent(b)
  }

  @Test func aMemberWithoutACreationTimeCountsAsExistingAtTheStart() throws {
    // Read on Thu 03-05 with no creation time and no trail: known from then, counted as committed;
    // the days before the board's first record stay unknown.
    let features = [
      Self.feature("A", created: nil, points: 3), Self.feature("B", created: nil, status: "done", points: 5),
      Self.feature("C", created: "2026-03-05T09:00:00Z", points: 2),
    ]
    let history: [FeatureKey: [StatusMove]] = ["C": Self.moves(("2026-03-05T09:00:00Z", "todo"))]
    let s = Self.state(read: "2026-03-05T10:00:00Z", features, history: history)
    let b = Burndown.compute(state: s, sprint: Self.sprint, at: M.t("2026-03-06T12:00:00Z"), boardZone: .utc)

    #expect(b.committed == 8)
    #expect(b.scopeChanges.map { "\($0.featureId) \($0.delta) \($0.kind)" } == ["C 2.0 added"])
    #expect(b.scope.prefix(5) == [nil, nil, nil, 10, 10])
    #expect(b.remaining.prefix(5) == [nil, nil, nil, 5, 5])
    #expect(b.stepsFrom == M.t("2026-03-05T09:00:00Z"), "the board's knowledge begins with C's creation")
    Self.expectConsistent(b)
  }

  /// Sprints of random features — created before or during the sprint, by events or read from
  /// a workspace snapshot with or without a creation time — estimated, moved, relabelled and
  /// deleted: the numbers always add up.
  @Test(arguments: 1...40)
  func committedPlusTheScopeChangesIsTheScopeEveryDay(seed: Int) throws {
    var r = TestRandom(state: UInt64(seed) &* 0x9E37_79B9)
    let start = M.t("2026-03-02T00:00:00Z")
    let hour = 3_600.0
    var events: [(Instant, Event.Body, String)] = []
    var snapshot: [Feature] = []
    var trails: [FeatureKey: [StatusMove]] = [:]
    let statuses = ["todo", "in-progress", "in-review", "done", "rejected"]
    for n in 0..<Int(4 + r.next() % 10) {
      let id = "F\(n)"
      let created = start.adding(seconds: hour * (Double(r.next() % 300) - 120))
      let points = Double(r.next() % 9)
      let labels = r.next() % 4 == 0 ? ["other"] : ["team"]
      let status = statuses[Int(r.next() % 5)]
      if r.next() % 2 == 0 {
        // Read from the workspace at its end: a creation time (or none), a trail (or none).
        var f = Self.feature(id, created: nil, status: status, points: points, labels: labels)
        if r.next() % 4 != 0 { f.createdAt = created }
        if f.createdAt != nil && r.next() % 3 != 0 {
          trails[f.key] = [
            StatusMove(at: created, status: "todo"),
            StatusMove(at: created.adding(seconds: hour * Double(1 + r.next() % 60)), status: status),
          ]
        }
        snapshot.append(f)
        continue
      }
      var f = Self.feature(id, created: nil, status: "todo", points: points, labels: labels)
      if r.next() % 3 == 0 { f.createdAt = created }
      events.append((created, .featureCreated(f), "jsonl:/events"))
      var t = created
      for _ in 0..<Int(r.next() % 5) {
        t = t.adding(seconds: hour * Double(1 + r.next() % 40))
        var p = FeaturePatch(id: id)
        switch r.next() % 4 {
        case 0: p.status = statuses[Int(r.next() % 5)]
        case 1: p.points = Double(r.next() % 9)
        case 2: p.labels = r.next() % 2 == 0 ? ["team"] : ["other"]
        default: p.status = "done"
        }
        events.append((t, .featureUpdated(p), "jsonl:/events"))
      }
      if r.next() % 6 == 0 {
        events.append((t.adding(seconds: hour * 5), .featureDeleted(id: id), "jsonl:/events"))
      }
    }
    let read = start.adding(seconds: hour * 24 * Double(2 + r.next() % 9))
    events.append((read, .boardSnapshot(BoardSnapshot(features: snapshot, history: trails)), "orchestra-db:/ws"))
    events.sort { $0.0 < $1.0 }
    var s = BoardState()
    Reducer.reduce(
      into: &s, Event(origin: "declared", time: start, body: .boardSnapshot(BoardSnapshot(sprints: [Self.sprint]))))
    for (t, body, origin) in events { Reducer.reduce(into: &s, Event(origin: origin, time: t, body: body)) }
    for day in [1, 4, 8, 11, 15] {
      let at = start.adding(seconds: hour * (24 * Double(day) + 13))
      let b = Burndown.compute(state: s, sprint: Self.sprint, at: at, boardZone: .utc)
      Self.expectConsistent(b, "seed \(seed) at \(at)")
      // The steps end where the daily series does.
      if let today = b.todayIndex, let remaining = b.remaining[today] {
        let last = b.steps.last.map(\.remaining) ?? (b.startScope - b.startCompleted)
        #expect(abs(last - remaining) < 1e-9, "seed \(seed) at \(at)")
      }
      // A member created after the start and a member at `at` came in as scope added.
      for (key, h) in s.history {
        guard let created = s.features[key]?.createdAt, created > b.startMoment,
          let first = h.versions.first, first.at > b.startMoment,
          let now = h.version(atOrBefore: at), now.exists, now.sprints.contains(Self.sprint.id)
        else { continue }
        #expect(
          b.scopeChanges.contains { $0.feature == key && $0.kind == .added && $0.at >= min(created, first.at) },
          "seed \(seed) at \(at): \(key), created \(created), is scope added")
      }
    }
  }
}

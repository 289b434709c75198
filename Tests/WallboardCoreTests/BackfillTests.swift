import TestSupport
import Testing
import WallboardCore

/// A snapshot's `history`: a feature's past, written before what the board knows of it.
@Suite("The reducer: history backfilled from a snapshot")
struct BackfillTests {
  typealias M = Make

  static func moves(_ pairs: [(String, String)]) -> [StatusMove] {
    pairs.map { StatusMove(at: M.t($0.0), status: $0.1) }
  }

  static func version(
    _ at: String, _ status: String, points: Double? = 2, sprints: [String] = ["s1"]
  )
    -> FeatureVersion
  {
    FeatureVersion(at: M.t(at), status: status, points: points, sprints: sprints, exists: true)
  }

  static let a = M.feature("A", status: "done", estimate: "M", labels: ["sprint:s1"])
  static let b = M.feature("B", status: "in-progress", estimate: "M", labels: ["sprint:s1"])
  static let c = M.feature("C", status: "todo", estimate: "M")

  /// The workspace's snapshot at `at`, with (or without) the trail's past.
  static func snapshot(_ at: String, history: Bool = true) -> Event {
    M.event(
      at,
      .boardSnapshot(
        BoardSnapshot(
          features: [a, b, c],
          history: history
            ? [
              "A": moves([
                ("2026-11-02T09:00:00Z", "todo"), ("2026-11-03T10:00:00Z", "in-review"),
                ("2026-11-04T15:00:00Z", "done"),
              ]),
              "B": moves([("2026-11-02T09:00:00Z", "todo"), ("2026-11-05T09:00:00Z", "in-progress")]),
              // After the snapshot's moment: never written (the present is the snapshot's).
              "C": moves([("2026-11-09T00:00:00Z", "in-progress")]),
            ] : [:])),
      origin: "orchestra-db:/ws.db")
  }

  static let backfilled: [FeatureKey: FeatureHistory] = [
    "A": FeatureHistory(versions: [
      version("2026-11-02T09:00:00Z", "todo"), version("2026-11-03T10:00:00Z", "in-review"),
      version("2026-11-04T15:00:00Z", "done"),
    ]),
    "B": FeatureHistory(versions: [
      version("2026-11-02T09:00:00Z", "todo"), version("2026-11-05T09:00:00Z", "in-progress"),
    ]),
    "C": FeatureHistory(versions: [version("2026-11-06T12:00:00Z", "todo", sprints: [])]),
  ]

  @Test func theFirstSnapshotWritesThePastBeforeThePresent() {
    let s = M.state([Self.snapshot("2026-11-06T12:00:00Z")])
    // The last backfilled state is the present one: no second version at the snapshot's time.
    #expect(s.history == Self.backfilled)
    #expect(s.origins["orchestra-db:/ws.db"]?.historyFrom == M.t("2026-11-02T09:00:00Z"))
    // Everything else is what the same snapshot without a past gives.
    var plain = M.state([Self.snapshot("2026-11-06T12:00:00Z", history: false)])
    #expect(plain.origins["orchestra-db:/ws.db"]?.historyFrom == M.t("2026-11-06T12:00:00Z"))
    #expect(plain.features == s.features)
    #expect(plain.counters == s.counters)
    #expect(plain.history["A"]?.versions == [Self.version("2026-11-06T12:00:00Z", "done")])
    // …and that state, given the past by a later snapshot, knows it from then (nothing rewritten).
    Reducer.reduce(into: &plain, Self.snapshot("2026-11-07T12:00:00Z"))
    #expect(plain.history["A"]?.versions.map(\.status) == ["todo", "in-review", "done", "done"])
    #expect(plain.history["A"]?.versions.last == Self.version("2026-11-06T12:00:00Z", "done"))
    #expect(plain.origins["orchestra-db:/ws.db"]?.historyFrom == M.t("2026-11-02T09:00:00Z"))
  }

  @Test func aSecondSnapshotWithThePastNeitherDuplicatesNorRewrites() {
    let twice = M.state([Self.snapshot("2026-11-06T12:00:00Z"), Self.snapshot("2026-11-07T12:00:00Z")])
    let once = M.state([
      Self.snapshot("2026-11-06T12:00:00Z"), Self.snapshot("2026-11-07T12:00:00Z", history: false),
    ])
    #expect(twice == once)
    #expect(twice.history == Self.backfilled)
  }

  @Test func liveEventsComeAfterThePast() {
    let s = M.state([
      Self.snapshot("2026-11-06T12:00:00Z"),
      M.event(
        "2026-11-06T13:00:00Z", .featureUpdated(FeaturePatch(id: "B", status: "in-review")),
        origin: "orchestra-db:/ws.db"),
    ])
    var expected = Self.backfilled
    expected["B"] = FeatureHistory(
      versions: expected["B"]!.versions + [Self.version("2026-11-06T13:00:00Z", "in-review")])
    #expect(s.history == expected)
  }

  @Test func aFeatureTheBoardKnewGetsOnlyTheOlderPast() {
    // B was known from a live event at 11-04T12:00 (on), before the workspace's snapshot.
    let s = M.state([
      M.event("2026-11-04T12:00:00Z", .featureCreated(Self.b), origin: "orchestra-db:/ws.db"),
      Self.snapshot("2026-11-06T12:00:00Z"),
    ])
    #expect(
      s.history["B"]?.versions == [
        Self.version("2026-11-02T09:00:00Z", "todo"), Self.version("2026-11-04T12:00:00Z", "in-progress"),
      ])
  }

  @Test func theVersionsCapHoldsTheNewestMovesAndRoomForThePresent() {
    var settings = BoardSettings()
    settings.limits.maxVersionsPerFeature = 4
    let many = (0..<10).map { i in
      StatusMove(at: M.t("2026-11-01T0\(i):00:00Z"), status: i % 2 == 0 ? "todo" : "in-progress")
    }
    let s = M.state(
      [M.event("2026-11-20T00:00:00Z", .boardSnapshot(BoardSnapshot(features: [Self.a], history: ["A": many])))],
      from: BoardState(settings: settings))
    let versions = s.history["A"]?.versions ?? []
    #expect(versions.count == 4)
    #expect(versions.dropLast().map(\.at) == many.suffix(3).map(\.at))
    #expect(versions.last == Self.version("2026-11-20T00:00:00Z", "done"))
  }
}

import TestSupport
import Testing
import WallboardCore

/// A snapshot's changes are dated when they happened in the data, not when it was read.
@Suite("Snapshot times are the data's")
struct SnapshotTimesTests {
  typealias M = Make

  static func snapshot(_ time: String, _ features: [Feature], history: [FeatureKey: [StatusMove]] = [:]) -> Event {
    M.event(time, .boardSnapshot(BoardSnapshot(features: features, history: history)), origin: "ws")
  }

  static func feature(_ id: String, _ status: String, updated: String) -> Feature {
    var f = M.feature(id, status: status, projectId: "shop")
    f.updatedAt = M.t(updated)
    return f
  }

  @Test func aStatusChangedBetweenSnapshotsIsDatedByTheFeaturesUpdatedAt() {
    var s = BoardState()
    Reducer.reduce(
      into: &s, Self.snapshot("2026-03-02T10:00:00Z", [Self.feature("A", "todo", updated: "2026-03-02T10:00:00Z")]))
    // Read again later (a restart): A moved on 9 March, the store's newest change is 10 March.
    Reducer.reduce(
      into: &s,
      Self.snapshot(
        "2026-03-10T08:00:00Z",
        [
          Self.feature("A", "in-progress", updated: "2026-03-09T14:30:00Z"),
          Self.feature("B", "todo", updated: "2026-03-10T08:00:00Z"),
        ]))
    #expect(s.recent.map(\.at) == [M.t("2026-03-09T14:30:00Z")])
    #expect(s.recent.map(\.to) == ["in-progress"])
    #expect(s.origins["ws"]?.lastChangeAt == M.t("2026-03-10T08:00:00Z"))
  }

  @Test func theFirstSnapshotsBackfilledMovesAreTheRecentChangesByTime() {
    var s = BoardState()
    let a = FeatureKey(project: "shop", id: "A")
    let b = FeatureKey(project: "shop", id: "B")
    // Something this board heard live before, from another source, in between the moves.
    Reducer.reduce(into: &s, M.event("2026-03-05T00:00:00Z", .featureCreated(M.feature("X")), origin: "other"))
    Reducer.reduce(
      into: &s,
      Self.snapshot(
        "2026-03-09T14:30:00Z",
        [
          Self.feature("A", "done", updated: "2026-03-06T16:00:00Z"),
          Self.feature("B", "in-testing", updated: "2026-03-09T14:30:00Z"),
        ],
        history: [
          a: [
            StatusMove(at: M.t("2026-03-02T09:00:00Z"), status: "in-progress"),
            StatusMove(at: M.t("2026-03-06T16:00:00Z"), status: "done"),
          ],
          b: [
            StatusMove(at: M.t("2026-03-03T09:00:00Z"), status: "todo"),
            StatusMove(at: M.t("2026-03-09T14:30:00Z"), status: "in-testing"),
          ],
        ]))
    #expect(
      s.recent.map { "\($0.featureId) \($0.from ?? "-")→\($0.to) \($0.at.rfc3339)" } == [
        "A -→in-progress 2026-03-02T09:00:00Z",
        "B -→todo 2026-03-03T09:00:00Z",
        "X -→todo 2026-03-05T00:00:00Z",
        "A in-progress→done 2026-03-06T16:00:00Z",
        // The move at the snapshot's own time is the present version's.
        "B todo→in-testing 2026-03-09T14:30:00Z",
      ])
    // A second read of the same store tells nothing new.
    let before = s.recent
    Reducer.reduce(
      into: &s,
      Self.snapshot(
        "2026-03-09T14:30:00Z",
        [
          Self.feature("A", "done", updated: "2026-03-06T16:00:00Z"),
          Self.feature("B", "in-testing", updated: "2026-03-09T14:30:00Z"),
        ],
        history: [a: [StatusMove(at: M.t("2026-03-02T09:00:00Z"), status: "in-progress")]]))
    #expect(s.recent == before)
  }
}

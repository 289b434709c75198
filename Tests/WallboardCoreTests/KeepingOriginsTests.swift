import TestSupport
import Testing
import WallboardCore

/// A restored board kept to the sources running now (`BoardState.keeping`), and declared
/// sprints declared anew over another source's features (issue 20, item 8).
@Suite("Keeping a restored board to its running sources")
struct KeepingOriginsTests {
  typealias M = Make

  static func declared(_ time: String, _ sprints: [Sprint]) -> Event {
    M.event(time, .boardSnapshot(BoardSnapshot(sprints: sprints)), origin: "declared")
  }

  static func created(_ time: String, _ f: Feature, origin: String, seq: Int64) -> Event {
    M.event(time, .featureCreated(f), seq: seq, origin: origin, publisher: origin)
  }

  /// The sprints a feature's history says it is in at `t`: what the burndown reads.
  static func sprints(_ s: BoardState, _ id: String, at t: String) -> [String] {
    s.history[FeatureKey(id: id)]?.version(atOrBefore: M.t(t))?.sprints ?? []
  }

  static var board: BoardState {
    M.state([
      Self.declared(
        "2026-11-02T08:00:00Z", [M.sprint("s9", start: "2026-11-02", end: "2026-11-13", members: ["A", "X"])]),
      Self.created("2026-11-02T09:00:00Z", M.feature("A", points: 3), origin: "a", seq: 1),
      Self.created("2026-11-02T09:00:00Z", M.feature("X", points: 5), origin: "b", seq: 1),
      M.event("2026-11-03T09:00:00Z", .featureUpdated(FeaturePatch(id: "X", status: "done")), origin: "b"),
    ])
  }

  @Test func everyOriginRunningKeepsTheBoardAsItIs() {
    #expect(Self.board.keeping(origins: ["a", "b", "declared"], at: M.t("2026-11-04T00:00:00Z")) == nil)
  }

  @Test func aSourceNotRunningLeavesWithItsFeaturesTheirHistoryAndItsRecord() throws {
    let kept = try #require(Self.board.keeping(origins: ["a", "declared"], at: M.t("2026-11-04T00:00:00Z")))
    #expect(Array(kept.features.keys) == [FeatureKey(id: "A")])
    #expect(kept.history[FeatureKey(id: "X")] == nil)
    #expect(Set(kept.origins.keys) == ["a", "declared"])
    #expect(!kept.recent.contains { $0.featureId == "X" })
    #expect(kept.lastEventTime == M.t("2026-11-02T09:00:00Z"), "the latest event of the sources left")
    // The sprint stays, with the member that is left.
    #expect(kept.sprints["s9"] != nil)
    #expect(Self.sprints(kept, "A", at: "2026-11-05T00:00:00Z") == ["s9"])
  }

  @Test func sprintsNoLongerDeclaredGoAndTheirMembersHistorySaysSoFromThen() throws {
    let kept = try #require(Self.board.keeping(origins: ["a", "b"], at: M.t("2026-11-04T00:00:00Z")))
    #expect(kept.sprints.isEmpty && kept.sprintOrder.isEmpty)
    #expect(kept.origins["declared"] == nil)
    #expect(kept.features.count == 2)
    #expect(Self.sprints(kept, "A", at: "2026-11-03T00:00:00Z") == ["s9"], "what was, was")
    #expect(Self.sprints(kept, "A", at: "2026-11-04T00:00:00Z") == [])
    #expect(Self.sprints(kept, "X", at: "2026-11-04T00:00:00Z") == [])
  }

  /// A declared sprint whose list changed records the members it gained and lost, though they
  /// are another source's features, which its snapshot does not carry.
  @Test func aChangedDeclaredListMovesTheHistoryOfItsMembers() {
    let s = M.state(
      [Self.declared("2026-11-04T00:00:00Z", [M.sprint("s9", start: "2026-11-02", end: "2026-11-13", members: ["X"])])],
      from: Self.board)
    #expect(Self.sprints(s, "A", at: "2026-11-04T00:00:00Z") == [])
    #expect(Self.sprints(s, "X", at: "2026-11-04T00:00:00Z") == ["s9"])
    #expect(Self.sprints(s, "A", at: "2026-11-03T00:00:00Z") == ["s9"], "before the change A was in")
    // Declared no more by a later snapshot of its own: nobody is in it from then on.
    let none = M.state([Self.declared("2026-11-05T00:00:00Z", [])], from: s)
    #expect(Self.sprints(none, "X", at: "2026-11-05T00:00:00Z") == [])
  }
}

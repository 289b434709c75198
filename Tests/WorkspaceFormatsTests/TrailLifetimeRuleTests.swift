import TestSupport
import Testing
import WallboardCore
import WorkspaceFormats

/// Issue 21, item 9: an audit-trail date past the read's present (9999-12-31) or before the
/// feature was created is set aside and said, never a move that makes a feature done today.
@Suite("Audit trail: dates outside the feature's lifetime")
struct TrailLifetimeRuleTests {
  typealias M = Make
  typealias T = TrailText
  static let now = M.t("2026-03-20T00:00:00Z")
  static let created = M.t("2026-03-09T08:00:00Z")

  static func history(_ body: String, updated: String, status: String) -> AuditTrail.Backfill {
    AuditTrail.history(
      AuditTrail.parse(body), createdAt: created, updatedAt: M.t(updated), status: status, initialState: "todo",
      now: now)
  }

  @Test func aMoveDatedPastThePresentIsSetAsideAndUpdatedAtSaysWhenItWasDone() throws {
    let body =
      T.created + T.gated("in-progress", "in-review", "2026-03-10T12:00:00Z", "x")
      + T.review("approved", "9999-12-31T00:00:00Z", "far future")
    let h = Self.history(body, updated: "2026-03-12T09:00:00Z", status: "done")
    #expect(
      h.moves
        == BackfillRuleTests.moves([
          ("2026-03-09T08:00:00Z", "in-progress"), ("2026-03-10T12:00:00Z", "in-review"),
          ("2026-03-12T09:00:00Z", "done"),
        ]))
    #expect(h.moves.allSatisfy { $0.at < Self.now })
    #expect(
      h.outside == [
        AuditTrail.Outside(
          move: TrailMove(from: "in-review", to: "done", at: M.t("9999-12-31T00:00:00Z")), afterNow: true)
      ])
    let problem = try #require(h.problem(createdAt: Self.created, now: Self.now))
    #expect(problem.contains("9999-12-31T00:00:00Z"), "\(problem)")
    #expect(problem.contains("after the read (2026-03-20T00:00:00Z)"), "\(problem)")
    // The old entry point says the same moves.
    #expect(
      AuditTrail.backfill(
        body: body, createdAt: Self.created, updatedAt: M.t("2026-03-12T09:00:00Z"), status: "done",
        initialState: "todo", now: Self.now) == h.moves)
  }

  @Test func aMoveDatedBeforeTheFeatureWasCreatedIsSetAside() throws {
    let body =
      T.created + T.gated("in-progress", "done", "1970-01-01T00:00:00Z", "epoch")
      + T.gated("done", "in-review", "2026-03-01T10:00:00Z", "before creation")
    let h = Self.history(body, updated: "2026-03-15T09:00:00Z", status: "done")
    #expect(
      h.moves
        == BackfillRuleTests.moves([("2026-03-09T08:00:00Z", "in-progress"), ("2026-03-15T09:00:00Z", "done")]))
    #expect(h.outside.count == 2)
    let problem = try #require(h.problem(createdAt: Self.created, now: Self.now))
    #expect(problem.contains("1970-01-01T00:00:00Z") && problem.contains("and 1 more"), "\(problem)")
    #expect(problem.contains("before the feature was created (2026-03-09T08:00:00Z)"), "\(problem)")
  }

  @Test func withinASecondOfItsLifetimeAMoveIsClampedNotSetAside() {
    // created_at may carry fractions the trail's whole seconds round down from.
    let created = M.t("2026-03-09T08:00:00.600Z")
    let body = T.created + T.gated("todo", "in-progress", "2026-03-09T08:00:00Z", "same second")
    let h = AuditTrail.history(
      AuditTrail.parse(body), createdAt: created, updatedAt: M.t("2026-03-09T08:00:00Z"), status: "in-progress",
      initialState: "todo", now: Self.now)
    #expect(h.outside.isEmpty)
    #expect(h.moves == [StatusMove(at: created, status: "in-progress")])
    #expect(h.problem(createdAt: created, now: Self.now) == nil)
  }
}

import TestSupport
import Testing
import WallboardCore
import WorkspaceFormats

/// `AuditTrail.backfill`: from a body and its timestamps to the moves a board's history starts with.
@Suite("Audit trail: the backfill rule")
struct BackfillRuleTests {
  typealias M = Make
  typealias T = TrailText

  static let now = M.t("2026-03-20T00:00:00Z")

  static func moves(_ pairs: [(String, String)]) -> [StatusMove] {
    pairs.map { StatusMove(at: M.t($0.0), status: $0.1) }
  }

  static func backfill(
    _ body: String, created: String? = "2026-03-09T08:00:00Z", updated: String?, status: String,
    now: Instant = now
  ) -> [StatusMove] {
    AuditTrail.backfill(
      body: body, createdAt: created.map(M.t), updatedAt: updated.map(M.t), status: status, initialState: "todo",
      now: now)
  }

  @Test func aFeatureLifeFromItsTrail() {
    // Done at the approval; updated_at is the same second (a separate NowISO call).
    let moves = Self.backfill(AuditTrailTests.current, updated: "2026-03-11T10:00:00Z", status: "done")
    #expect(
      moves
        == Self.moves([
          // The first line starts from in-progress: `set_current_feature` wrote no line.
          ("2026-03-09T08:00:00Z", "in-progress"), ("2026-03-10T10:15:02Z", "in-testing"),
          ("2026-03-10T11:00:00Z", "in-docs"), ("2026-03-10T12:00:00Z", "in-review"),
          ("2026-03-10T13:00:00Z", "needs-edits"), ("2026-03-11T09:00:00Z", "in-testing"),
          ("2026-03-11T09:30:00Z", "in-review"), ("2026-03-11T10:00:00Z", "done"),
        ]))
  }

  @Test func withoutATrailTheInitialStateThenTheCurrentOneAtUpdatedAt() {
    #expect(
      Self.backfill(T.created, updated: "2026-03-12T09:00:00Z", status: "in-progress")
        == Self.moves([("2026-03-09T08:00:00Z", "todo"), ("2026-03-12T09:00:00Z", "in-progress")]))
    // Still in its first state: one move, at creation.
    #expect(
      Self.backfill(T.created, updated: "2026-03-12T09:00:00Z", status: "todo")
        == Self.moves([("2026-03-09T08:00:00Z", "todo")]))
  }

  @Test func anApprovalWithoutCommentWritesNoLineSoUpdatedAtSaysDone() {
    let body = T.created + T.gated("in-docs", "in-review", "2026-03-10T12:00:00Z", "## Docs\n- `docs/a.md`")
    #expect(
      Self.backfill(body, updated: "2026-03-13T16:00:00Z", status: "done")
        == Self.moves([
          ("2026-03-09T08:00:00Z", "in-docs"), ("2026-03-10T12:00:00Z", "in-review"), ("2026-03-13T16:00:00Z", "done"),
        ]))
  }

  @Test func untimedMovesGiveNoMomentButTheTimedOnesAfterThemCount() {
    let body =
      T.created + "\n\n---\n**todo -> in-progress**: go"
      + T.gated("in-progress", "in-testing", "2026-03-10T10:00:00Z", "x")
      + "\n\n---\n**in-testing -> in-review**: y"
    // The trail's last timed state is in-testing, the row says in-review: entered at updated_at.
    #expect(
      Self.backfill(body, updated: "2026-03-11T10:00:00Z", status: "in-review")
        == Self.moves([
          ("2026-03-09T08:00:00Z", "todo"), ("2026-03-10T10:00:00Z", "in-testing"),
          ("2026-03-11T10:00:00Z", "in-review"),
        ]))
  }

  @Test func timesNeverGoBackAndLinesOutsideTheLifetimeAreSetAside() {
    let body =
      T.created + T.gated("in-progress", "in-testing", "2026-03-01T10:00:00Z", "before creation")
      + T.gated("in-testing", "in-docs", "2026-03-12T10:00:00Z", "x")
      + T.gated("in-docs", "in-review", "2026-03-11T10:00:00Z", "clock went back")
      + T.review("approved", "2026-04-01T10:00:00Z", "after now")
    #expect(
      Self.backfill(body, updated: "2026-04-01T10:00:00Z", status: "done")
        == Self.moves([
          // The lines before creation and after now are set aside (issue 21, item 9); the row's
          // done is entered at updated_at, which is clamped to now.
          ("2026-03-09T08:00:00Z", "in-progress"), ("2026-03-12T10:00:00Z", "in-review"),
          ("2026-03-20T00:00:00Z", "done"),
        ]))
  }

  @Test func aTruncatedTrailSaysNothingAboutTheStart() {
    var body = T.created
    for _ in 0..<(AuditTrail.maxEntries + 1) { body += "\n\n---\n**todo -> in-progress**: x" }
    body += T.gated("in-progress", "in-testing", "2026-03-10T10:00:00Z", "x")
    #expect(
      Self.backfill(body, updated: "2026-03-10T10:00:00Z", status: "in-testing")
        == Self.moves([("2026-03-10T10:00:00Z", "in-testing")]))
  }

  @Test func withoutCreatedAtTheMovesBeginWithTheFirstTimedLine() {
    let body = T.created + T.rejected("in-review", "2026-03-10T13:00:00Z", "no")
    #expect(
      Self.backfill(body, created: nil, updated: "2026-03-11T09:00:00Z", status: "in-progress")
        == Self.moves([("2026-03-10T13:00:00Z", "needs-edits"), ("2026-03-11T09:00:00Z", "in-progress")]))
    #expect(Self.backfill("", created: nil, updated: nil, status: "todo") == [])
  }
}

import TestSupport
import Testing
import WallboardCore
import WorkspaceFormats

/// The audit trail in a feature's body (`orchestra-storage.md` §4), each generation built the way
/// its tools append it (`body += "\n\n---\n" + …`).
@Suite("Audit trail: every generation of the trail in a feature's body")
struct AuditTrailTests {
  typealias M = Make

  typealias T = TrailText

  static func move(_ from: String, _ to: String, _ ts: String?) -> TrailMove {
    TrailMove(from: from, to: to, at: ts.map(M.t))
  }

  /// A feature's life under tools ≥ v1.0.3, evidence in the shapes agents write.
  static let current =
    T.created
    + T.gated(
      "in-progress", "in-testing", "2026-03-10T10:15:02Z",
      "## Changes\n- `internal/svc/session.go`\n- **svc package** (internal/svc): a new store\n**Note:** no schema change"
    )
    + T.gated("in-testing", "in-docs", "2026-03-10T11:00:00Z", "## Results\n- `session_test.go`: 14 passed")
    + T.note("2026-03-10T11:30:00Z", "**in-docs -> done** (2026-03-10T11:30:00Z): not an entry, a note")
    + T.gated("in-docs", "in-review", "2026-03-10T12:00:00Z", "## Docs\n- `docs/login.md`")
    + T.rejected("in-review", "2026-03-10T13:00:00Z", "The error message is wrong")
    + T.gated("in-progress", "in-testing", "2026-03-11T09:00:00Z", "## Changes\n- `internal/svc/errors.go`")
    + T.skipped("in-testing", "in-review", "2026-03-11T09:30:00Z", kind: "bug")
    + T.review("approved", "2026-03-11T10:00:00Z", "Ship it")

  @Test func theCurrentGenerationIsReadInBodyOrder() {
    let parsed = AuditTrail.parse(Self.current)
    #expect(!parsed.truncated)
    #expect(
      parsed.moves == [
        Self.move("in-progress", "in-testing", "2026-03-10T10:15:02Z"),
        Self.move("in-testing", "in-docs", "2026-03-10T11:00:00Z"),
        Self.move("in-docs", "in-review", "2026-03-10T12:00:00Z"),
        Self.move("in-review", "needs-edits", "2026-03-10T13:00:00Z"),
        Self.move("in-progress", "in-testing", "2026-03-11T09:00:00Z"),
        Self.move("in-testing", "in-review", "2026-03-11T09:30:00Z"),
        Self.move("in-review", "done", "2026-03-11T10:00:00Z"),
      ])
  }

  @Test func versionOneZeroFreeMovesAndSelfReviews() {
    let body =
      T.created + T.gated("todo", "in-progress", "2026-03-02T09:00:00Z", "starting")
      + T.selfReview("in-progress", "2026-03-02T15:00:00Z", "## Summary\nAll done.")
      + T.review("needs-edits", "2026-03-03T09:00:00Z", "Missing tests")
      + T.gated("needs-edits", "in-progress", "2026-03-03T10:00:00Z", "addressing")
    #expect(
      AuditTrail.parse(body).moves == [
        Self.move("todo", "in-progress", "2026-03-02T09:00:00Z"),
        Self.move("in-progress", "in-review", "2026-03-02T15:00:00Z"),
        Self.move("in-review", "needs-edits", "2026-03-03T09:00:00Z"),
        Self.move("needs-edits", "in-progress", "2026-03-03T10:00:00Z"),
      ])
  }

  @Test func versionZeroOneEntriesHaveNoTime() {
    let body =
      T.created + "\n\n---\n**todo -> in-progress**: picked up" + "\n\n---\n**in-progress -> review**: PR #12"
      + "\n\n---\n**Rejected (review -> needs-edits)**: flaky test" + "\n\n---\n**Review (approved)**: fine"
    #expect(
      AuditTrail.parse(body).moves == [
        Self.move("todo", "in-progress", nil), Self.move("in-progress", "review", nil),
        Self.move("review", "needs-edits", nil), Self.move("in-review", "done", nil),
      ])
  }

  @Test(arguments: [
    // Evidence that starts lines with `**`, right under an entry or after a rule of its own.
    "\n\n---\n**svc package** (internal/svc): new\n",
    "\n\n---\n**Phase 2 -> 3** (2026-03-10T10:00:00Z): not states\n",
    "\n\n---\n**In-Progress -> Done** (2026-03-10T10:00:00Z): upper case\n",
    // A rule that does not follow a blank line (a setext heading), and one of four dashes.
    "\ntext\n---\n**todo -> done** (2026-03-10T10:00:00Z):\n",
    "\n\n----\n**todo -> done** (2026-03-10T10:00:00Z):\n",
    // An entry-shaped line that is not right after the separator.
    "\n\n---\nSee below.\n**todo -> done** (2026-03-10T10:00:00Z):\n",
    // Not quite the shape: no colon, a bad time, a time with no closing parenthesis, a rejection
    // that is not closed, a review of another kind, a state too long.
    "\n\n---\n**todo -> done** (2026-03-10T10:00:00Z)\n",
    "\n\n---\n**todo -> done** (2026-13-10T10:00:00Z):\n",
    "\n\n---\n**todo -> done** (2026-03-10T10:00:00Z:\n",
    "\n\n---\n**Rejected (in-review -> needs-edits** (2026-03-10T10:00:00Z):\n",
    "\n\n---\n**Review (maybe)** (2026-03-10T10:00:00Z):\n",
    "\n\n---\n**todo -> \(String(repeating: "x", count: 65))**:\n",
    // A note.
    "\n\n## Note (2026-03-10T10:00:00Z)\n\n---\n",
  ])
  func whatIsNotAnEntryIsNoMove(_ tail: String) {
    #expect(AuditTrail.parse(T.created + tail).moves == [], "\(tail.debugDescription)")
  }

  @Test func crlfLineEndsReadLikeLF() {
    let crlf = Self.current.replacingOccurrences(of: "\n", with: "\r\n")
    #expect(AuditTrail.parse(crlf) == AuditTrail.parse(Self.current))
    #expect(AuditTrail.parse(crlf).moves.count == 7)
  }

  @Test func aBodyCutAtAnyByteGivesAPrefixOfTheMoves() {
    let bytes = Array(Self.current.utf8)
    let all = AuditTrail.parse(Self.current).moves
    for n in 0...bytes.count {
      let moves = AuditTrail.parse(String(decoding: bytes[..<n], as: UTF8.self)).moves
      #expect(Array(all.prefix(moves.count)) == moves, "cut at \(n)")
    }
    #expect(AuditTrail.parse(String(decoding: bytes.dropLast(40), as: UTF8.self)).moves == Array(all.dropLast()))
  }

  @Test func aBodyPastTheCapIsReadFromItsEnd() {
    let filler = String(repeating: "lorem ipsum dolor sit amet\n", count: AuditTrail.maxBodyBytes / 27 + 10)
    let body =
      T.created + T.gated("in-progress", "in-testing", "2026-03-10T10:00:00Z", "old") + filler
      + T.gated("in-testing", "in-review", "2026-03-12T10:00:00Z", "new")
    let parsed = AuditTrail.parse(body)
    #expect(parsed.truncated)
    #expect(parsed.moves == [Self.move("in-testing", "in-review", "2026-03-12T10:00:00Z")])
  }

  @Test func atMostMaxEntriesTheNewestKept() {
    var body = T.created
    for i in 0..<(AuditTrail.maxEntries + 3) {
      body += i % 2 == 0 ? T.rejected("in-review", "2026-03-10T10:00:00Z", "\(i)") : "\n\n---\n**x -> y**: \(i)"
    }
    let parsed = AuditTrail.parse(body)
    #expect(parsed.truncated)
    #expect(parsed.moves.count == AuditTrail.maxEntries)
    #expect(parsed.moves.last == Self.move("in-review", "needs-edits", "2026-03-10T10:00:00Z"))
    #expect(parsed.moves.first == Self.move("x", "y", nil), "entries 0–2 dropped, entry 3 first")
  }

  @Test func aBodyWithoutTrailAndAnEmptyOne() {
    #expect(AuditTrail.parse(T.created) == AuditTrail.Parsed(moves: [], truncated: false))
    #expect(AuditTrail.parse("") == AuditTrail.Parsed(moves: [], truncated: false))
    // The first entry appended to an empty body, and a body that begins with its separator.
    #expect(AuditTrail.parse(T.review("approved", "2026-03-10T10:00:00Z", "ok")).moves.count == 1)
    #expect(AuditTrail.parse("---\n**todo -> done**: x").moves == [Self.move("todo", "done", nil)])
  }
}

extension AuditTrailTests {
  @Test(arguments: [
    "2026-03-10T10:15:02Z", "1970-01-01T00:00:00Z", "2028-02-29T23:59:59Z", "2026-03-10T10:15:02.250Z",
    "2026-03-10T12:15:02+02:00",
  ])
  func timestampsReadAsTheRFC3339Parser(_ ts: String) {
    #expect(AuditTrail.parse("\n\n---\n**a -> b** (\(ts)):").moves == [TrailMove(from: "a", to: "b", at: M.t(ts))])
  }

  @Test(arguments: ["2027-02-29T10:00:00Z", "2026-03-10T24:00:00Z", "2026-03-10T10:60:00Z", "1969-12-31T23:59:59Z"])
  func impossibleTimestampsAreNoEntry(_ ts: String) {
    #expect(AuditTrail.parse("\n\n---\n**a -> b** (\(ts)):").moves == [])
  }
}

extension AuditTrailTests {
  @Test func theEndOfALongerBodySkipsItsPartialFirstLine() {
    let cut =
      "---\n**todo -> in-progress** (2026-03-10T09:00:00Z):\n"
      + T.rejected("in-review", "2026-03-10T13:00:00Z", "no")
    #expect(AuditTrail.parse(cut).moves.count == 2)
    let tail = AuditTrail.parse(cut, tail: true)
    #expect(tail.truncated)
    #expect(tail.moves == [Self.move("in-review", "needs-edits", "2026-03-10T13:00:00Z")])
  }
}

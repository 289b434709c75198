public import WallboardCore

extension AuditTrail {
  /// The moves a board backfills a feature's history with, from its body's trail and its
  /// timestamps (the rule of `orchestra-storage.md` §4, refined):
  ///
  /// 1. From `createdAt` the feature was in `initialState` — or, when its first trail move starts
  ///    from another state, in that state: the move into it (`todo → in-progress`,
  ///    `set_current_feature`) writes no line, so the first line's `from` is the best the trail
  ///    says about the start. A truncated trail (`Parsed.truncated`) says nothing about the
  ///    start: then there is no move at `createdAt`.
  /// 2. Each timestamped move `→ S` enters S at its time; `Review (approved)` enters `done`.
  /// 3. Moves without a time (v0.1) give no moment: they are skipped, and the moves after them
  ///    still come in body order.
  /// 4. The current status from `updatedAt`: when the last state entered differs from `status`
  ///    (a move that writes no line, an untimed one, an edit by hand), `status` is entered at
  ///    `updatedAt`.
  /// 5. A timestamped move dated outside the feature's lifetime — after `now` (a 9999-12-31 typed
  ///    by hand, a clock far ahead) or before `createdAt` — is set aside like an untimed one
  ///    (`Backfill.outside`, which the source reports): clamped into the lifetime it would make
  ///    the feature enter its state *now* (done "today") or at its creation, which the trail does
  ///    not say. Within `lifetimeSlack` of either end it is clamped instead (whole seconds against
  ///    a `created_at` with fractions).
  /// 6. Times are clamped: never before `createdAt`, never before the previous move, never after
  ///    `now`. Moves at one moment keep the last; a move into the state the feature is in is
  ///    dropped.
  ///
  /// Without `createdAt` the moves begin with the first timestamped line (or `updatedAt`).
  public static func backfill(
    _ trail: Parsed, createdAt: Instant?, updatedAt: Instant?, status: String, initialState: String, now: Instant
  ) -> [StatusMove] {
    history(trail, createdAt: createdAt, updatedAt: updatedAt, status: status, initialState: initialState, now: now)
      .moves
  }

  /// How far outside the feature's lifetime a move may be dated and still be clamped into it.
  public static let lifetimeSlack = 1.0

  /// What `backfill` makes of a trail, with the moves it set aside.
  public struct Backfill: Hashable, Sendable {
    /// The moves the history starts with.
    public var moves: [StatusMove]
    /// The timestamped trail moves dated outside the feature's lifetime, in body order (at most
    /// `maxEntries`, like the trail).
    public var outside: [Outside]

    public init(moves: [StatusMove], outside: [Outside]) {
      self.moves = moves
      self.outside = outside
    }

    /// One sentence for the source to report, nil when nothing was set aside: "audit trail: the
    /// move to done dated 9999-12-31T00:00:00Z, after the read (2026-11-09T12:00:00Z), set aside
    /// (and 1 more outside the feature's lifetime)".
    public func problem(createdAt: Instant?, now: Instant) -> String? {
      guard let first = outside.first, let at = first.move.at else { return nil }
      let bound =
        first.afterNow
        ? "after the read (\(now.rfc3339))"
        : "before the feature was created (\(createdAt.map(\.rfc3339) ?? "?"))"
      let more = outside.count > 1 ? " (and \(outside.count - 1) more outside the feature's lifetime)" : ""
      return "audit trail: the move to \(first.move.to) dated \(at.rfc3339), \(bound), set aside\(more)"
    }
  }

  /// A trail move dated outside the feature's lifetime.
  public struct Outside: Hashable, Sendable {
    public var move: TrailMove
    /// Dated after the read's present (else before the feature was created).
    public var afterNow: Bool

    public init(move: TrailMove, afterNow: Bool) {
      self.move = move
      self.afterNow = afterNow
    }
  }

  /// `backfill(_:…)`, with the moves it set aside (rule 5).
  public static func history(
    _ trail: Parsed, createdAt: Instant?, updatedAt: Instant?, status: String, initialState: String, now: Instant
  ) -> Backfill {
    var out: [StatusMove] = []
    var outside: [Outside] = []
    out.reserveCapacity(trail.moves.count + 2)
    func enter(_ state: String, _ time: Instant) {
      var t = min(time, now)
      if let floor = out.last?.at ?? createdAt { t = max(t, min(floor, now)) }
      let move = StatusMove(at: t, status: state)
      guard let last = out.last else { return out.append(move) }
      if last.status == move.status { return }
      if last.at == t {
        out[out.count - 1] = move
        if out.count >= 2 && out[out.count - 2].status == move.status { out.removeLast() }
        return
      }
      out.append(move)
    }
    if let created = createdAt, !trail.truncated {
      enter(trail.moves.first?.from ?? initialState, created)
    }
    let latest = now.adding(seconds: lifetimeSlack)
    let earliest = createdAt?.adding(seconds: -lifetimeSlack)
    for m in trail.moves {
      guard let t = m.at else { continue }
      if t > latest || earliest.map({ t < $0 }) == true {
        outside.append(Outside(move: m, afterNow: t > latest))
        continue
      }
      enter(m.to, t)
    }
    let current = Status.normalise(status)
    if let updated = updatedAt, out.last?.status != current { enter(current, updated) }
    return Backfill(moves: out, outside: outside)
  }

  /// `backfill(_:…)` of a body.
  public static func backfill(
    body: String, createdAt: Instant?, updatedAt: Instant?, status: String, initialState: String, now: Instant
  ) -> [StatusMove] {
    backfill(
      parse(body), createdAt: createdAt, updatedAt: updatedAt, status: status, initialState: initialState, now: now)
  }
}

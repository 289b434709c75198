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
  /// 5. Times are clamped: never before `createdAt`, never before the previous move, never after
  ///    `now`. Moves at one moment keep the last; a move into the state the feature is in is
  ///    dropped.
  ///
  /// Without `createdAt` the moves begin with the first timestamped line (or `updatedAt`).
  public static func backfill(
    _ trail: Parsed, createdAt: Instant?, updatedAt: Instant?, status: String, initialState: String, now: Instant
  ) -> [StatusMove] {
    var out: [StatusMove] = []
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
    for m in trail.moves {
      if let t = m.at { enter(m.to, t) }
    }
    let current = Status.normalise(status)
    if let updated = updatedAt, out.last?.status != current { enter(current, updated) }
    return out
  }

  /// `backfill(_:…)` of a body.
  public static func backfill(
    body: String, createdAt: Instant?, updatedAt: Instant?, status: String, initialState: String, now: Instant
  ) -> [StatusMove] {
    backfill(
      parse(body), createdAt: createdAt, updatedAt: updatedAt, status: status, initialState: initialState, now: now)
  }
}

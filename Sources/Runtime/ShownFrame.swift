internal import Clock
internal import Projections
internal import WallboardCore

/// The frame on the screen, and how long it reads true: from the moment it was made until its
/// texts' next change on each clock (`NextChange`) and the diagnostics panel's next second, for
/// as long as the sources' retry times and the journal's error are those it showed.
struct ShownFrame {
  /// The moment it was made, on every clock.
  let made: LiveLoop.Moment
  let until: NextChange
  let panelUntil: Monotonic?
  let reconnectAt: [String: Instant]
  let journalError: String?

  /// Whether it still reads true at `now`: each clock at or after the frame's moment and before
  /// its next change. A clock stepped back (an NTP sync at boot, a clock set by hand) is before
  /// the frame's moment: as stale as one stepped past its change.
  func holds(at now: LiveLoop.Moment, reconnectAt waiting: [String: Instant], journalError error: String?) -> Bool {
    now.wall >= made.wall && (until.wall.map { now.wall < $0 } ?? true) && now.board >= made.board
      && (until.board.map { now.board < $0 } ?? true) && (panelUntil.map { now.monotonic < $0 } ?? true)
      && waiting == reconnectAt && error == journalError
  }

  /// When it goes stale on the monotonic clock, each clock taken to run with it from `now`; nil:
  /// never. A clock that does not (a simulation's, a wall stepped) is caught by `holds` at the
  /// loop's next look.
  func deadline(at now: LiveLoop.Moment) -> Monotonic? {
    var deadline = panelUntil
    for (change, clock) in [(until.wall, now.wall), (until.board, now.board)] {
      guard let change else { continue }
      let d = now.monotonic.adding(seconds: Double(change.millis - clock.millis) / 1000)
      deadline = deadline.map { min($0, d) } ?? d
    }
    return deadline
  }
}

public import Projections
public import WallboardCore

/// One agent session's hold, as the agents strip and the text board say it.
public struct AgentStripRow: Hashable, Sendable {
  /// The session, shortened to its first 8 characters as upstream shows it.
  public var session: String
  public var featureId: String
  public var title: String
  /// "for 2 h", or "lapsed 40 min ago".
  public var held: String
  public var lapsed: Bool

  public init(session: String, featureId: String, title: String, held: String, lapsed: Bool) {
    self.session = session
    self.featureId = featureId
    self.title = title
    self.held = held
    self.lapsed = lapsed
  }

  /// `row` read at `at`.
  public init(_ row: AgentRow, state: BoardState, at: Instant) {
    session = String(row.lock.session.prefix(8))
    featureId = state.shownId(row.lock.feature)
    title = row.title ?? ""
    lapsed = row.lock.lapsed(at: at)
    held =
      lapsed ? AttentionText.lapsed(row.lock, at: at) : "for " + AgentStripRow.duration(from: row.lock.since, to: at)
  }

  /// "12 s", "3 min", "2 h", "4 d": how long since `then`.
  public static func duration(from then: Instant, to now: Instant) -> String {
    let t = Ages.text(from: then, to: now)
    return t.hasSuffix(" ago") ? String(t.dropLast(4)) : t
  }

  /// `held` where room is short: "2 h", "lapsed 40 min".
  public var shortHeld: String {
    if held.hasPrefix("for ") { return String(held.dropFirst(4)) }
    return held.hasSuffix(" ago") ? String(held.dropLast(4)) : held
  }

  /// The row as one line of text: "a1b2c3d4  Login flow (FEAT-1)  for 2 h".
  public var line: String { "\(session)  \(FeatureName.text(id: featureId, title: title))  \(held)" }

  /// "2 held · 1 lapsed", "2 held", "1 lapsed": the locks still held and those lapsed, apart
  /// (the strip's title and the text board's heading).
  public static func summary(_ rows: [AgentStripRow]) -> String {
    let lapsed = rows.count { $0.lapsed }
    let held = rows.count - lapsed
    return [held > 0 ? "\(held) held" : nil, lapsed > 0 ? "\(lapsed) lapsed" : nil].compactMap { $0 }.joined(
      separator: " · ")
  }

  /// What the strip and the text board say without locks.
  public static let empty = "No agent holds a feature"

  /// When the rows made at `at` next read differently: a hold's duration turning, a lock
  /// lapsing, a lapse's age turning.
  public static func nextChange(_ rows: [AgentRow], at: Instant) -> Instant? {
    var next: Instant?
    for r in rows {
      if r.lock.lapsed(at: at) {
        next = NextChange.earlier(next, Ages.nextChange(from: r.lock.lapsesAt, to: at))
      } else {
        next = NextChange.earlier(next, Ages.nextChange(from: r.lock.since, to: at))
        next = NextChange.earlier(next, r.lock.lapsesAt)
      }
    }
    return next
  }
}

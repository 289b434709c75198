/// An agent session's hold on a feature: a row of upstream's `session_locks` table
/// (`~/.orchestra/db/global.db`: `feature_id, project_id, session_id, locked_at`). Its holder
/// refreshes it; one not refreshed for `lifetime` has lapsed (the session went away holding it).
public struct AgentLock: Hashable, Sendable {
  /// The feature held, by (project, id).
  public var feature: FeatureKey
  /// The agent session holding it, as upstream names it.
  public var session: String
  /// When the lock was taken or last refreshed (the data's own time: upstream's `locked_at`,
  /// which its holder moves forward on each refresh).
  public var lockedAt: Instant
  /// Since when this session has held the feature, as far as the board has seen: the earliest
  /// `locked_at` of this holder's unbroken hold (the reducer keeps it across refreshes).
  public var since: Instant

  public init(feature: FeatureKey, session: String, lockedAt: Instant, since: Instant? = nil) {
    self.feature = feature
    self.session = session
    self.lockedAt = lockedAt
    self.since = since ?? lockedAt
  }

  /// How long a lock holds without being refreshed: upstream's 30 minutes.
  public static let lifetimeMillis: Int64 = 30 * 60 * 1000

  /// When the lock lapses unless refreshed.
  public var lapsesAt: Instant { Instant(millis: lockedAt.millis + Self.lifetimeMillis) }

  /// Whether the lock has lapsed at `t`.
  public func lapsed(at t: Instant) -> Bool { t >= lapsesAt }
}

extension AgentLock {
  /// A `locked_at` as upstream writes it: SQLite's `datetime('now')` (`2026-11-02 09:00:00`,
  /// UTC), or RFC 3339; nil for anything else.
  public static func time(_ s: String) -> Instant? {
    if let t = try? Instant(rfc3339: s) { return t }
    let b = Array(s.utf8)
    guard b.count == 19, b[10] == UInt8(ascii: " ") else { return nil }
    var t = b
    t[10] = UInt8(ascii: "T")
    return try? Instant(rfc3339: t + [UInt8(ascii: "Z")])
  }
}

import WallboardCore

extension EventDecoder {
  /// An `agents.locks` payload: `locks` [{`feature_id`, `project_id`?, `session_id`,
  /// `locked_at`}] (at most `limits.maxAgentLocks`): every lock the source reads now. `locked_at`
  /// is RFC 3339 or SQLite's `YYYY-MM-DD HH:MM:SS` (UTC), as upstream's table holds it.
  func agentLocks(_ f: Fields) throws(EventDecodingError) -> [AgentLock] {
    let entries = try f.objects("locks", max: limits.maxAgentLocks, required: true) ?? []
    var out: [AgentLock] = []
    out.reserveCapacity(entries.count)
    for e in entries {
      let feature = try e.requiredId("feature_id")
      let project = try e.id("project_id")
      let session = try e.requiredId("session_id")
      let text = try e.requiredString("locked_at", .other)
      guard let at = AgentLock.time(text) else {
        throw e.fail("locked_at", "\(Fields.quoted(text)) is not an RFC 3339 or SQLite time (years 1970…9999)")
      }
      out.append(AgentLock(feature: FeatureKey(project: project, id: feature), session: session, lockedAt: at))
    }
    return out
  }
}

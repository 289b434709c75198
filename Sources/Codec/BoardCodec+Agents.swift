internal import WallboardCore

/// The codec's agents' locks (format 6): an `agents.locks` body (tag 12) and a state's
/// `agentLocks`, each lock its feature's project and id, its session, `lockedAt` and `since`.
extension ByteWriter {
  mutating func agentLock(_ l: AgentLock) {
    string(l.feature.project)
    string(l.feature.id)
    string(l.session)
    instant(l.lockedAt)
    instant(l.since)
  }

  mutating func agentLocks(_ locks: [AgentLock]) {
    count(locks.count)
    for l in locks { agentLock(l) }
  }
}

extension ByteReader {
  /// The fewest bytes a lock takes: three empty strings' lengths and two one-byte instants.
  static let minAgentLockBytes = 5

  mutating func agentLock() throws(CodecError) -> AgentLock {
    let project = try string("project")
    let id = try string("id")
    let session = try string("session")
    let lockedAt = try instant("lockedAt")
    let since = try instant("since")
    return AgentLock(feature: FeatureKey(project: project, id: id), session: session, lockedAt: lockedAt, since: since)
  }

  /// A list of locks, at most `AgentLock.maxPerSource` (the cap the reducer keeps to).
  mutating func agentLocks(_ field: StaticString) throws(CodecError) -> [AgentLock] {
    let start = offset
    let locks = try array(field, minBytesEach: Self.minAgentLockBytes) { (r) throws(CodecError) in try r.agentLock() }
    guard locks.count <= AgentLock.maxPerSource else {
      throw fail(field, at: start, "\(locks.count) locks; the limit is \(AgentLock.maxPerSource)")
    }
    return locks
  }
}

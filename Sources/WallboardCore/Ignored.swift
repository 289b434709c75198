/// Why the reducer ignored a valid event: a value, so that a caller (the tests, a journal, a
/// panel) matches the case; its `description` is the line a source's `lastError` shows.
public enum Ignored: Hashable, Sendable, CustomStringConvertible {
  /// The event deletes a feature the board does not have.
  case unknownFeature(topic: String, FeatureKey)
  /// The event names an id that more than one project holds, and no project: never applied to
  /// a guess. `projects` are the holders, in order.
  case ambiguousFeature(topic: String, id: String, projects: [String])
  /// The event names a sprint the board does not have.
  case unknownSprint(topic: String, id: String)
  /// The sprint the event carries cannot be drawn.
  case badSprint(topic: String, SprintProblem)
  /// The board holds `limit` features (on the board, or kept off it by the filter) already.
  case featureLimit(limit: Int, FeatureKey, hidden: Bool)
  /// A snapshot older than one already applied.
  case staleSnapshot(seq: Int64, applied: Int64)

  public var description: String {
    switch self {
    case .unknownFeature(let topic, let key): "\(topic): unknown feature \(key)"
    case .ambiguousFeature(let topic, let id, let projects):
      "\(topic): \(id) is a feature of \(projects.count) projects ("
        + projects.prefix(3).joined(separator: ", ") + (projects.count > 3 ? ", …" : "") + "); the event names none"
    case .unknownSprint(let topic, let id): "\(topic): unknown sprint \(id)"
    case .badSprint(let topic, let problem): "\(topic): \(problem)"
    case .featureLimit(let limit, let key, let hidden):
      "feature limit of \(limit) reached: \(key) not \(hidden ? "kept" : "added")"
    case .staleSnapshot(let seq, let applied):
      "board.snapshot at seq \(seq) is older than seq \(applied) already applied"
    }
  }
}

/// Why a sprint cannot be drawn.
public enum SprintProblem: Hashable, Sendable, CustomStringConvertible {
  case endsBeforeStart(id: String, start: CivilDate, end: CivilDate)
  case tooLong(id: String, days: Int, start: CivilDate, end: CivilDate, limit: Int)

  public var description: String {
    switch self {
    case .endsBeforeStart(let id, let start, let end): "sprint \(id) ends (\(end)) before it starts (\(start))"
    case .tooLong(let id, let days, let start, let end, let limit):
      "sprint \(id) lasts \(days) days (\(start) to \(end)); the limit is \(limit)"
    }
  }
}

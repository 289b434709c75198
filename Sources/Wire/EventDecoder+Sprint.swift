import WallboardCore

extension EventDecoder {
  /// A whole sprint (`sprint.created`, snapshot entries). `started_at` / `closed_at` are
  /// accepted so that snapshots can carry them.
  func sprint(_ f: Fields) throws(EventDecodingError) -> Sprint {
    let id = try f.requiredId("id")
    let start = try f.requiredDate("start_date")
    let end = try f.requiredDate("end_date")
    try checkOrder(start, end, f)
    return Sprint(
      id: id,
      name: try f.string("name", .text) ?? id,
      goal: try f.string("goal", .text),
      startDate: start,
      endDate: end,
      featureIds: try f.ids("feature_ids", max: limits.maxListCount) ?? [],
      nonWorkingDays: try f.weekdays("non_working_days") ?? [.sat, .sun],
      holidays: try f.dates("holidays", max: limits.maxListCount) ?? [],
      timeZone: try f.string("time_zone", .other),
      startedAt: try f.instant("started_at"),
      closedAt: try f.instant("closed_at"))
  }

  /// The sprint fields a `sprint.started` may carry besides `id` and `started_at`. `null`
  /// clears `goal` and `time_zone` and is an error for the others.
  func sprintPatch(_ f: Fields) throws(EventDecodingError) -> SprintPatch {
    var p = SprintPatch()
    p.name = try f.notNull("name") { (k) throws(EventDecodingError) in try f.string(k, .text) }
    p.goal = try f.nullable("goal") { (k) throws(EventDecodingError) in try f.string(k, .text) }
    p.startDate = try f.notNull("start_date") { (k) throws(EventDecodingError) in try f.date(k) }
    p.endDate = try f.notNull("end_date") { (k) throws(EventDecodingError) in try f.date(k) }
    if let start = p.startDate, let end = p.endDate { try checkOrder(start, end, f) }
    p.featureIds = try f.notNull("feature_ids") { (k) throws(EventDecodingError) in
      try f.ids(k, max: limits.maxListCount)
    }
    p.nonWorkingDays = try f.notNull("non_working_days") { (k) throws(EventDecodingError) in
      try f.weekdays(k)
    }
    p.holidays = try f.notNull("holidays") { (k) throws(EventDecodingError) in
      try f.dates(k, max: limits.maxListCount)
    }
    p.timeZone = try f.nullable("time_zone") { (k) throws(EventDecodingError) in
      try f.string(k, .other)
    }
    return p
  }

  func checkOrder(_ start: CivilDate, _ end: CivilDate, _ f: Fields) throws(EventDecodingError) {
    guard end >= start else {
      throw f.fail("end_date", "\"\(end)\" is before start_date \"\(start)\"")
    }
  }
}

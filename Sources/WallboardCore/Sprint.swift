/// A time-boxed set of features, with the calendar its burndown is drawn on.
public struct Sprint: Hashable, Sendable {
  public var id: String
  public var name: String
  public var goal: String?
  /// Inclusive.
  public var startDate: CivilDate
  /// Inclusive.
  public var endDate: CivilDate
  /// Explicit members, in the order they were added.
  public var featureIds: [String]
  public var nonWorkingDays: Set<Weekday>
  public var holidays: Set<CivilDate>
  /// IANA name; `nil` = the board's time zone.
  public var timeZone: String?
  /// When the sprint started (`sprint.started`), if it has.
  public var startedAt: Instant?
  /// When it closed (`sprint.closed`), if it has.
  public var closedAt: Instant?

  public init(
    id: String, name: String, goal: String? = nil, startDate: CivilDate, endDate: CivilDate,
    featureIds: [String] = [], nonWorkingDays: Set<Weekday> = [.sat, .sun],
    holidays: Set<CivilDate> = [], timeZone: String? = nil, startedAt: Instant? = nil,
    closedAt: Instant? = nil
  ) {
    self.id = id
    self.name = name
    self.goal = goal
    self.startDate = startDate
    self.endDate = endDate
    self.featureIds = featureIds
    self.nonWorkingDays = nonWorkingDays
    self.holidays = holidays
    self.timeZone = timeZone
    self.startedAt = startedAt
    self.closedAt = closedAt
  }

  /// Whether `date` is a working day of this sprint.
  public func isWorking(_ date: CivilDate) -> Bool {
    !nonWorkingDays.contains(date.weekday) && !holidays.contains(date)
  }
}

/// Sprint fields a `sprint.started` payload may carry besides its id.
public struct SprintPatch: Hashable, Sendable {
  public var name: String?
  public var goal: String??
  public var startDate: CivilDate?
  public var endDate: CivilDate?
  public var featureIds: [String]?
  public var nonWorkingDays: Set<Weekday>?
  public var holidays: Set<CivilDate>?
  public var timeZone: String??

  public init() {}

  public func apply(to s: inout Sprint) {
    if let v = name { s.name = v }
    if let v = goal { s.goal = v }
    if let v = startDate { s.startDate = v }
    if let v = endDate { s.endDate = v }
    if let v = featureIds { s.featureIds = v }
    if let v = nonWorkingDays { s.nonWorkingDays = v }
    if let v = holidays { s.holidays = v }
    if let v = timeZone { s.timeZone = v }
  }
}

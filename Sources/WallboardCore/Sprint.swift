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
  /// Features carrying this label are members (besides `featureIds`, `sprint_id` and the
  /// `sprint:<id>` convention of `Feature.ownSprintIds`); `nil` = no label of its own.
  public var membershipLabel: String?
  /// What decides whether it is the active sprint.
  public var activation: Activation

  /// What decides whether a sprint is the active one (see `BoardState.activeSprint`).
  public enum Activation: String, Hashable, Sendable {
    /// `sprint.started` and `sprint.closed`: a sprint that arrived as events or in a snapshot.
    case events
    /// Its dates: active while `startDate…endDate`, in its time zone, holds today. A declared
    /// sprint (`--sprint`), which no event starts or closes.
    case dates
  }

  public init(
    id: String, name: String, goal: String? = nil, startDate: CivilDate, endDate: CivilDate,
    featureIds: [String] = [], nonWorkingDays: Set<Weekday> = [.sat, .sun],
    holidays: Set<CivilDate> = [], timeZone: String? = nil, startedAt: Instant? = nil,
    closedAt: Instant? = nil, membershipLabel: String? = nil, activation: Activation = .events
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
    self.membershipLabel = membershipLabel
    self.activation = activation
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

public import WallboardCore

/// When the work will finish, from the team's own throughput: a Monte Carlo simulation over the
/// daily throughput of the last working days, seeded so that a frame is reproducible.
public struct Forecast: Hashable, Sendable {
  public enum Outcome: Hashable, Sendable {
    /// A sprint's remaining features are done by `p50` in half the runs, by `p85` in 85 %.
    case sprint(remaining: Int, p50: CivilDate, p85: CivilDate)
    /// A sprint's remaining features are not done within the simulated horizon in at least 15 %
    /// of the runs: `p50` when half the runs finish within it.
    case beyondHorizon(remaining: Int, p50: CivilDate?, horizon: CivilDate)
    /// Nothing of the sprint is left.
    case sprintDone
    /// Without a sprint: how many features the next `days` days finish, in half the runs (`p50`)
    /// and in 85 % of them (`p85`, at least that many).
    case backlog(days: Int, p50: Int, p85: Int)
    /// No feature was done in the sampled days: no forecast, rather than an invented date.
    case noThroughput
  }

  public var outcome: Outcome
  /// The working days sampled, the first and the last (nil when there were none).
  public var sampledFrom: CivilDate?
  public var sampledThrough: CivilDate?
  /// Working days sampled and features done in them.
  public var sampleDays: Int
  public var sampleDone: Int
  public var runs: Int
  public var seed: UInt64

  public init(
    outcome: Outcome, sampledFrom: CivilDate?, sampledThrough: CivilDate?, sampleDays: Int, sampleDone: Int,
    runs: Int, seed: UInt64
  ) {
    self.outcome = outcome
    self.sampledFrom = sampledFrom
    self.sampledThrough = sampledThrough
    self.sampleDays = sampleDays
    self.sampleDone = sampleDone
    self.runs = runs
    self.seed = seed
  }

  public static let defaultRuns = 10_000
  public static let defaultSeed: UInt64 = 0x5745_4C4C_424F_4152  // "WELLBOAR"
  /// How many working days of throughput are sampled.
  public static let defaultSampleDays = 30
  /// How many days ahead the backlog forecast looks.
  public static let backlogDays = 14

  /// The forecast for the board as of `at`: for `sprint` its remaining features, without one the
  /// next `backlogDays` days.
  public static func compute(
    state: BoardState, sprint: Sprint?, scope: BoardScope, at: Instant, zone: Zone,
    runs: Int = defaultRuns, seed: UInt64 = defaultSeed, sampleDays: Int = defaultSampleDays
  ) -> Forecast {
    // TODO(issue 26): computed in the projections part
    Forecast(
      outcome: .noThroughput, sampledFrom: nil, sampledThrough: nil, sampleDays: 0, sampleDone: 0, runs: runs,
      seed: seed)
  }
}

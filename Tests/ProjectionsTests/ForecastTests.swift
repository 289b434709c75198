import Foundation
import Projections
import TestSupport
import Testing
import WallboardCore

@Suite("Monte Carlo forecast")
struct ForecastTests {
  typealias S = Stuck

  /// Monday 2026-11-30, noon UTC.
  static let at = Make.t("2026-11-30T12:00:00Z")
  static let today = Make.d("2026-11-30")

  /// Features entering done: `perDay[i]` of them on day `today − 1 − i` (calendar days), at
  /// 10:00 UTC; each moved through in-progress the day before. Returns the events and the
  /// (feature, date) of every move into done.
  static func throughput(_ perDay: [Int]) -> ([Event], [[String]]) {
    var events: [Event] = []
    var done: [[String]] = []
    for (i, n) in perDay.enumerated() {
      let day = Self.today.adding(days: -1 - i)
      for k in 0..<n {
        let id = "D\(i)-\(k)"
        events += [
          S.create("2026-01-01T00:00:00Z", id, project: "p1"),
          S.move("\(day.adding(days: -1))T09:00:00Z", id, project: "p1", "in-progress"),
          S.move("\(day)T10:00:00Z", id, project: "p1", "done"),
        ]
        done.append([id, day.description])
      }
    }
    return (events, done)
  }

  /// A sprint of `remaining` todo features (besides `doneMembers` done ones), with holidays.
  static func sprintBoard(_ base: [Event], remaining: Int, holidays: [String] = []) -> (BoardState, Sprint) {
    let members = (0..<remaining).map { "R\($0)" }
    let sprint = Make.sprint("s1", start: "2026-11-23", end: "2026-12-11", members: members, holidays: holidays)
    var events = base
    events += members.map { S.create("2026-11-20T00:00:00Z", $0, project: nil) }
    events.append(Make.event("2026-11-20T00:00:00Z", .sprintCreated(sprint)))
    let s = Make.state(events)
    return (s, s.sprints["s1"]!)
  }

  static func forecast(_ s: BoardState, sprint: Sprint?, runs: Int = Forecast.defaultRuns) -> Forecast {
    Forecast.compute(
      state: s, sprint: sprint, scope: BoardScope(state: s, sprint: sprint), at: Self.at, zone: .utc, runs: runs)
  }

  @Test func constantThroughputGivesTheExactDate() {
    // Two features done every day: each run finishes 10 features on the 5th working day.
    let (events, _) = Self.throughput(Array(repeating: 2, count: 60))
    let (s, sprint) = Self.sprintBoard(events, remaining: 10, holidays: ["2026-12-02"])
    let f = Self.forecast(s, sprint: sprint)
    // Dec 1, (2 a holiday), 3, 4, 7, 8.
    #expect(f.outcome == .sprint(remaining: 10, p50: Make.d("2026-12-08"), p85: Make.d("2026-12-08")))
    // The last 30 working days before Monday the 30th (the 30th itself left out).
    #expect(f.sampledThrough == Make.d("2026-11-27") && f.sampleDays == 30 && f.sampleDone == 60)
    #expect(f.sampledFrom == Make.d("2026-10-19") && f.runs == 10_000 && f.seed == Forecast.defaultSeed)
    // Without a sprint: 10 working days in the next 14, 20 features at P50 and P85.
    #expect(Self.forecast(s, sprint: nil).outcome == .backlog(days: 14, p50: 20, p85: 20))
  }

  @Test func noThroughputSaysSoInsteadOfADate() {
    let (s, sprint) = Self.sprintBoard([], remaining: 3)
    let f = Self.forecast(s, sprint: sprint)
    // The board's history begins on Friday the 20th: six working days are sampled.
    #expect(f.outcome == .noThroughput && f.sampleDays == 6 && f.sampleDone == 0)
    #expect(f.sampledFrom == Make.d("2026-11-20") && f.sampledThrough == Make.d("2026-11-27"))
    let empty = Self.forecast(BoardState(), sprint: nil)
    #expect(empty.outcome == .noThroughput && empty.sampleDays == 0 && empty.sampledFrom == nil)
    #expect(Self.forecast(s, sprint: nil).outcome == .noThroughput)
    // Work done only today (not over) and more than 30 working days ago is not sampled either.
    let (old, _) = Self.throughput(Array(repeating: 0, count: 50) + [4])
    let (o, os) = Self.sprintBoard(old, remaining: 3)
    #expect(Self.forecast(o, sprint: os).outcome == .noThroughput)
  }

  @Test func aSprintWithNothingLeftIsDone() {
    let (events, _) = Self.throughput([1, 1, 1])
    let (s, sprint) = Self.sprintBoard(events, remaining: 0)
    #expect(Self.forecast(s, sprint: sprint).outcome == .sprintDone)
  }

  @Test func tooLittleThroughputIsBeyondTheHorizon() {
    // At most one a day over 365 working days cannot finish 400.
    let (events, _) = Self.throughput([0, 0, 0, 1])
    let (s, sprint) = Self.sprintBoard(events, remaining: 400)
    guard case .beyondHorizon(400, nil, let horizon) = Self.forecast(s, sprint: sprint).outcome else {
      Issue.record("not beyond the horizon")
      return
    }
    #expect(horizon > Make.d("2027-11-01"))
  }

  /// The forecast of an independent implementation (`Tests/Forecast/forecast.py`) of the same
  /// job, as JSON.
  static func python(
    done: [[String]], sprint: Sprint?, remaining: Int, runs: Int = Forecast.defaultRuns,
    historyFrom: String = "2026-01-01"
  ) throws -> [String: Any] {
    let job: [String: Any] = [
      "today": Self.today.description, "history_from": historyFrom, "done": done, "sprint": sprint != nil,
      "remaining": remaining,
      "non_working": (sprint?.nonWorkingDays ?? []).map { Weekday.allCases.firstIndex(of: $0)! },
      "holidays": (sprint?.holidays ?? []).map(\.description), "runs": runs,
      "seed": Forecast.defaultSeed, "sample_days": Forecast.defaultSampleDays,
    ]
    let script = Paths.repoRoot.appendingPathComponent("Tests/Forecast/forecast.py").path
    let out = try Python.run([script], input: try JSONSerialization.data(withJSONObject: job))
    return try #require(try JSONSerialization.jsonObject(with: out) as? [String: Any])
  }

  /// The same fields of the board's forecast.
  static func fields(_ f: Forecast) -> [String: Any] {
    var o: [String: Any] = [
      "sampled_from": f.sampledFrom!.description, "sampled_through": f.sampledThrough!.description,
      "sample_days": f.sampleDays, "sample_done": f.sampleDone,
    ]
    switch f.outcome {
    case .sprint(let r, let p50, let p85):
      o["kind"] = "sprint"
      (o["remaining"], o["p50_date"], o["p85_date"]) = (r, p50.description, p85.description)
    case .beyondHorizon(let r, let p50, let horizon):
      o["kind"] = "beyond_horizon"
      (o["remaining"], o["p50_date"], o["p85_date"]) = (r, p50?.description ?? NSNull(), horizon.description)
    case .sprintDone: o["kind"] = "sprint_done"
    case .backlog(_, let p50, let p85):
      (o["kind"], o["p50_features"], o["p85_features"]) = ("backlog", p50, p85)
    case .noThroughput: o["kind"] = "no_throughput"
    }
    return o
  }

  /// An irregular throughput: a day's count from a fixed pattern of zeros and bursts.
  static let pattern = (0..<70).map { [0, 3, 1, 0, 0, 5, 2, 0, 1, 0, 4][$0 % 11] }

  /// Few runs make the result hang on each draw; 10 000 check the percentiles.
  @Test(arguments: [(20, 10_000), (45, 10_000), (140, 10_000), (20, 1), (45, 3), (140, 7), (60, 2)])
  func agreesWithAnIndependentImplementationForASprint(remaining: Int, runs: Int) throws {
    let (events, done) = Self.throughput(Self.pattern)
    let (s, sprint) = Self.sprintBoard(
      events, remaining: remaining, holidays: ["2026-12-24", "2026-12-25", "2026-11-13"])
    let f = Self.forecast(s, sprint: sprint, runs: runs)
    let mine = Self.fields(f)
    let theirs = try Self.python(done: done, sprint: sprint, remaining: remaining, runs: runs)
    #expect(NSDictionary(dictionary: mine) == NSDictionary(dictionary: theirs), "\(mine) vs \(theirs)")
    // The draws decide: the runs are not all alike.
    guard runs > 1000 else { return }
    if case .sprint(_, let p50, let p85) = f.outcome { #expect(p50 < p85) } else { Issue.record("\(f.outcome)") }
  }

  @Test(arguments: [1, 2, 5, 10_000])
  func agreesWithAnIndependentImplementationForTheBacklog(runs: Int) throws {
    let (events, done) = Self.throughput(Self.pattern)
    let s = Make.state(events)
    let f = Self.forecast(s, sprint: nil, runs: runs)
    let theirs = try Self.python(done: done, sprint: nil, remaining: 0, runs: runs)
    #expect(NSDictionary(dictionary: Self.fields(f)) == NSDictionary(dictionary: theirs))
    guard runs > 1000, case .backlog(14, let p50, let p85) = f.outcome else { return }
    #expect(p85 < p50)
  }

  @Test func noDayBeforeTheBoardsHistoryIsSampled() throws {
    // History from Wednesday the 18th, 10:00: eight working days to the 27th.
    let events = [
      S.create("2026-11-18T10:00:00Z", "X", project: "p1"), S.move("2026-11-19T10:00:00Z", "X", project: "p1", "done"),
      S.create("2026-11-19T10:00:00Z", "Y", project: "p1"), S.move("2026-11-24T10:00:00Z", "Y", project: "p1", "done"),
    ]
    let s = Make.state(events)
    let f = Self.forecast(s, sprint: nil, runs: 5)
    #expect(f.sampledFrom == Make.d("2026-11-18") && f.sampleDays == 8 && f.sampleDone == 2)
    let theirs = try Self.python(
      done: [["X", "2026-11-19"], ["Y", "2026-11-24"]], sprint: nil, remaining: 0, runs: 5, historyFrom: "2026-11-18")
    #expect(NSDictionary(dictionary: Self.fields(f)) == NSDictionary(dictionary: theirs))
  }

  @Test func theSeedDecides() {
    let (events, _) = Self.throughput(Self.pattern)
    let s = Make.state(events)
    let a = Forecast.compute(
      state: s, sprint: nil, scope: BoardScope(state: s, sprint: nil), at: Self.at, zone: .utc, runs: 50, seed: 1)
    let b = Forecast.compute(
      state: s, sprint: nil, scope: BoardScope(state: s, sprint: nil), at: Self.at, zone: .utc, runs: 50, seed: 1)
    #expect(a == b)
    var r = SplitMix64(seed: 0)
    // Vigna's reference outputs for seed 0.
    #expect(r.next() == 0xE220_A839_7B1D_CDAF && r.next() == 0x6E78_9E6A_A1B9_65F4)
  }
}

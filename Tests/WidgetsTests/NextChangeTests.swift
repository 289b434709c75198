import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets
import ZoneFiles

/// Each "valid until" against the text it guards: the text a millisecond before the change
/// is the text now, and at the change it reads differently — around seconds, minutes, hours,
/// days, a week, a new year and a zone's daylight-saving switch.
@Suite("When a frame's texts next change")
struct NextChangeTests {
  static let base = Make.t("2026-12-31T23:58:30Z")
  /// Ages from before `then` (clocks apart) to past a week, at uneven steps.
  static let ages: [Int64] =
    [-120_000, -61_000, -60_999, -500, 0, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000]
    + Array(stride(from: Int64(-90_000), to: 9 * 86_400_000, by: 7_919_123))
    + [86_399_999, 86_400_000, 604_799_999, 604_800_000, 700 * 86_400_000]

  static func before(_ t: Instant) -> Instant { Instant(millis: t.millis - 1) }

  @Test func anAgeChangesAtItsNextWholeSecondMinuteHourOrDay() {
    for d in Self.ages {
      let then = Self.base
      let now = Instant(millis: then.millis + d)
      let next = Ages.nextChange(from: then, to: now)
      #expect(next > now)
      let text = Ages.text(from: then, to: now)
      #expect(Ages.text(from: then, to: Self.before(next)) == text, "age \(d) ms")
      #expect(Ages.text(from: then, to: next) != text, "age \(d) ms: \(text) at \(next)")
    }
  }

  @Test(arguments: ["UTC", "Europe/Berlin", "Pacific/Chatham"])
  func whenChangesAtItsAgesWeekAndYear(zoneName: String) throws {
    let zone = try #require(Zone(zoneName))
    // Changes dated around the turn of the year: their dates gain or lose a year.
    for then in [Self.base, Make.t("2026-03-09T14:30:00Z"), Make.t("2027-01-02T10:00:00Z")] {
      for d in Self.ages {
        let now = Instant(millis: then.millis + d)
        let text = Ages.when(then, at: now, zone: zone)
        guard let next = Ages.nextWhenChange(then, at: now, zone: zone) else {
          // Never again: a date of an earlier year stays that date.
          #expect(zone.date(of: then).year < zone.date(of: now).year, "\(then) at \(now): \(text)")
          #expect(Ages.when(then, at: Instant(millis: now.millis + 900 * 86_400_000), zone: zone) == text)
          continue
        }
        #expect(next > now)
        #expect(Ages.when(then, at: Self.before(next), zone: zone) == text, "\(then) at \(now)")
        #expect(Ages.when(then, at: next, zone: zone) != text, "\(then) at \(now): \(text) at \(next)")
      }
    }
  }

  /// Around a minute, midnight, a new year, and Berlin's and Chatham's (a 45-minute zone's)
  /// daylight-saving switches.
  static let moments = [
    "2026-12-31T23:58:30Z", "2026-12-31T23:59:59.999Z", "2026-03-29T00:59:30Z", "2026-03-29T00:59:59.999Z",
    "2026-10-25T00:59:59Z", "2026-04-04T13:44:59Z", "2026-09-26T13:59:58Z", "2026-06-15T10:00:00Z",
  ].map(Make.t)

  @Test(arguments: ["UTC", "Europe/Berlin", "Asia/Kolkata", "Pacific/Chatham"])
  func theHeadersClockAndDayChangeAtTheNextLocalMinute(zoneName: String) throws {
    let zone = try #require(Zone(zoneName))
    for start in Self.moments {
      // Every minute of the hour that follows: the clock turns once a minute, the day at midnight.
      for k in Int64(0)..<70 {
        let at = Instant(millis: start.millis + k * 60_000 + (k % 7) * 1234)
        let header = HeaderModel(sprint: nil, burndown: nil, at: at, zone: zone)
        let next = HeaderModel.nextChange(at: at, zone: zone)
        #expect(next > at && next.millis - at.millis <= 60_000)
        let justBefore = HeaderModel(sprint: nil, burndown: nil, at: Self.before(next), zone: zone)
        #expect(justBefore.clock == header.clock && justBefore.day == header.day, "\(zoneName) \(at)")
        #expect(HeaderModel(sprint: nil, burndown: nil, at: next, zone: zone).clock != header.clock)
      }
    }
  }

  @Test(arguments: ["UTC", "Europe/Berlin", "Asia/Kathmandu"])
  func theTodayLineMovesAtTheSprintZonesMinute(zoneName: String) throws {
    let zone = try #require(Zone(zoneName))
    for at in Self.moments {
      let next = BurndownWidget.todayFractionChange(after: at, zone: zone)
      let fraction = BurndownWidget.todayFraction(at: at, zone: zone)
      #expect(BurndownWidget.todayFraction(at: Self.before(next), zone: zone) == fraction)
      #expect(BurndownWidget.todayFraction(at: next, zone: zone) != fraction)
    }
  }

  @Test func theCountdownCountsEachSecondAndGoesAtTheRetry() {
    let retry = Make.t("2026-06-15T10:00:05.300Z")
    var now = Make.t("2026-06-15T09:59:58Z")
    var shown: [String] = []
    while let next = SourceRow.countdownChange(reconnectAt: retry, now: now) {
      let text = SourceRow.countdown(reconnectAt: retry, now: now)
      shown.append(text ?? "none")
      #expect(SourceRow.countdown(reconnectAt: retry, now: Self.before(next)) == text)
      #expect(SourceRow.countdown(reconnectAt: retry, now: next) != text)
      now = next
    }
    #expect(shown == (1...8).reversed().map { "retry in \($0) s" })
    #expect(now == retry && SourceRow.countdown(reconnectAt: retry, now: now) == nil)
  }

  @Test(arguments: [30.0, 0.5, 12.3456, 90])
  func aLiveSourceTurnsStaleTheMillisecondItsSilenceIsPastStaleAfter(staleAfter: Double) throws {
    let heard = Make.t("2026-06-15T10:00:00.250Z")
    var s = BoardState()
    Reducer.reduce(into: &s, .connection(origin: "jsonl:a", status: .live, at: heard, detail: nil))
    Reducer.reduce(into: &s, .connection(origin: "tcp:b", status: .reconnecting, at: heard, detail: nil))
    let now = Instant(millis: heard.millis + 200)
    let next = try #require(SourceStatus.nextChange(state: s, now: now, staleAfter: staleAfter))
    let states = SourceStatus.compute(state: s, now: now, staleAfter: staleAfter).map(\.status)
    #expect(states == [.live, .reconnecting])
    #expect(SourceStatus.compute(state: s, now: Self.before(next), staleAfter: staleAfter).map(\.status) == states)
    #expect(SourceStatus.compute(state: s, now: next, staleAfter: staleAfter).map(\.status) == [.stale, .reconnecting])
    #expect(SourceStatus.nextChange(state: s, now: next, staleAfter: staleAfter) == nil, "stale stays stale")
  }

  @Test(arguments: ["UTC", "Europe/Berlin"])
  func theBannerSaysTheDateOnceItsDataIsFromAnotherDay(zoneName: String) throws {
    let zone = try #require(Zone(zoneName))
    let from = Make.t("2026-06-15T18:00:00Z")
    for banner in [BoardBanner.restored(from: from), .notConnected(dataFrom: from, sources: ["a"])] {
      let now = Make.t("2026-06-15T19:30:00Z")
      let text = BannerText.line(banner, now: now, zone: zone)
      let next = try #require(BannerText.nextChange(banner, now: now, zone: zone))
      #expect(BannerText.line(banner, now: Self.before(next), zone: zone) == text)
      #expect(BannerText.line(banner, now: next, zone: zone) != text)
      #expect(
        BannerText.nextChange(banner, now: next, zone: zone) == nil, "from another day, it says its date for good")
    }
    #expect(BannerText.nextChange(.notConnected(dataFrom: nil, sources: ["a"]), now: from, zone: zone) == nil)
    #expect(BannerText.nextChange(.noFeatures(in: "project web"), now: from, zone: zone) == nil)
  }

  /// A whole frame: each of its models reads the same until its next change on either clock, and
  /// one of them reads differently then.
  @Test func aFramesModelHoldsUntilItsNextChange() throws {
    let zone = try #require(Zone("Europe/Berlin"))
    let start = Make.t("2026-06-15T10:00:00Z")
    var s = BoardState()
    // One source changed the board at 09:30 (its age is on the board's clock), one was heard at
    // 10:00 and turns stale a minute later (its age is on the wall's), one waits to reconnect.
    Reducer.reduce(into: &s, .connection(origin: "jsonl:a", status: .live, at: start, detail: nil))
    Reducer.reduce(
      into: &s, Make.event("2026-06-15T08:00:00Z", .featureCreated(Make.feature("F-1")), origin: "jsonl:a"))
    Reducer.reduce(
      into: &s,
      Make.event(
        "2026-06-15T09:30:00Z", .featureUpdated(FeaturePatch(id: "F-1", status: "in-progress")), origin: "jsonl:a"))
    Reducer.reduce(into: &s, .connection(origin: "jsonl:c", status: .live, at: start, detail: nil))
    Reducer.reduce(into: &s, .connection(origin: "tcp:b", status: .reconnecting, at: start, detail: nil))
    #expect(!s.recent.isEmpty)
    let retry = Instant(millis: start.millis + 95_000)
    var now = Instant(millis: start.millis + 20_500)
    var seen = 0
    while now.millis < start.millis + 3 * 3_600_000 {
      let view = BoardView(state: s, at: now, now: now, zone: zone, settings: ViewSettings(staleAfter: 60))
      let next = FrameModel.nextChange(view: view, reconnectAt: ["tcp:b": retry])
      let change = try #require(NextChange.earlier(next.board, next.wall))
      #expect(change > now)
      func model(_ t: Instant) -> [String] {
        let f = FrameModel(
          view: BoardView(state: s, at: t, now: t, zone: zone, settings: ViewSettings(staleAfter: 60)),
          reconnectAt: ["tcp:b": retry])
        // The work widgets' models too (F-1 in progress: its days on the aging chart).
        return [
          "\(f.header)", "\(f.sources)", "\(f.recent)", "\(f.banner ?? "")", "\(f.attention)", "\(f.aging)",
          "\(f.agents)",
        ]
      }
      let shown = model(now)
      #expect(model(Self.before(change)) == shown, "\(now)")
      #expect(model(change) != shown, "\(now): nothing changed at \(change)")
      now = change
      seen += 1
    }
    // Seconds while the countdown runs and the age is in seconds, then the minutes.
    #expect(seen > 95 && seen < 400, "\(seen) changes")
  }
}

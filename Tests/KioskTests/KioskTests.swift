import Kiosk
import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import ZoneFiles

@Suite("Night schedule")
struct NightScheduleTests {
  typealias M = Make

  static let schedule = NightSchedule(rules: [
    try! NightSchedule.parse(rule: "mon-fri 19:00-07:30 dim=20"),
    try! NightSchedule.parse(rule: "sat,sun 00:00-24:00 blank"),
    try! NightSchedule.parse(rule: "wed 12:00-13:00 dim=50"),
  ])

  @Test(arguments: [
    ("2026-11-09T12:00:00Z", NightSchedule.State.day),  // Monday noon
    ("2026-11-09T19:00:00Z", .dim(0.2)),  // Monday evening
    ("2026-11-10T07:29:00Z", .dim(0.2)),  // Tuesday early, still Monday's night
    ("2026-11-10T07:30:00Z", .day),
    ("2026-11-11T12:30:00Z", .dim(0.5)),  // Wednesday lunch
    ("2026-11-14T10:00:00Z", .blank),  // Saturday
    ("2026-11-14T06:00:00Z", .blank),  // Saturday morning: blank beats Friday night's dim
    ("2026-11-16T06:00:00Z", .day),  // Monday morning: Sunday night has no rule
  ])
  func stateWithAFakeClock(time: String, expected: NightSchedule.State) {
    #expect(Self.schedule.state(at: M.t(time), zone: .utc) == expected)
  }

  @Test func zoneDecidesTheLocalTime() throws {
    let s = NightSchedule(rules: [try NightSchedule.parse(rule: "daily 22:00-06:00 blank")])
    let tokyo = try #require(Zone("Asia/Tokyo"))
    // 14:00 UTC is 23:00 in Tokyo.
    #expect(s.state(at: M.t("2026-11-09T14:00:00Z"), zone: tokyo) == .blank)
    #expect(s.state(at: M.t("2026-11-09T14:00:00Z"), zone: .utc) == .day)
  }

  @Test(arguments: [
    "mon-fri 19:00-07:30", "funday 19:00-07:30 blank", "mon 25:00-07:30 blank", "mon 19:00-19:00 blank",
    "mon 19:00-07:30 dim=150", "mon 19:00-07:30 off",
  ])
  func badRulesNameTheRule(text: String) {
    do {
      _ = try NightSchedule.parse(rule: text)
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.description.hasPrefix("night rule \"\(text)\": "))
    }
  }
}

@Suite("Burn-in protection")
struct PixelShiftTests {
  @Test func staysWithinHalfAPercentAndMoves() {
    let shift = PixelShift(period: 180)
    var seen: Set<String> = []
    for minute in stride(from: 0, to: 60 * 24, by: 3) {
      let o = shift.offset(at: Instant(seconds: Int64(minute * 60)), width: 1920, height: 1080)
      #expect(abs(o.dx) <= 9 && abs(o.dy) <= 5, "0.5 % of 1920 is 9.6, of 1080 is 5.4")
      seen.insert("\(o.dx),\(o.dy)")
    }
    #expect(seen.count == 9)
    // The same moment gives the same offset; the next period another one.
    let a = shift.offset(at: Instant(seconds: 1000), width: 1920, height: 1080)
    let b = shift.offset(at: Instant(seconds: 1001), width: 1920, height: 1080)
    let c = shift.offset(at: Instant(seconds: 1000 + 180), width: 1920, height: 1080)
    #expect(a == b)
    #expect(a != c)
  }

  @Test func shiftingMovesPixelsAndFillsTheEdge() {
    var canvas = Canvas(width: 20, height: 10, background: RGBA(r: 0, g: 0, b: 0))
    canvas.fill(IRect(x: 5, y: 5, width: 1, height: 1), RGBA(r: 255, g: 0, b: 0))
    let moved = canvas.shifted(dx: 2, dy: -1, fill: RGBA(r: 0, g: 0, b: 255))
    #expect(moved.pixel(7, 4) == RGBA(r: 255, g: 0, b: 0))
    #expect(moved.pixel(0, 0) == RGBA(r: 0, g: 0, b: 255))
    #expect(moved.pixel(5, 9) == RGBA(r: 0, g: 0, b: 255))
  }

  @Test func dimming() {
    var canvas = Canvas(width: 2, height: 1, background: RGBA(r: 200, g: 100, b: 50))
    canvas.dim(keeping: 0.5)
    #expect(canvas.pixel(0, 0) == RGBA(r: 100, g: 50, b: 25))
  }
}

@Suite("Page rotation")
struct PageTimerTests {
  @Test func turnsByDurations() {
    var t = PageTimer(durations: [40, 20], now: 0)
    let turned39_9 = t.tick(now: 39.9)
    #expect(!turned39_9)
    let turned40 = t.tick(now: 40)
    #expect(turned40)
    #expect(t.page == 1)
    let turned59 = t.tick(now: 59)
    #expect(!turned59)
    let turned60 = t.tick(now: 60)
    #expect(turned60)
    #expect(t.page == 0)
    t.turn(-1, now: 61)
    #expect(t.page == 1)
    let turned80 = t.tick(now: 80)
    #expect(!turned80, "a key restarts the page's time")
    let turned81 = t.tick(now: 81)
    #expect(turned81)
  }

  @Test func aSinglePageNeverTurns() {
    var t = PageTimer(durations: [30], now: 0)
    let turned1000 = t.tick(now: 1000)
    #expect(!turned1000)
  }
}

import Kiosk
import Raster
import Testing
import WallboardCore

/// The frame scheduler with plain numbers: seconds on a monotonic clock.
@Suite struct FrameSchedulerTests {
  typealias Look = FrameScheduler.Look
  let day = Look()

  @Test func theFirstFrameIsDueAtOnceAndWhole() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    #expect(s.isDue(at: 100, look: day))
    #expect(s.wake(at: 100) == 100, "the first frame wakes at once")
    #expect(s.plan(at: 100, look: day) == .init(draw: true, path: .board(whole: true), power: nil))
    #expect(s.plan(at: 100.01, look: day) == nil, "nothing changed and nothing went stale")
  }

  @Test func anIdleBoardIsDrawnOnlyWhenTheFrameOnTheScreenGoesStale() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = s.plan(at: 10, look: day)
    s.shown(until: 70)
    // A look at the clocks each second, and no frame until the deadline.
    for t in stride(from: 10.0, to: 70, by: 1) {
      #expect(s.wake(at: t) == min(t + 1, 70), "\(t)")
      #expect(s.plan(at: t + 0.5, look: day) == nil, "\(t)")
    }
    #expect(s.plan(at: 70, look: day) == .init(draw: true, path: .board(whole: false), power: nil))
    #expect(s.staleAt == nil, "the new frame holds until the loop says")
    #expect(s.plan(at: 500, look: day) == nil)
  }

  @Test func aFrameThatNeverGoesStaleIsNotDrawnAgain() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30, checkInterval: 5)
    _ = s.plan(at: 0, look: day)
    s.shown(until: nil)
    #expect(s.wake(at: 0) == 5, "only the look at the clocks")
    #expect(s.plan(at: 86_400, look: day) == nil)
  }

  @Test func aStaleFrameWaitsForTheFrameRate() {
    var s = FrameScheduler(minimumInterval: 0.5)
    _ = s.plan(at: 10, look: day)
    s.shown(until: 10.1)
    #expect(s.wake(at: 10) == 10.5)
    #expect(s.plan(at: 10.2, look: day) == nil)
    #expect(s.plan(at: 10.5, look: day) != nil)
  }

  @Test func aChangedLookIsDrawnWithNothingElseDueAndItsTimeWakesTheLoop() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = s.plan(at: 0, look: day)
    s.shown(until: nil)
    let moved = Look(offset: .init(dx: 1, dy: 0))
    #expect(!s.isDue(at: 5, look: day))
    #expect(s.isDue(at: 5, look: moved))
    #expect(s.wake(at: 5, lookChange: 5.25) == 5.25)
    #expect(s.plan(at: 5.25, look: moved)?.path == .screen(whole: true))
  }

  @Test func aChangeIsDrawnAsSoonAsTheFrameRateAllows() {
    var s = FrameScheduler(minimumInterval: 0.25)
    _ = s.plan(at: 10, look: day)
    s.changed()
    #expect(s.wake(at: 10.1) == 10.25)
    #expect(s.plan(at: 10.2, look: day) == nil, "held back by the frame rate")
    #expect(s.plan(at: 10.25, look: day)?.path == .board(whole: false))
    // A change that comes late is drawn at once.
    s.changed()
    #expect(s.wake(at: 12) == 12)
    #expect(s.plan(at: 12, look: day) != nil)
  }

  @Test func thePageTurnAndTheEventLookWakeTheLoopSooner() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30, pollInterval: 0.1)
    _ = s.plan(at: 5, look: day)
    #expect(s.wake(at: 5, pageTurn: 5.05) == 5.05)
    #expect(s.wake(at: 5.5) == 5.6)
    var quiet = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = quiet.plan(at: 5, look: day)
    #expect(quiet.wake(at: 5.5, pageTurn: 30) == 6.5, "a second on, for a look at the clocks")
    #expect(quiet.wake(at: 7, pageTurn: 6.5) == 7, "a deadline already past wakes at once")
  }

  @Test func aMovedBoardGoesThroughAScreenFrameUnlessTheDisplayMovesIt() {
    let moved = Look(offset: .init(dx: 3, dy: -2))
    var plain = FrameScheduler(minimumInterval: 1.0 / 30)
    #expect(plain.plan(at: 0, look: moved)?.path == .screen(whole: true))
    plain.changed()
    #expect(plain.plan(at: 1, look: moved)?.path == .screen(whole: false), "the kept frame is updated")
    #expect(plain.plan(at: 2, look: Look(offset: .init(dx: 4, dy: -2)))?.path == .screen(whole: true))
    var fb = FrameScheduler(minimumInterval: 1.0 / 30, movesFrames: true)
    #expect(fb.plan(at: 0, look: moved)?.path == .board(whole: true))
    fb.changed()
    #expect(fb.plan(at: 1, look: moved)?.path == .board(whole: false))
    #expect(fb.plan(at: 2, look: day)?.path == .board(whole: true), "moved back: presented whole")
  }

  @Test func aTurnedBoardAlwaysGoesThroughAScreenFrame() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30, rotated: true, movesFrames: true)
    #expect(s.plan(at: 0, look: day)?.path == .screen(whole: true))
    s.changed()
    #expect(s.plan(at: 1, look: day)?.path == .screen(whole: false))
    s.invalidate()
    #expect(s.plan(at: 1.05, look: day)?.path == .screen(whole: true), "a lost screen is presented whole")
  }

  @Test func dimmingAndANewBackgroundArePresentedWhole() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = s.plan(at: 0, look: day)
    let dim = Look(night: .dim(0.4))
    #expect(s.plan(at: 1, look: dim)?.path == .screen(whole: true))
    s.changed()
    #expect(s.plan(at: 2, look: dim)?.path == .screen(whole: false))
    #expect(s.plan(at: 3, look: day)?.path == .board(whole: true))
    #expect(s.plan(at: 4, look: Look(background: RGBA(r: 9, g: 9, b: 9)))?.path == .board(whole: true))
  }

  @Test func theNightBlankTurnsTheOutputOffAndDrawsNothingUntilMorning() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = s.plan(at: 0, look: day)
    let blank = Look(night: .blank)
    #expect(s.plan(at: 1, look: blank) == .init(draw: true, path: .screen(whole: true), power: false))
    s.powered(off: true)
    for t in 2..<10 {
      #expect(s.plan(at: Double(t), look: blank) == nil, "nothing is planned while the night lasts")
    }
    s.changed()
    #expect(
      s.plan(at: 10.5, look: blank) == .init(draw: false, path: .none, power: nil), "an input at night draws nothing")
    #expect(s.plan(at: 11.5, look: day) == .init(draw: true, path: .board(whole: true), power: true))
    #expect(!s.poweredOff)
    s.changed()
    #expect(s.plan(at: 12.5, look: day)?.path == .board(whole: false))
  }

  @Test func aDisplayThatCannotTurnOffKeepsItsBlackFrame() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    let blank = Look(night: .blank)
    #expect(s.plan(at: 0, look: blank)?.power == false)
    s.powered(off: false)
    #expect(s.plan(at: 1, look: blank) == nil)
    s.changed()
    #expect(s.plan(at: 1.5, look: blank) == .init(draw: false, path: .none, power: nil), "the black frame stays")
    #expect(s.plan(at: 2, look: day) == .init(draw: true, path: .board(whole: true), power: nil))
  }
}

@Suite struct PixelShiftMoveTests {
  /// The next move is the first millisecond whose offset differs, for periods that divide a
  /// second evenly and ones that do not.
  @Test(arguments: [180.0, 7.3, 0.25])
  func theNextMoveIsTheFirstMillisecondOfTheNextPosition(period: Double) {
    let shift = PixelShift(period: period)
    for k in Int64(0)..<50 {
      let t = Instant(millis: 1_780_000_000_000 + k * 3_917)
      let next = shift.nextMove(after: t)
      let here = shift.offset(at: t, width: 1920, height: 1080)
      #expect(next > t)
      #expect(shift.offset(at: Instant(millis: next.millis - 1), width: 1920, height: 1080) == here, "\(t)")
      #expect(shift.offset(at: next, width: 1920, height: 1080) != here, "\(t) → \(next)")
    }
  }
}

@Suite struct PageTimerReloadTests {
  @Test func aLayoutReloadedWithFewerPagesLeavesTheTimerOnItsLast() {
    var timer = PageTimer(durations: [10, 10, 10], now: 0)
    timer.turn(2, now: 1)
    #expect(timer.page == 2)
    timer.durations = [10, 10]
    #expect(timer.page == 1)
    #expect(timer.nextTurn == 11)
    let turned = timer.tick(now: 11)
    #expect(turned && timer.page == 0)
  }
}

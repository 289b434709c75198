import Kiosk
import Raster
import Testing

/// The frame scheduler with plain numbers: seconds on a monotonic clock.
@Suite struct FrameSchedulerTests {
  typealias Look = FrameScheduler.Look
  let day = Look()

  @Test func theFirstFrameIsDueAtOnceAndWhole() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    #expect(s.isDue(at: 100))
    #expect(s.plan(at: 100, look: day) == .init(draw: true, path: .board(whole: true), power: nil))
    #expect(s.plan(at: 100.01, look: day) == nil, "nothing changed and the tick is a second away")
  }

  @Test func anIdleBoardIsDrawnOnceASecondAndSleepsUntilThen() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = s.plan(at: 10, look: day)
    #expect(s.wake(at: 10.2) == 11)
    #expect(s.plan(at: 10.99, look: day) == nil)
    #expect(s.plan(at: 11, look: day) == .init(draw: true, path: .board(whole: false), power: nil))
    #expect(s.wake(at: 11) == 12)
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
    #expect(quiet.wake(at: 5.5, pageTurn: 30) == 6)
    #expect(quiet.wake(at: 7, pageTurn: 6.5) == 7, "a deadline already past wakes at once")
  }

  @Test func aMovedBoardGoesThroughAScreenFrameUnlessTheDisplayMovesIt() {
    let moved = Look(offset: .init(dx: 3, dy: -2))
    var plain = FrameScheduler(minimumInterval: 1.0 / 30)
    #expect(plain.plan(at: 0, look: moved)?.path == .screen(whole: true))
    #expect(plain.plan(at: 1, look: moved)?.path == .screen(whole: false), "the kept frame is updated")
    #expect(plain.plan(at: 2, look: Look(offset: .init(dx: 4, dy: -2)))?.path == .screen(whole: true))
    var fb = FrameScheduler(minimumInterval: 1.0 / 30, movesFrames: true)
    #expect(fb.plan(at: 0, look: moved)?.path == .board(whole: true))
    #expect(fb.plan(at: 1, look: moved)?.path == .board(whole: false))
    #expect(fb.plan(at: 2, look: day)?.path == .board(whole: true), "moved back: presented whole")
  }

  @Test func aTurnedBoardAlwaysGoesThroughAScreenFrame() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30, rotated: true, movesFrames: true)
    #expect(s.plan(at: 0, look: day)?.path == .screen(whole: true))
    #expect(s.plan(at: 1, look: day)?.path == .screen(whole: false))
    s.invalidate()
    #expect(s.plan(at: 1.05, look: day)?.path == .screen(whole: true), "a lost screen is presented whole")
  }

  @Test func dimmingAndANewBackgroundArePresentedWhole() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    _ = s.plan(at: 0, look: day)
    let dim = Look(night: .dim(0.4))
    #expect(s.plan(at: 1, look: dim)?.path == .screen(whole: true))
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
      #expect(s.plan(at: Double(t), look: blank) == .init(draw: false, path: .none, power: nil))
    }
    s.changed()
    #expect(s.plan(at: 10.5, look: blank)?.draw == false, "an input at night draws nothing")
    #expect(s.plan(at: 11.5, look: day) == .init(draw: true, path: .board(whole: true), power: true))
    #expect(!s.poweredOff)
    #expect(s.plan(at: 12.5, look: day)?.path == .board(whole: false))
  }

  @Test func aDisplayThatCannotTurnOffKeepsItsBlackFrame() {
    var s = FrameScheduler(minimumInterval: 1.0 / 30)
    let blank = Look(night: .blank)
    #expect(s.plan(at: 0, look: blank)?.power == false)
    s.powered(off: false)
    #expect(s.plan(at: 1, look: blank) == .init(draw: false, path: .none, power: nil))
    #expect(s.plan(at: 2, look: day) == .init(draw: true, path: .board(whole: true), power: nil))
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

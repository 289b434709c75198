import Clock
import Foundation
import TestSupport
import Testing
import WallboardCore

@Suite struct MonotonicTests {
  @Test func addsAndMeasuresSeconds() {
    let d = Monotonic(seconds: 10)
    #expect(d.adding(seconds: 2.5).seconds(since: d) == 2.5)
    #expect(d.adding(seconds: -1) < d)
    #expect(d.adding(seconds: .infinity) == Monotonic(nanoseconds: .max))
  }
}

@Suite struct SystemClockTests {
  @Test func monotonicNeverGoesBack() {
    let a = Clock.system.monotonic()
    let b = Clock.system.monotonic()
    #expect(a <= b)
  }

  @Test func aPastDeadlineReturnsAtOnce() {
    let c = Condition()
    c.lock()
    defer { c.unlock() }
    #expect(!Clock.system.wait(until: Clock.system.monotonic().adding(seconds: -1), on: c))
  }

  @Test func stampingKeepsTheMonotonicTime() {
    let sim = Clock.system.stamping { Instant(seconds: 42) }
    #expect(sim.now() == Instant(seconds: 42))
    #expect(sim.monotonic() >= Clock.system.monotonic().adding(seconds: -1))
  }
}

@Suite struct TestClockTests {
  @Test func advanceMovesBothTimes() {
    let t = TestClock(start: Instant(seconds: 100))
    t.advance(by: 1.5)
    #expect(t.clock.now() == Instant(millis: 101_500))
    #expect(t.clock.monotonic() == Monotonic(seconds: 1.5))
  }

  @Test func aWaiterIsReleasedWhenItsDeadlinePasses() {
    let t = TestClock()
    let clock = t.clock
    let done = NSCondition()
    nonisolated(unsafe) var result: Bool?
    let thread = Thread {
      let c = Condition()
      c.lock()
      let r = clock.wait(until: Monotonic(seconds: 5), on: c)
      c.unlock()
      done.withLock {
        result = r
        done.broadcast()
      }
    }
    thread.start()
    #expect(t.waitForWaiters(1))
    t.advance(by: 4)
    // Not due yet: still waiting.
    #expect(t.waiting == 1)
    #expect(done.withLock { result } == nil)
    t.advance(by: 1)
    done.lock()
    while result == nil { _ = done.wait(until: Date(timeIntervalSinceNow: 10)) }
    done.unlock()
    #expect(result == false)
    #expect(t.waiting == 0)
  }

  @Test func aSignalWakesAWaiterEarly() {
    let t = TestClock()
    let clock = t.clock
    let c = Condition()
    let done = NSCondition()
    nonisolated(unsafe) var result: Bool?
    let thread = Thread {
      c.lock()
      let r = clock.wait(until: Monotonic(seconds: 60), on: c)
      c.unlock()
      done.withLock {
        result = r
        done.broadcast()
      }
    }
    thread.start()
    #expect(t.waitForWaiters(1))
    c.withLock { c.broadcast() }
    done.lock()
    while result == nil { _ = done.wait(until: Date(timeIntervalSinceNow: 10)) }
    done.unlock()
    #expect(result == true)
  }

  @Test func sleepReturnsWhenAdvancedPast() {
    let t = TestClock()
    let clock = t.clock
    let done = NSCondition()
    nonisolated(unsafe) var woke = false
    Thread {
      clock.sleep(seconds: 30)
      done.withLock {
        woke = true
        done.broadcast()
      }
    }.start()
    #expect(t.waitForWaiters(1))
    t.advance(by: 30)
    done.lock()
    while !woke { _ = done.wait(until: Date(timeIntervalSinceNow: 10)) }
    done.unlock()
    #expect(woke)
  }
}

@Suite struct WaitForTests {
  @Test func aWaitForEndsWhenItsConditionHoldsOrAtTheDeadline() {
    let clock = Clock.system
    let condition = Condition()
    final class Flag: @unchecked Sendable { var set = false }
    let flag = Flag()
    condition.lock()
    #expect(!clock.wait(until: clock.monotonic().adding(seconds: 0.05), on: condition) { flag.set }, "the deadline")
    condition.unlock()
    Thread {
      Thread.sleep(forTimeInterval: 0.05)
      condition.lock()
      flag.set = true
      condition.broadcast()
      condition.unlock()
    }.start()
    condition.lock()
    #expect(clock.wait(until: clock.monotonic().adding(seconds: 10), on: condition) { flag.set }, "signalled")
    condition.unlock()
  }
}

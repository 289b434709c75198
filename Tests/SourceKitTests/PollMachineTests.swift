import Clock
import SourceKit
import Testing
import WallboardCore

/// The one polling machine every file source runs on, stepped with plain instants.
@Suite struct PollMachineTests {
  let t0 = Monotonic(nanoseconds: 1_000_000_000)
  let wall = Instant(millis: 1_800_000_000_000)

  func at(_ s: Double) -> Monotonic { t0.adding(seconds: s) }

  @Test func itLooksAtOnceThenWhenTheLookAskedOrSomethingChanged() {
    var m = PollMachine(backoff: Backoff(seed: 1))
    #expect(m.on(.start, at: at(0), stamp: wall) == [.look])
    #expect(m.nextWake == nil, "no wake while the look is made")
    #expect(m.on(.looked(.read(next: 2)), at: at(0.1), stamp: wall) == [])
    #expect(m.nextWake == at(2.1))
    #expect(m.on(.tick, at: at(1), stamp: wall) == [], "not due yet")
    #expect(m.on(.tick, at: at(2.1), stamp: wall) == [.look])
    _ = m.on(.looked(.read(next: 60)), at: at(2.2), stamp: wall)
    #expect(m.on(.changed, at: at(3), stamp: wall) == [.look], "a change is looked at now")
  }

  @Test func failuresInARowBackOffAndAReadEndsIt() {
    var m = PollMachine(backoff: Backoff(initial: 1, max: 30, jitter: 0, seed: 1))
    _ = m.on(.start, at: at(0), stamp: wall)
    var waits: [Double] = []
    var now = at(0)
    for _ in 0..<6 {
      _ = m.on(.looked(.failed(next: 1, spent: 0)), at: now, stamp: wall)
      let due = m.nextWake!
      waits.append(due.seconds(since: now))
      #expect(m.retryAt == wall.adding(seconds: due.seconds(since: now)))
      #expect(m.on(.tick, at: due, stamp: wall) == [.look])
      now = due
    }
    #expect(waits == [1, 2, 4, 8, 16, 30])
    #expect(m.failures == 6)
    _ = m.on(.looked(.read(next: 1)), at: now, stamp: wall)
    #expect(m.failures == 0)
    #expect(m.retryAt == nil)
  }

  @Test func aSlowFailureWaitsFourTimesWhatItTook() {
    var m = PollMachine(backoff: Backoff(initial: 1, max: 30, jitter: 0, seed: 1))
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.looked(.failed(next: 1, spent: 20)), at: at(20), stamp: wall)
    #expect(m.nextWake == at(100))
  }

  @Test func aStopOrAnEndStopsItAndNothingAfterMovesIt() {
    for last in [PollMachine.Input.stop, .looked(.ended)] {
      var m = PollMachine(backoff: Backoff(seed: 1))
      _ = m.on(.start, at: at(0), stamp: wall)
      #expect(m.on(last, at: at(1), stamp: wall) == [])
      #expect(m.isStopped)
      #expect(m.nextWake == nil)
      #expect(m.on(.changed, at: at(2), stamp: wall) == [])
      #expect(m.on(.start, at: at(3), stamp: wall) == [])
    }
  }
}

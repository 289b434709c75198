import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// The live simulation on a `TestClock`: it waits on the clock it is given, so a test steps
/// time and sees the events due, with no real sleep.
@Suite struct SimDriverClockTests {
  final class Box: @unchecked Sendable {
    let lock = NSLock()
    var events: [Event] = []
    func append(_ i: BoardInput) { if case .event(let e) = i { lock.withLock { events.append(e) } } }
    var count: Int { lock.withLock { events.count } }
    var last: Event? { lock.withLock { events.last } }
  }

  @Test func steppingTheClockDeliversWhatIsDueAndNothingMore() throws {
    let time = TestClock()
    let team = SimulatedTeam(seed: 3)
    let driver = SimDriver(team: team, origin: "sim", speed: 600, clock: time.clock)
    let box = Box()
    driver.start(deliver: box.append)
    defer {
      driver.stop()
      time.advance(by: 1)
    }
    // The first burst (everything up to the team's present), then a wait on the clock.
    #expect(time.waitForWaiters(1))
    let burst = box.count
    #expect(burst > 0)
    // Held still, the clock delivers nothing more and the simulated time stands.
    let held = driver.simulatedNow()
    usleep(50_000)
    #expect(box.count == burst)
    #expect(driver.simulatedNow() == held)
    // Stepped, the simulated clock moves 600 times as far, and the events up to it arrive.
    var stepped = 0.0
    while box.count == burst && stepped < 600 {
      time.advance(by: 0.25)
      stepped += 0.25
      #expect(time.waitForWaiters(1))
    }
    // The driver's thread may not have run yet on a busy machine: what is due comes when it does.
    for _ in 0..<1000 where box.count == burst { usleep(10_000) }
    #expect(box.count > burst, "events came once their time was stepped to")
    let last = try #require(box.last)
    #expect(last.time <= driver.simulatedNow())
  }
}

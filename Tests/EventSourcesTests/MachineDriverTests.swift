import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// A machine that wants a tick every 10 s and asks its shell for an answer to every poke.
struct Toy: SourceMachine {
  enum Input: Hashable, Sendable {
    case start, tick, stop
    case poke(Int)
    case answer(Int)
  }
  enum Action: Hashable, Sendable { case ask(Int) }

  static var start: Input { .start }
  static var stop: Input { .stop }
  static var tick: Input { .tick }

  var log: [String] = []
  var nextWake: Monotonic?
  var isStopped = false

  mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action] {
    log.append("\(input)@\(Int(now.seconds))")
    switch input {
    case .start: nextWake = now.adding(seconds: 10)
    case .tick: if let w = nextWake, now >= w { nextWake = now.adding(seconds: 10) }
    case .poke(let n): return [.ask(n)]
    case .answer: break
    case .stop:
      isStopped = true
      nextWake = nil
    }
    return []
  }
}

/// Answers every ask at once; reads nothing of its own (the driver waits itself).
final class ToyShell: MachineShell, @unchecked Sendable {
  typealias Machine = Toy
  private let lock = NSLock()
  private var done = false
  var finished: Bool { lock.withLock { done } }

  func perform(_ action: Toy.Action) -> [Toy.Input] {
    switch action {
    case .ask(let n): [.answer(n)]
    }
  }
  func await(until deadline: Monotonic) -> [Toy.Input]? { nil }
  func interrupt(stopping: Bool) {}
  func finish() { lock.withLock { done = true } }
}

/// Issue 22, item 3: the one driver of every source's machine — its wake on the machine's
/// deadline (on the injected clock), its order, its stop.
@Suite("The machine driver")
struct MachineDriverTests {
  /// Waits up to 5 real seconds for `condition`.
  static func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<500 {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
  }

  @Test func wakesAtTheMachinesDeadlineOnTheClockAndNotBefore() throws {
    let clock = TestClock()
    let driver = MachineDriver(Toy(), clock: clock.clock, name: "toy")
    let shell = ToyShell()
    driver.start(shell)
    defer { driver.stop() }
    #expect(clock.waitForWaiters(1), "the driver waits on the clock")
    #expect(driver.current.log == ["start@0"])
    clock.advance(by: 9.5)
    Thread.sleep(forTimeInterval: 0.1)
    #expect(driver.current.log == ["start@0"], "9.5 s is not 10")
    clock.advance(by: 0.5)
    #expect(Self.eventually { driver.current.log == ["start@0", "tick@10"] })
    #expect(driver.current.nextWake == Monotonic(seconds: 20))
  }

  @Test func theAnswersOfAnInputComeBeforeWhatWasPostedAfterIt() throws {
    let clock = TestClock()
    let driver = MachineDriver(Toy(), clock: clock.clock, name: "toy")
    let shell = ToyShell()
    driver.start(shell)
    defer { driver.stop() }
    #expect(clock.waitForWaiters(1))
    driver.post(.poke(1))
    driver.post(.poke(2))
    #expect(Self.eventually { driver.current.log.count == 5 })
    #expect(driver.current.log == ["start@0", "poke(1)@0", "answer(1)@0", "poke(2)@0", "answer(2)@0"])
  }

  @Test func stopComesFirstEndsTheThreadAndFinishesTheShell() throws {
    let clock = TestClock()
    let driver = MachineDriver(Toy(), clock: clock.clock, name: "toy")
    let shell = ToyShell()
    driver.start(shell)
    #expect(clock.waitForWaiters(1))
    driver.stop()
    driver.post(.poke(9))
    #expect(Self.eventually { shell.finished })
    #expect(driver.current.isStopped)
    #expect(driver.current.log == ["start@0", "stop@0"], "nothing is taken after the stop")
    #expect(clock.waiting == 0, "the thread waits no more")
  }
}

import Clock
import Foundation
import Testing

/// The pthread lock, condition and thread start that stand in for Foundation's.
@Suite struct ThreadsTests {
  /// What the threads share, under the test's lock or condition.
  final class Shared: @unchecked Sendable {
    var done = false
    var name = ""
    var total = 0
    var finished = 0
  }

  static func monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
  }

  @Test func aTimedWaitEndsAtItsMonotonicDeadlineSayingSo() {
    let c = Condition()
    let start = Self.monotonicNanoseconds()
    c.lock()
    let signalled = c.wait(untilMonotonicNanoseconds: start + 50_000_000)
    c.unlock()
    #expect(!signalled)
    #expect(Self.monotonicNanoseconds() - start >= 50_000_000, "not before the deadline")
  }

  @Test func aThreadStartedByNameRunsAndItsSignalEndsTheWait() {
    let c = Condition()
    let s = Shared()
    c.lock()
    Threads.start(named: "a-name-longer-than-fifteen") {
      let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
      c.withLock {
        s.name = comm.trimmingCharacters(in: .newlines)
        s.done = true
        c.signal()
      }
    }
    let deadline = Self.monotonicNanoseconds() + 10_000_000_000
    while !s.done && c.wait(untilMonotonicNanoseconds: deadline) {}
    c.unlock()
    #expect(s.done, "the thread ran and its signal woke the wait")
    #expect(s.name == "a-name-longer-t", "the kernel keeps the first 15 bytes")
  }

  @Test func aLockKeepsItsCountersWhole() {
    let lock = Lock()
    let c = Condition()
    let s = Shared()
    for _ in 0..<4 {
      Threads.start(named: "adder") {
        for _ in 0..<10_000 { lock.withLock { s.total += 1 } }
        c.withLock {
          s.finished += 1
          c.signal()
        }
      }
    }
    let deadline = Self.monotonicNanoseconds() + 10_000_000_000
    c.lock()
    while s.finished < 4 && c.wait(untilMonotonicNanoseconds: deadline) {}
    c.unlock()
    #expect(s.finished == 4)
    #expect(lock.withLock { s.total } == 40_000)
  }
}

import Clock
import Foundation
import Synchronization
import TestSupport
import Testing
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// A source that outruns the board waits; memory stays bounded.
@Suite("The inbox")
struct InboxTests {
  static func input(_ i: Int) -> BoardInput {
    .rejected(origin: "flood", at: Instant(millis: Int64(i)), reason: "line \(i): not JSON")
  }

  /// The loop's sleep ends when an input comes, or a stop or reload signal (the handler's byte
  /// on the process's signal pipe), not at its deadline; and lasts to the deadline otherwise.
  /// One case at a time: the "signal" case's bytes on the one pipe would wake the "nothing" one.
  @Test(.serialized, arguments: ["input", "signal", "nothing"])
  func theSleepEndsAtAnInputOrASignal(_ wake: String) {
    let inbox = Inbox(capacity: 10, clock: .system)
    _ = inbox.take()
    inbox.wait(timeout: 0)  // empties the pipes of what came before
    let started = Date()
    let done = Atomic<Bool>(false)
    let writerEnded = DispatchSemaphore(value: 0)
    if wake != "nothing" {
      Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 0.05)
        if wake == "input" { inbox.put(Self.input(1)) }
        // Another test's loop in this process may take a byte of the one signal pipe first:
        // a byte every 50 ms until this wait has ended.
        while wake == "signal" && !done.load(ordering: .relaxed) {
          Wakeup.signal(Wakeup.signals.write)
          Thread.sleep(forTimeInterval: 0.05)
        }
        writerEnded.signal()
      }
    }
    inbox.wait(timeout: wake == "nothing" ? 0.3 : 20)
    done.store(true, ordering: .relaxed)
    let waited = Date().timeIntervalSince(started)
    if wake != "nothing" {
      // No byte of this case's may be left for the next one.
      #expect(writerEnded.wait(timeout: .now() + 10) == .success)
      inbox.wait(timeout: 0)
    }
    if wake == "nothing" {
      #expect(waited >= 0.29, "slept to its deadline")
    } else {
      #expect(waited < 10, "woken by the \(wake), not the 20 s deadline")
    }
  }

  @Test func aFloodWaitsForTheBoardInsteadOfGrowing() throws {
    let inbox = Inbox(capacity: 100, clock: .system)
    let done = DispatchSemaphore(value: 0)
    let flood = Thread {
      for i in 0..<20_000 { inbox.put(Self.input(i)) }
      done.signal()
    }
    flood.start()
    // The board takes nothing until the inbox is full: the flood must wait, however the
    // threads are scheduled.
    let full = Date().addingTimeInterval(30)
    while inbox.highWater < 100 && Date() < full { Thread.sleep(forTimeInterval: 0.001) }
    var taken = 0
    var order: [Instant] = []
    while taken < 20_000 {
      inbox.wait(timeout: 0.01)
      let batch = inbox.take()
      taken += batch.count
      for case .rejected(_, let at, _, _) in batch { order.append(at) }
      #expect(batch.count <= 100)
    }
    done.wait()
    #expect(inbox.highWater <= 100)
    #expect(inbox.waits > 0, "the flood had to wait")
    #expect(order == (0..<20_000).map { Instant(millis: Int64($0)) }, "nothing lost, nothing reordered")
  }

  @Test func closingWakesAWaitingSource() {
    let inbox = Inbox(capacity: 1, clock: .system)
    inbox.put(Self.input(0))
    let done = DispatchSemaphore(value: 0)
    let source = Thread {
      inbox.put(Self.input(1))  // waits: the inbox is full
      done.signal()
    }
    source.start()
    #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
    inbox.close()
    #expect(done.wait(timeout: .now() + 2) == .success)
    #expect(inbox.take().count == 1)
  }
}

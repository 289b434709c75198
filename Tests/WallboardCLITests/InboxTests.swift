import Foundation
import TestSupport
import Testing
import WallboardCore

@testable import WallboardCLI

/// A source that outruns the board waits; memory stays bounded.
@Suite("The inbox")
struct InboxTests {
  static func input(_ i: Int) -> BoardInput {
    .rejected(origin: "flood", at: Instant(millis: Int64(i)), reason: "line \(i): not JSON")
  }

  @Test func aFloodWaitsForTheBoardInsteadOfGrowing() throws {
    let inbox = Inbox(capacity: 100)
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
    let inbox = Inbox(capacity: 1)
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

import Foundation
import Journal
import TestSupport
import Testing
import WallboardCore

/// The size bound against a feed whose every input falls inside the retention window, and the
/// writer's queue against a producer faster than the disk.
@Suite("The journal's bound and queue under load")
struct JournalBoundTests {
  /// db, -wal and -shm together.
  static func onDisk(_ path: String) -> Int64 {
    [path, path + "-wal", path + "-shm"].map { p in
      (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int64) ?? 0
    }.reduce(0, +)
  }

  /// `count` inputs within an hour (the flow's window keeps them all): 40 features with long
  /// titles, then status changes to them round robin, each carrying a long title too.
  static func hourOfInputs(_ count: Int) -> [BoardInput] {
    let start = Make.t("2026-11-10T09:00:00Z")
    let statuses = ["todo", "in-progress", "in-review", "done"]
    let long = String(repeating: "a long title that fills the row ", count: 6)
    return (0..<count).map { n in
      let time = start.adding(seconds: Double(n) * 3600 / Double(count))
      let id = "F-\(n % 40)"
      var patch = FeaturePatch(id: id, status: statuses[(n / 40) % 4])
      patch.title = "\(id) \(n) \(long)"
      let body: Event.Body =
        n < 40 ? .featureCreated(Feature(id: id, title: "\(id) \(long)", status: "todo")) : .featureUpdated(patch)
      return .event(Event(origin: "load", seq: Int64(n + 1), time: time, body: body))
    }
  }

  @Test func aFeedInsideTheWindowIsStillHeldToTheBound() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let retention = Retention(previousSprints: 3, flowDays: 14, maxBytes: 1_000_000)
    let inputs = Self.hourOfInputs(24_000)
    let writer = try JournalWriter(path: path, retention: retention, snapshotEvery: 1_000)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    writer.start()
    var largest: Int64 = 0
    // Batches of 500 inputs (150 kB, under an eighth of the bound: the margin's condition).
    for chunk in stride(from: 0, to: inputs.count, by: 500) {
      store.apply(inputs[chunk..<min(chunk + 500, inputs.count)])
      writer.flush()
      largest = max(largest, Self.onDisk(path))
    }
    writer.close(final: store.state, at: store.clock!)
    // Every input fell inside the window; the size won: older ones are in the base snapshot.
    let margin = JournalWriter.boundMargin(for: retention)
    #expect(largest <= retention.maxBytes + margin, "the journal reached \(largest) bytes")
    #expect(Self.onDisk(path) <= retention.maxBytes + margin, "the journal is \(Self.onDisk(path)) bytes")
    #expect(writer.status.compactions > 0)
    #expect(writer.status.overBound == false)
    // The board, with its whole history, is what the journal gives back.
    let file = try JournalFile(path: path, mode: .read)
    #expect(try file.compactedThrough() > 0, "it compacted inside the window")
    #expect(try file.integrityCheck() == "ok")
    #expect(try JournalFixture.played(path).0 == store.state)
  }

  @Test func theQueueNeverHoldsMoreThanItsBound() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let writer = try JournalWriter(path: path, snapshotEvery: 1_000_000, maxPending: 300)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    // Not started: nothing drains the queue, as if the disk hung, while 5,000 inputs arrive.
    var deepest = 0
    for input in Self.hourOfInputs(5_000) {
      store.apply(input)
      deepest = max(deepest, writer.queueDepth)
    }
    #expect(deepest <= 300, "the queue held \(deepest) inputs")
    writer.start()
    writer.close(final: store.state, at: store.clock!)
    #expect(writer.status.dropped > 0, "dropped, and said")
    #expect(try JournalFixture.played(path).0 == store.state, "the gap snapshot keeps the board true")
  }
}

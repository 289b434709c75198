import Clock
import Foundation
import Journal
import SQLite
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

  /// `count` inputs within an hour (the flow's window keeps them all): `features` features with
  /// long titles, then status changes to them round robin, each carrying a long title too.
  static func hourOfInputs(_ count: Int, features: Int = 40) -> [BoardInput] {
    let start = Make.t("2026-11-10T09:00:00Z")
    let statuses = ["todo", "in-progress", "in-review", "done"]
    let long = String(repeating: "a long title that fills the row ", count: 6)
    return (0..<count).map { n in
      let time = start.adding(seconds: Double(n) * 3600 / Double(count))
      let id = "F-\(n % features)"
      var patch = FeaturePatch(id: id, status: statuses[(n / features) % 4])
      patch.title = "\(id) \(n) \(long)"
      let body: Event.Body =
        n < features ? .featureCreated(Feature(id: id, title: "\(id) \(long)", status: "todo")) : .featureUpdated(patch)
      return .event(Event(origin: "load", seq: Int64(n + 1), time: time, body: body))
    }
  }

  /// The largest `onDisk(path)` seen while `body` runs, sampled every half a millisecond from a
  /// thread of its own: a compaction's log lasts a few milliseconds before it is cut back, and
  /// samples between writes would never see it.
  static func peakOnDisk(_ path: String, during body: () throws -> Void) rethrows -> Int64 {
    final class Sampler: @unchecked Sendable {
      let lock = NSLock()
      var peak: Int64 = 0
      var running = true
      let done = DispatchSemaphore(value: 0)
    }
    let sampler = Sampler()
    Thread.detachNewThread {
      while sampler.lock.withLock({ sampler.running }) {
        let now = onDisk(path)
        sampler.lock.withLock { sampler.peak = max(sampler.peak, now) }
        usleep(500)
      }
      sampler.done.signal()
    }
    defer {
      sampler.lock.withLock { sampler.running = false }
      sampler.done.wait()
    }
    try body()
    return sampler.lock.withLock { max(sampler.peak, onDisk(path)) }
  }

  @Test func aFeedInsideTheWindowIsStillHeldToTheBound() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let retention = Retention(previousSprints: 3, flowDays: 14, maxBytes: 2_000_000)
    let inputs = Self.hourOfInputs(30_000, features: 20)
    let writer = try JournalWriter(path: path, retention: retention, snapshotEvery: 1_000, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    writer.start()
    // Batches of 250 inputs (75 kB).
    let largest = Self.peakOnDisk(path) {
      for chunk in stride(from: 0, to: inputs.count, by: 250) {
        store.apply(inputs[chunk..<min(chunk + 250, inputs.count)])
        writer.flush()
      }
    }
    writer.close(final: store.state, at: store.clock!)
    // Every input fell inside the window; the size won: older ones are in the base snapshot.
    let file = try JournalFile(path: path, mode: .read)
    let board = try file.latestBoardBytes()
    // The board is small beside the bound: the journal keeps to the bound itself, no margin.
    #expect(JournalWriter.boundMargin(for: retention, board: board, write: 80_000) == 0, "a \(board)-byte board")
    #expect(largest <= retention.maxBytes, "the journal reached \(largest) bytes")
    #expect(Self.onDisk(path) <= retention.maxBytes, "the journal is \(Self.onDisk(path)) bytes")
    #expect(writer.status.compactions > 1)
    #expect(writer.status.overBound == false)
    // The board, with its whole history, is what the journal gives back.
    #expect(try file.compactedThrough() > 0, "it compacted inside the window")
    #expect(try file.integrityCheck() == "ok")
    #expect(try JournalFixture.played(path).0 == store.state)
  }

  /// A compaction deletes the inputs its new base holds a few at a time, after the base: killed
  /// between those deletes, it leaves rows the base holds already. Nothing reads them twice, and
  /// the next compaction deletes them.
  @Test func aCompactionStoppedBetweenItsDeletesLosesNothing() throws {
    let dir = try TempDir()
    let whole = dir.url.appendingPathComponent("whole.db").path
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = Self.hourOfInputs(6_000, features: 20)
    let end = inputs.compactMap { if case .event(let e) = $0 { e.time } else { nil } }.max()!
    let live = try JournalFixture.write(inputs, to: whole, retention: Retention(maxBytes: 1 << 30), snapshotEvery: 400)
    try FileManager.default.copyItem(atPath: whole, toPath: path)
    let through: Int64
    do {
      let file = try JournalFile(path: path, mode: .write)
      // Every input inside the window: the size wins, and the oldest go into a base.
      let small = Retention(previousSprints: 0, flowDays: 3, maxBytes: try file.bytesInUse() * 3 / 4)
      let c = try file.compact(retention: small, state: live, at: end)
      #expect(c.inputsRemoved > 0)
      through = try file.compactedThrough()
    }
    #expect(through > 0)
    // The rows the base holds, back as a kill between the deletes leaves them.
    let db = try Database(path: path, mode: .readWrite(create: false))
    try db.execute("ATTACH DATABASE '\(whole)' AS whole")
    try db.execute("INSERT INTO inputs SELECT * FROM whole.inputs WHERE id <= \(through) AND id > \(through / 2)")
    try db.execute("DETACH DATABASE whole")
    let left = try db.scalar("SELECT count(*) FROM inputs WHERE id <= \(through)")?.integer ?? 0
    #expect(left > 0)
    // Read by nothing: the board is the one the whole journal gives.
    #expect(try JournalFixture.played(path).0 == live)
    #expect(try JournalFixture.played(path, through: nil, settings: nil).0 == live)
    // The next compaction deletes them, the bound or not.
    let file = try JournalFile(path: path, mode: .write)
    let c = try file.compact(retention: Retention(maxBytes: 1 << 30), state: live, at: end)
    #expect(c.inputsRemoved == left)
    let range = try file.inputRange()
    #expect(range.count > 0 && range.first > through, "\(range) after \(through)")
    #expect(try file.integrityCheck() == "ok")
    #expect(try JournalFixture.played(path).0 == live)
  }

  @Test func theQueueNeverHoldsMoreThanItsBound() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let writer = try JournalWriter(path: path, snapshotEvery: 1_000_000, maxPending: 300, clock: .system)
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

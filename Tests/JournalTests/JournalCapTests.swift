import Clock
import Codec
import EventSources
import Foundation
import SQLite
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import Journal

/// The journal reads back what it writes: one cap on both sides, and a row that cannot be read
/// skipped by name while the rest is read.
@Suite("The journal's cap, and its unreadable rows")
struct JournalCapTests {
  /// A workspace snapshot of `features` features with `labels` labels of `labelBytes` each:
  /// 20 × 1,000 × 480 B is 9.6 MB encoded, the class of a 100,000-file tree (9.4 MB).
  static func bigSnapshot(features: Int = 20, labels: Int = 1_000, labelBytes: Int = 480) -> BoardInput {
    let list = { (f: Int) in
      (0..<labels).map { l in "label-\(f)-\(l)-" + String(repeating: "x", count: labelBytes - 16) }
    }
    let fs = (0..<features).map { f in
      Feature(id: "F-\(f)", projectId: "web", title: "Feature \(f)", status: "in_progress", labels: list(f))
    }
    let at = Instant(seconds: 1_790_000_000)
    return .event(Event(origin: "workspace:/w", time: at, body: .boardSnapshot(BoardSnapshot(features: fs))))
  }

  @Test func aWorkspaceSnapshotOverFourMiBReadsBackWithoutACleanStop() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let input = Self.bigSnapshot()
    #expect(BoardCodec.encode(input).count > 9_000_000, "a 9.4 MB-class snapshot")
    let writer = try JournalWriter(path: path, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    writer.start()
    store.apply([input])
    // Written and committed, and never closed: what a kill -9 leaves (the WAL as it stands).
    writer.flush()
    #expect(writer.status.refused == 0)
    #expect(writer.status.lastError == nil, "\(writer.status.lastError ?? "")")
    let file = try JournalFile(path: path, mode: .read)
    var read: [BoardInput] = []
    try file.inputs(after: 0) { _, i in
      read.append(i)
      return true
    }
    #expect(read == [input], "the snapshot comes back whole")
    let (played, p) = try JournalFixture.played(path)
    #expect(p.skipped == 0)
    #expect(played.features.count == 20)
    #expect(played.features.values.allSatisfy { $0.labels.count == 1_000 })
    writer.close()
    // A restart: the writer plays it back.
    let again = try JournalWriter(path: path, clock: .system)
    var s = BoardStore(settings: BoardSettings())
    let back = try again.play(settings: BoardSettings()) { i, at in s.apply(i, at: at, asOfRule: .none) }
    again.close()
    #expect(back.skipped == 0)
    #expect(s.state.features == played.features)
  }

  @Test func aPageOfLargeRowsHoldsAFewAndEveryRowIsRead() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    // Six snapshots of 4.8 MB: pages of 16 MiB hold four, then two; none is left out.
    let inputs = (0..<6).map { _ in Self.bigSnapshot(features: 10) }
    do {
      let file = try JournalFile(path: path, mode: .write)
      var batch = JournalBatch()
      for i in inputs { try batch.append(i, .applied, at: Instant(seconds: 1_790_000_000)) }
      try file.write(batch)
    }
    var ids: [Int64] = []
    try JournalFile(path: path, mode: .read).inputs(after: 0) { row, _ in
      ids.append(row.id)
      return true
    }
    #expect(ids == [1, 2, 3, 4, 5, 6])
  }

  @Test func theWriteSideRefusesWhatTheReadSideWould() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let cap = 2 << 20
    let at = Instant(seconds: 1_790_000_000)
    let small = Self.bigSnapshot(features: 2, labels: 100, labelBytes: 480)
    let large = Self.bigSnapshot(features: 5, labels: 1_000, labelBytes: 480)
    #expect(BoardCodec.encode(small).count < cap && BoardCodec.encode(large).count > cap)
    var batch = JournalBatch(maxBlobBytes: cap)
    try batch.append(small, .applied, at: at)
    #expect(throws: JournalBatch.Refusal.self) { try batch.append(large, .applied, at: at) }
    // A string the codec would not read back, at any size.
    let long = BoardInput.rejected(
      origin: "o", at: at, reason: String(repeating: "r", count: BoardCodec.maxStringBytes + 1))
    do {
      try batch.append(long, .rejected("too long"), at: at)
      Issue.record("a string over the codec's cap was kept")
    } catch {
      #expect("\(error)".contains("1048577"), "\(error)")
    }
    let exact = BoardInput.rejected(
      origin: "o", at: at, reason: String(repeating: "r", count: BoardCodec.maxStringBytes))
    try batch.append(exact, .rejected("long"), at: at)
    var state = BoardState()
    Reducer.reduce(into: &state, large)
    #expect(throws: JournalBatch.Refusal.self) { try batch.append(snapshot: state, at: at, gap: false) }
    #expect(batch.bodies.count == 2)
    try JournalFile(path: path, mode: .write, maxBlobBytes: cap).write(batch)
    // What was kept reads back under the same cap; a row over it (written by hand) is skipped.
    let db = try Database(path: path, mode: .readWrite(create: false))
    try db.prepare(
      "INSERT INTO inputs(id, at, kind, origin, seq, time, topic, outcome, body) VALUES (3,0,1,'o',NULL,0,NULL,3,?)"
    )
    .run([.blob(BoardCodec.encode(large))])
    var read: [BoardInput] = []
    var skips: [JournalFile.Skip] = []
    try JournalFile(path: path, mode: .read, maxBlobBytes: cap).inputs(after: 0, skip: { skips.append($0) }) { _, i in
      read.append(i)
      return true
    }
    #expect(read == [small, exact])
    #expect(skips.map(\.table) == ["inputs"] && skips.map(\.row) == ["3"], "\(skips)")
    #expect(JournalLimits.maxStringBytes == BoardCodec.maxStringBytes)
  }

  /// A month of the team, with a row made unreadable by hand in each table.
  static func damaged(in dir: TempDir) throws -> (path: String, bad: Int64) {
    let path = dir.url.appendingPathComponent("j.db").path
    try JournalFixture.write(JournalFixture.inputs(days: 10), to: path, snapshotEvery: 100)
    let db = try Database(path: path, mode: .readWrite(create: false))
    let snaps = try JournalFile(path: path, mode: .read).snapshots()
    try #require(snaps.count >= 3)
    let latest = snaps[snaps.count - 1]
    let before = snaps[snaps.count - 2]
    // inputs: a body the codec does not read, and a row of an unknown kind.
    let bad = before.through + 1
    try db.execute("UPDATE inputs SET body = x'03ff00' WHERE id = \(bad)")
    try db.execute("UPDATE inputs SET kind = 99 WHERE id = \(bad + 1)")
    // snapshots: the latest holds no board; an older one's time is text.
    try db.execute("UPDATE snapshots SET state = x'0300' WHERE id = \(latest.id)")
    try db.execute("UPDATE snapshots SET at = 'noon' WHERE id = \(snaps[0].id)")
    // meta: the codec is no number.
    try db.execute("UPDATE meta SET value = 'three' WHERE key = 'codec'")
    return (path, bad)
  }

  @Test func anUnreadableRowInEachTableIsSkippedByNameAndTheRestIsRead() throws {
    let dir = try TempDir()
    let (path, bad) = try Self.damaged(in: dir)
    let (state, p) = try JournalFixture.played(path)
    #expect(p.skipped == 5, "\(p.skips)")
    let named = Set(p.skips.map { "\($0.table) \($0.row)" })
    #expect(named.contains("inputs \(bad)") && named.contains("inputs \(bad + 1)"), "\(named)")
    #expect(named.contains("meta codec"), "\(named)")
    #expect(p.skips.filter { $0.table == "snapshots" }.count == 2, "\(p.skips)")
    #expect(p.skippedSummary?.hasPrefix("5 unreadable rows skipped: ") == true)
    #expect(p.inputs > 0, "the inputs after the last readable snapshot were played")
    // The rest is the board every other input gives.
    let (folded, rows) = try JournalFixture.folded(path)
    #expect(!rows.contains { $0.id == bad || $0.id == bad + 1 })
    #expect(state.features == folded.features)
  }

  @Test func restartReplayAndCompactionKeepGoingPastAnUnreadableRow() throws {
    let dir = try TempDir()
    let (path, _) = try Self.damaged(in: dir)
    // Restart: the writer plays it and goes on writing.
    let writer = try JournalWriter(path: path, clock: .system)
    var s = BoardStore(settings: BoardSettings())
    let played = try writer.play(settings: BoardSettings()) { i, at in s.apply(i, at: at, asOfRule: .none) }
    #expect(played.skipped == 5)
    writer.close()
    // The codec row was written again by the writer: skipped no more.
    #expect(try JournalFile(path: path, mode: .read).metaSkips.isEmpty)
    // Replay, instant and at its own pace.
    let source = ReplaySource(
      path: path, origin: "replay:\(path)", speed: 1e9, settings: BoardSettings(), clock: .system)
    var delivered = 0
    _ = try source.read(through: nil, receivedAt: Instant(millis: 0), deadline: .distantFuture) { _ in delivered += 1 }
    #expect(delivered > 0)
    // Compaction, down to the base.
    let file = try JournalFile(path: path, mode: .write)
    let c = try file.compact(
      retention: Retention(previousSprints: 0, flowDays: 0, maxBytes: 20_000), state: s.state,
      at: s.state.lastEventTime ?? Instant(millis: 0))
    #expect(c.inputsRemoved > 0 || c.snapshotsRemoved > 0)
  }
}

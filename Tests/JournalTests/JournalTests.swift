import Clock
import Codec
import EventSources
import Foundation
import Journal
import SQLite
import SourceKit
import TestSupport
import Testing
import WallboardCore

@Suite("The journal file: schema, versions, refusals")
struct JournalFileTests {
  @Test func aNewJournalSaysWhatItIsAndRunsInWAL() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    _ = try JournalFile(path: path, mode: .write)
    // Not read-only: a reader of a journal whose writer has stopped reads the file alone
    // (`immutable=1`), and SQLite then reports the journal mode as "delete".
    let db = try Database(path: path, mode: .readWrite(create: false))
    #expect(try db.scalar("PRAGMA user_version")?.integer == 1)
    #expect(try db.scalar("PRAGMA journal_mode")?.text == "wal")
    #expect(try db.scalar("SELECT value FROM meta WHERE key = 'format'")?.text == "wallboard-journal")
    #expect(try db.scalar("SELECT value FROM meta WHERE key = 'codec'")?.integer == Int64(BoardCodec.version))
    #expect(try db.scalar("PRAGMA auto_vacuum")?.integer == 2, "incremental, so that compaction gives pages back")
  }

  @Test func aJournalFromANewerWallboardIsRefusedByItsVersion() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    _ = try JournalFile(path: path, mode: .write)
    try Database(path: path, mode: .readWrite(create: false)).execute("PRAGMA user_version = 9")
    #expect(throws: JournalError.newerSchema(path: path, found: 9, known: 1)) {
      try JournalFile(path: path, mode: .write)
    }
  }

  @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("orchestra.db").path
    try Database(path: path, mode: .readWrite(create: true)).execute("CREATE TABLE features(id TEXT)")
    do {
      _ = try JournalFile(path: path, mode: .write)
      Issue.record("an Orchestra database was taken for a journal")
    } catch {
      guard case .notAJournal(_, let reason) = error else { throw error }
      #expect(reason.contains("features"), "\(reason)")
    }
    #expect(try Database(path: path, mode: .readOnly).columns(of: "features") == ["id"])
    #expect(try Database(path: path, mode: .readOnly).columns(of: "inputs").isEmpty, "nothing was added to it")
  }

  @Test func aFileOfGarbageIsDamaged() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: path))
    #expect {
      try JournalFile(path: path, mode: .write)
    } throws: { e in
      if case .damaged(let p, _) = e as? JournalError { return p == path }
      return false
    }
  }

  @Test func boardsInAnotherEncodingAreRefusedByName() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    _ = try JournalFile(path: path, mode: .write)
    try Database(path: path, mode: .readWrite(create: false)).execute("UPDATE meta SET value = 99 WHERE key = 'codec'")
    do {
      _ = try JournalFile(path: path, mode: .read)
      Issue.record("a journal in another encoding was read")
    } catch {
      #expect(error.description.contains("version 99"), "\(error)")
    }
  }

  @Test func aSecondBoardCannotWriteTheSameJournal() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let first = try JournalWriter(path: path, clock: .system)
    #expect(throws: JournalError.inUse(path: path)) { try JournalWriter(path: path, clock: .system) }
    first.close()
    // Reading it meanwhile is fine (replay, inspect).
    _ = try JournalFile(path: path, mode: .read)
  }

  @Test func aReadOfAMissingJournalSaysSo() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("none.db").path
    #expect {
      try JournalFile(path: path, mode: .read)
    } throws: { e in
      if case .cannotOpen(let p, _) = e as? JournalError { return p == path }
      return false
    }
  }
}

@Suite("The journal keeps the board")
struct JournalPlaybackTests {
  @Test func whatIsPlayedBackIsTheBoardThatWroteIt() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 12)
    let live = try JournalFixture.write(inputs, to: path, snapshotEvery: 250)
    let (restored, playback) = try JournalFixture.played(path)
    #expect(restored == live)
    // It started from the last snapshot, taken at close: nothing to replay after it.
    #expect(playback.snapshot != nil && playback.inputs == 0)
    // And the rows alone give the same board: every input is kept, in order.
    let (folded, rows) = try JournalFixture.folded(path)
    #expect(folded == live)
    #expect(rows.count == inputs.count)
    #expect(rows.map(\.id) == Array(1...Int64(inputs.count)))
    #expect(rows.map(\.at) == rows.map(\.at).sorted())
    #expect(rows.contains { $0.topic == "workflow.transitioned" || $0.topic == "feature.updated" })
  }

  @Test func aMomentGivesTheBoardOfTheInputsUpToIt() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 12)
    try JournalFixture.write(inputs, to: path, snapshotEvery: 300)
    let (_, rows) = try JournalFixture.folded(path)
    for k in [1, rows.count / 3, rows.count / 2, rows.count - 2] {
      let moment = rows[k].at
      // A run stopped at that moment had applied every input that arrived by then.
      var expected = BoardState()
      for (row, input) in zip(rows, inputs) where row.at <= moment { Reducer.reduce(into: &expected, input) }
      let (board, playback) = try JournalFixture.played(path, through: moment)
      #expect(board == expected, "at \(moment)")
      #expect(playback.reachedEnd == (rows.last!.at <= moment))
      if k > rows.count / 3 { #expect(playback.snapshot != nil, "a snapshot before \(moment) is used") }
    }
  }

  @Test func aBoardUnderOtherSettingsIsRebuiltFromTheInputs() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 10)
    try JournalFixture.write(inputs, to: path)
    var other = BoardSettings()
    other.estimateScale = try EstimateScale(sizes: ["S": 2, "M": 4, "L": 8, "XL": 16])
    let (board, playback) = try JournalFixture.played(path, settings: other)
    var expected = BoardState(settings: other)
    for i in inputs { Reducer.reduce(into: &expected, i) }
    #expect(playback.settingsDiffer)
    #expect(board == expected)
  }

  @Test func whenTheDiskFallsBehindTheInputsAreDroppedAndAGapSnapshotKeepsTheBoardTrue() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 6)
    let writer = try JournalWriter(path: path, snapshotEvery: 1_000_000, maxPending: 50, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    // Not started: nothing drains the queue, as if the disk hung.
    store.apply(inputs.prefix(120))
    writer.start()
    writer.flush()
    store.apply(inputs.dropFirst(120))
    writer.close(final: store.state, at: store.clock!)
    #expect(writer.status.dropped > 0)
    let (board, _) = try JournalFixture.played(path)
    #expect(board == store.state)
    let file = try JournalFile(path: path, mode: .read)
    #expect(try file.snapshots().contains { $0.gap }, "the snapshot after the loss says so")
    // Replaying from the start crosses the gap by its snapshot: still the true board.
    var replay = BoardStore(settings: BoardSettings())
    _ = try file.play(through: nil, settings: nil) { i, at in replay.apply(i, at: at, asOfRule: .none) }
    #expect(replay.state == store.state)
  }

  @Test func aWriteErrorIsReportedAndTheJournalStaysTrue() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 4)
    let writer = try JournalWriter(path: path, snapshotEvery: 1_000_000, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    writer.start()
    store.apply(inputs.prefix(50))
    writer.flush()
    // Another process holds the write lock longer than the busy timeout allows.
    let other = try Database(path: path, mode: .readWrite(create: false), busyTimeout: 0)
    try other.execute("BEGIN EXCLUSIVE")
    store.apply(inputs.dropFirst(50).prefix(50))
    let deadline = Date().addingTimeInterval(30)
    while writer.status.lastError == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    #expect(writer.status.lastError?.contains("locked") == true, "\(writer.status)")
    try other.execute("ROLLBACK")
    store.apply(inputs.dropFirst(100))
    writer.close(final: store.state, at: store.clock!)
    #expect(writer.status.lastError == nil && writer.status.failedWrites >= 1)
    #expect(try JournalFixture.played(path).0 == store.state)
  }
}

@Suite("The journal keeps what retention says, within its size")
struct RetentionTests {
  @Test func theFloorIsTheEarliestOfTheFlowWindowAndTheSprintsKept() {
    var state = BoardState()
    for (k, start) in ["2026-01-05", "2026-01-19", "2026-02-02", "2026-02-16", "2026-03-02"].enumerated() {
      let end = Make.d(start).adding(days: 11).description
      Reducer.reduce(
        into: &state, Make.event("2026-01-01T00:00:00Z", .sprintCreated(Make.sprint("S\(k)", start: start, end: end))))
    }
    let at = Make.t("2026-03-04T12:00:00Z")
    // The active sprint is the latest begun (S4); three before it: S1 from 19 January, a day early.
    #expect(Retention(previousSprints: 3, flowDays: 14).floor(state: state, at: at) == Make.t("2026-01-18T00:00:00Z"))
    #expect(Retention(previousSprints: 0, flowDays: 14).floor(state: state, at: at) == Make.t("2026-02-17T12:00:00Z"))
    #expect(Retention(previousSprints: 0, flowDays: 1).floor(state: state, at: at) == Make.t("2026-03-01T00:00:00Z"))
  }

  @Test func thirtyDaysStayWithinTheBoundAndTheBoardIsKept() throws {
    let dir = try TempDir()
    let (path, inputs, live, retention) = try JournalFixture.compactedMonth(in: dir)
    let size = [path, path + "-wal"].map { p in
      (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int64) ?? 0
    }.reduce(0, +)
    #expect(size <= retention.maxBytes, "the journal is \(size) bytes on disk")
    let file = try JournalFile(path: path, mode: .read)
    #expect(try file.compactedThrough() > 0, "it compacted")
    let (count, _, _) = try file.inputRange()
    #expect(count < Int64(inputs.count))
    #expect(try file.integrityCheck() == "ok")
    // The board, with the history of its sprints and flow, is whole.
    #expect(try JournalFixture.played(path).0 == live)
    // Before the base there is nothing to show; after it, the board of that moment.
    let base = try #require(try file.snapshots().first)
    #expect(throws: JournalError.before(path: path, oldest: base.at.rfc3339)) {
      try JournalFixture.played(path, through: base.at.adding(seconds: -3600))
    }
    _ = try JournalFixture.played(path, through: base.at.adding(seconds: 3600))
  }
}

@Suite("The journal's edges: gaps, full compaction, settings, a paced replay")
struct JournalEdgeTests {
  /// A journal with a gap: its first 100 inputs overflow the queue of a writer not yet started
  /// (a gap snapshot follows), the rest are rows after it and no last snapshot is taken.
  /// Returns its path and the board that wrote it.
  /// A journal with a gap in the middle: a board journals 50 inputs; after a restart its next
  /// 100 overflow the queue of a writer not yet started (a gap snapshot follows); the rest are
  /// rows after it. Returns its path and the board that wrote it.
  static func midGapJournal(in dir: TempDir) throws -> (String, BoardStore) {
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 8)
    let first = try JournalWriter(path: path, snapshotEvery: 1_000_000, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: first)
    first.start()
    store.apply(inputs.prefix(50))
    first.close()
    let second = try JournalWriter(path: path, snapshotEvery: 1_000_000, maxPending: 40, clock: .system)
    store.recorder = second
    store.apply(inputs.dropFirst(50).prefix(100))
    second.start()
    second.flush()
    store.apply(inputs.dropFirst(150))
    second.close()
    return (path, store)
  }

  static func gapJournal(in dir: TempDir) throws -> (String, BoardStore) {
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 8)
    let writer = try JournalWriter(path: path, snapshotEvery: 1_000_000, maxPending: 40, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    store.apply(inputs.prefix(100))
    writer.start()
    writer.flush()
    store.apply(inputs.dropFirst(100))
    writer.close()
    return (path, store)
  }

  @Test func aReplayFromTheStartCrossesAGapByItsSnapshot() throws {
    let dir = try TempDir()
    let (path, store) = try Self.gapJournal(in: dir)
    let file = try JournalFile(path: path, mode: .read)
    let snaps = try file.snapshots()
    #expect(snaps.contains { $0.gap })
    #expect(try file.inputRange().count > 0, "rows after the gap")
    for from in [JournalFile.Start.latest, .beginning] {
      var replay = BoardStore(settings: BoardSettings())
      let played = try file.play(through: nil, settings: BoardSettings(), from: from) { i, at in
        replay.apply(i, at: at, asOfRule: .none)
      }
      #expect(replay.state == store.state, "\(from)")
      #expect(played.inputs > 0)
    }
  }

  /// A replay at its own pace plays a stretch at a time (up to the replay's clock, then on from
  /// there): the stretches together are the one playback, the gap crossed once.
  @Test(arguments: [true, false]) func aPlaybackResumedStretchByStretchIsTheWholeOne(gapIsTheBase: Bool) throws {
    let dir = try TempDir()
    let (path, store) = try gapIsTheBase ? Self.gapJournal(in: dir) : Self.midGapJournal(in: dir)
    let file = try JournalFile(path: path, mode: .read)
    #expect(try file.snapshots().first?.gap == gapIsTheBase)
    let whole = try file.play(through: nil, settings: BoardSettings(), from: .beginning) { _, _ in }
    var replay = BoardStore(settings: BoardSettings())
    var restored = 0
    func take(_ i: BoardInput, at: Instant) {
      if case .restored = i { restored += 1 }
      replay.apply(i, at: at, asOfRule: .none)
    }
    // The first stretch ends at the gap's moment: the gap is crossed, no input after it is
    // played, and the next stretch resumes right there without crossing it again.
    let gap = try #require(try file.snapshots().first(where: \.gap))
    var played = try file.play(through: gap.at, settings: BoardSettings(), from: .beginning, deliver: take)
    #expect(played.lastRow == gap.through && restored == 1)
    var stretches = 1
    while !played.reachedEnd, let next = try file.inputTime(after: played.lastRow) {
      // A stretch of ten minutes of the journal's time at a time.
      played = try file.play(
        through: next.adding(seconds: 600), settings: BoardSettings(), from: .resuming(played), deliver: take)
      stretches += 1
    }
    #expect(stretches > 4)
    #expect(played.inputs == whole.inputs)
    #expect(played.skipped == whole.skipped)
    #expect(try file.inputTime(after: played.lastRow) == nil)
    #expect(restored == (try file.snapshots().filter(\.gap).count), "each gap's board once")
    #expect(replay.state == store.state)
  }

  @Test func aCompactionThatTakesEveryInputLeavesRoomForTheNextOnes() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    // A team without sprints: only the flow's window is kept, and once the board's time is far
    // ahead every input is older than it.
    let inputs: [BoardInput] = (0..<600).map { n in
      let time = Make.t("2026-11-02T09:00:00Z").adding(seconds: Double(n) * 1200)
      let body: Event.Body =
        n < 100
        ? .featureCreated(Make.feature("F-\(n)", points: 3))
        : .featureUpdated(FeaturePatch(id: "F-\(n % 100)", status: ["in-progress", "review", "done"][n % 3]))
      return .event(Event(origin: "flow", time: time, body: body))
    }
    let retention = Retention(previousSprints: 0, flowDays: 1, maxBytes: 60_000)
    let writer = try JournalWriter(path: path, retention: retention, snapshotEvery: 100, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    writer.start()
    store.apply(inputs)
    let far = Make.t("2027-06-01T00:00:00Z")
    writer.close(final: store.state, at: far)
    let file = try JournalFile(path: path, mode: .read)
    #expect(try file.compactedThrough() > 0)
    #expect(try file.inputRange().count == 0, "every input is in the base now")
    #expect(try JournalFixture.played(path).0 == store.state)
    // The next inputs come after the base, whatever their ids.
    let more: [BoardInput] = [
      .event(Make.event("2027-06-01T09:00:00Z", .featureCreated(Make.feature("NEW-1")), origin: "later")),
      .event(Make.status("2027-06-01T10:00:00Z", "NEW-1", "done")),
    ]
    let again = try JournalWriter(path: path, retention: retention, snapshotEvery: 100, clock: .system)
    var next = BoardStore(state: try JournalFixture.played(path).0, recorder: again)
    again.start()
    next.apply(more)
    again.close()
    let (board, _) = try JournalFixture.played(path)
    #expect(board == next.state)
    #expect(board.features["NEW-1"]?.status == "done")
    #expect(try JournalFile(path: path, mode: .read).inputRange().first > (try file.compactedThrough()))
  }

  @Test func theCompactedBaseIsTheBoardOfItsMoment() throws {
    let dir = try TempDir()
    let (path, inputs, live, _) = try JournalFixture.compactedMonth(in: dir)
    let file = try JournalFile(path: path, mode: .read)
    let base = try #require(try file.snapshots().first)
    #expect(base.gap)
    // The board each moment after the base shows is the board of the inputs up to it.
    var times: [Instant] = []
    var clock = Instant(millis: 0)
    for i in inputs {
      if case .event(let e) = i { clock = max(clock, e.time) }
      times.append(clock)
    }
    for moment in [base.at, base.at.adding(seconds: 3 * 3600), base.at.adding(seconds: 40 * 3600)] {
      var expected = BoardState()
      for (i, t) in zip(inputs, times) where t <= moment { Reducer.reduce(into: &expected, i) }
      #expect(try JournalFixture.played(path, through: moment).0 == expected, "at \(moment)")
    }
    #expect(try JournalFixture.played(path).0 == live)
  }

  @Test func aCompactedJournalUnderOtherSettingsIsSaidToBe() throws {
    let dir = try TempDir()
    let path = try JournalFixture.compactedMonth(in: dir).path
    var other = BoardSettings()
    other.workflow = .upstream
    #expect(throws: JournalError.otherSettings(path: path)) {
      try JournalFixture.played(path, settings: other)
    }
  }

  @Test func thinningKeepsTheGapsAReplayCrosses() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 30)
    let writer = try JournalWriter(path: path, snapshotEvery: 50, maxPending: 30, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    store.apply(inputs.prefix(60))  // a gap early on
    writer.start()
    writer.flush()
    store.apply(inputs.dropFirst(60))  // then many daily snapshots, thinned as they come
    writer.close(final: store.state, at: store.clock!)
    let file = try JournalFile(path: path, mode: .read)
    let gaps = try file.snapshots().filter(\.gap)
    #expect(!gaps.isEmpty)
    var replay = BoardStore(settings: BoardSettings())
    _ = try file.play(through: nil, settings: BoardSettings(), from: .beginning) { i, at in
      replay.apply(i, at: at, asOfRule: .none)
    }
    #expect(replay.state == store.state)
  }

  @Test func aReplayFollowedLivePlaysEveryInputFromTheStartAndEnds() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("j.db").path
    let inputs = JournalFixture.inputs(days: 3)
    let live = try JournalFixture.write(inputs, to: path, snapshotEvery: 20)
    let source = ReplaySource(
      path: path, origin: "replay:\(path)", speed: 1_000_000, settings: BoardSettings(), clock: .system)
    let box = Collected()
    source.start { box.append($0) }
    let deadline = Date().addingTimeInterval(60)
    while !box.ended && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    source.stop()
    let got = box.inputs
    #expect(box.ended, "the replay says it ended")
    let own = "replay:\(path)"
    let replayed = got.filter { input in
      guard case .connection(let o, _, _, _) = input else { return true }
      return o != own
    }
    // Every input, from the first, received now (the times they tell of unchanged).
    #expect(replayed.count == inputs.count)
    var state = BoardState()
    for i in replayed { Reducer.reduce(into: &state, i) }
    #expect(state.features == live.features && state.history == live.history)
    // Its clock was the journal's while it played.
    var latest = Instant(millis: 0)
    for case .event(let e) in inputs { latest = max(latest, e.time) }
    let clock = try #require(source.ownClock)
    #expect(clock() >= latest)
  }

  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [BoardInput] = []
    func append(_ i: BoardInput) { lock.withLock { items.append(i) } }
    var inputs: [BoardInput] { lock.withLock { items } }
    var ended: Bool {
      lock.withLock {
        items.contains { if case .connection(_, .ended, _, _) = $0 { true } else { false } }
      }
    }
  }
}

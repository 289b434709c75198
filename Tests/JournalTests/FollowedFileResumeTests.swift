import Foundation
import Journal
import TestSupport
import Testing
import WallboardCore

/// The real board on a followed file (`jsonl:PATH`) with its journal, restarted: it resumes where
/// the journal left the file, so no line is journaled twice, and reads from the top a file that
/// is no longer the one it read (issue 21, item 6).
@Suite("A followed file resumes where the journal left it", .serialized)
struct FollowedFileResumeTests {
  static var binary: String { Paths.binary.path }

  /// Lines without sequence numbers (nothing the reducer could tell apart as duplicates), feature
  /// ids starting at `from`.
  static func lines(_ count: Int, from: Int = 0, tag: String = "F") -> String {
    (0..<count).map { i in
      let n = from + i
      return
        #"{"topic":"feature.created","time":"2026-11-03T09:00:00Z","payload":{"id":"\#(tag)-\#(n)","title":"Feature \#(n)","status":"todo","points":\#(n % 8 + 1)}}"#
        + "\n"
    }.joined()
  }

  static func append(_ text: String, to url: URL) throws {
    let h = try FileHandle(forWritingTo: url)
    h.seekToEndOfFile()
    h.write(Data(text.utf8))
    try h.close()
  }

  /// The rows of the journal (none while it cannot be read yet).
  static func rows(_ journal: String) -> [JournalRow] {
    var rows: [JournalRow] = []
    guard let file = try? JournalFile(path: journal, mode: .read) else { return [] }
    try? file.inputs(after: 0) { row, _ in
      rows.append(row)
      return true
    }
    return rows
  }

  static func events(_ journal: String) -> Int { rows(journal).filter { $0.kind == .event }.count }

  /// Waits until the journal holds `count` event rows (or more), then a little longer, so that a
  /// row too many would be there too; returns how many it holds.
  static func settle(_ journal: String, events count: Int, seconds: Double = 30) -> Int {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end && events(journal) < count { Thread.sleep(forTimeInterval: 0.05) }
    Thread.sleep(forTimeInterval: 1.5)
    return events(journal)
  }

  /// One run of the board: started, left until `body` returns, stopped as a service manager does
  /// (SIGTERM); what it wrote on standard error.
  static func run(file: URL, journal: String, _ body: () throws -> Void) throws -> String {
    let (p, err) = try CrashSafetyTests.board(["--source", "jsonl:\(file.path)", "--journal", journal])
    try body()
    kill(p.processIdentifier, SIGTERM)
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 30), as: UTF8.self)
    #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(message)")
    return message
  }

  /// The last connection detail the journal holds for `origin`.
  static func detail(_ journal: String, origin: String) throws -> String? {
    let (state, _) = try JournalFixture.played(journal)
    return state.origins[origin]?.connectionDetail
  }

  @Test func restartsJournalEveryLineOnceAndReadOnlyWhatWasAppended() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("events.jsonl")
    let journal = dir.url.appendingPathComponent("j.db").path
    let origin = "jsonl:\(file.path)"
    try Self.lines(3000).write(to: file, atomically: false, encoding: .utf8)
    _ = try Self.run(file: file, journal: journal) {
      #expect(Self.settle(journal, events: 3000) == 3000)
    }
    // Nothing changed while it was stopped: nothing is read again.
    _ = try Self.run(file: file, journal: journal) {
      Thread.sleep(forTimeInterval: 1)
      #expect(Self.settle(journal, events: 3000) == 3000, "a restart reads nothing again")
    }
    #expect(try Self.detail(journal, origin: origin)?.contains("resumed where the journal left it") == true)
    // Appended while stopped: only the new lines are read.
    try Self.append(Self.lines(100, from: 3000), to: file)
    _ = try Self.run(file: file, journal: journal) {
      #expect(Self.settle(journal, events: 3100) == 3100)
      // And what is appended while it runs, as before.
      try Self.append(Self.lines(50, from: 3100), to: file)
      #expect(Self.settle(journal, events: 3150) == 3150)
    }
    let (board, _) = try JournalFixture.played(journal)
    #expect(board.features.count == 3150)
    #expect(board.origins[origin]?.events == 3150, "counted once each")
    #expect(board.counters.applied == 3150)
    #expect(board.origins[origin]?.file?.line == 3150)
  }

  /// How a file is changed while the board is stopped.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    /// Another file renamed over it (a new inode).
    case replaced
    /// Cut to fewer bytes than were read, in place.
    case truncated
    /// Written anew in place, as long as before and longer (same inode, other bytes).
    case rewritten
    var testDescription: String { rawValue }
    var why: String {
      switch self {
      case .replaced: "another file is at the path"
      case .truncated: "truncated"
      case .rewritten: "rewritten"
      }
    }
  }

  @Test(arguments: Change.allCases)
  func aFileChangedWhileStoppedIsReadFromTheTop(_ change: Change) throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("events.jsonl")
    let journal = dir.url.appendingPathComponent("j.db").path
    let origin = "jsonl:\(file.path)"
    try Self.lines(500).write(to: file, atomically: false, encoding: .utf8)
    _ = try Self.run(file: file, journal: journal) { #expect(Self.settle(journal, events: 500) == 500) }
    let fresh: Int
    switch change {
    case .replaced:
      fresh = 200
      try Self.lines(fresh, tag: "R").write(to: file, atomically: true, encoding: .utf8)
    case .truncated:
      fresh = 20
      try Self.lines(fresh, tag: "T").write(to: file, atomically: false, encoding: .utf8)
    case .rewritten:
      // Tag "W" is as long as "F": the same size and more, other bytes.
      fresh = 600
      try Self.lines(fresh, tag: "W").write(to: file, atomically: false, encoding: .utf8)
    }
    _ = try Self.run(file: file, journal: journal) {
      #expect(Self.settle(journal, events: 500 + fresh) == 500 + fresh)
    }
    let (board, _) = try JournalFixture.played(journal)
    let tag = change == .replaced ? "R" : change == .truncated ? "T" : "W"
    #expect(board.features.keys.filter { $0.id.hasPrefix(tag + "-") }.count == fresh, "the new file, all of it")
    #expect(board.origins[origin]?.events == 500 + fresh)
    let detail = try Self.detail(journal, origin: origin) ?? ""
    #expect(detail.contains("read from the top") && detail.contains(change.why), "\(detail)")
    #expect(board.origins[origin]?.file?.line == fresh, "no stale position")
  }

  @Test func aKillMidFeedNeverJournalsALineTwice() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("load.jsonl")
    let journal = dir.url.appendingPathComponent("j.db").path
    let total = 60_000
    try (CrashSafetyTests.lines(total).joined(separator: "\n") + "\n").write(
      to: file, atomically: false, encoding: .utf8)
    var random = TestRandom(state: 21)
    var kills = 0
    for round in 0..<8 {
      let before = Self.rows(journal).last?.id ?? 0
      let (p, _) = try CrashSafetyTests.board(["--source", "jsonl:\(file.path)", "--journal", journal])
      _ = CrashSafetyTests.waitFor(journal, seconds: 20)
      if CrashSafetyTests.waitForInputs(journal, after: before, seconds: 20) {
        Thread.sleep(forTimeInterval: 0.05 + Double(random.below(800)) / 1000)
      }
      kill(p.processIdentifier, SIGKILL)
      Deadline.wait(for: p, timeout: 10)
      if p.terminationReason == .uncaughtSignal { kills += 1 }
      // Every number once, in the file's order, across every run so far: each resumed where
      // the journal (as the kill left it) says.
      let seqs = try CrashSafetyTests.check(journal, "round \(round)")
      #expect(seqs == (0..<seqs.count).map { Int64($0 + 1) }, "round \(round)")
      if seqs.count == total { break }
    }
    #expect(kills > 0)
    // The rest, to the end: every line exactly once.
    _ = try Self.run(file: file, journal: journal) {
      #expect(Self.settle(journal, events: total, seconds: 120) == total)
    }
    let seqs = Self.rows(journal).filter { $0.kind == .event }.compactMap(\.seq)
    #expect(seqs == Array(1...Int64(total)))
    let (board, _) = try JournalFixture.played(journal)
    #expect(board.counters.duplicates == 0)
    #expect(board.origins["jsonl:\(file.path)"]?.events == total)
  }
}

import Clock
import Foundation
import Journal
import TestSupport
import Testing
import WallboardCLI
import WallboardCore

/// `--journal`, `replay:` and `--at` through the command line: a restart gives the same
/// `inspect`, a replay the same projections, and `--at` on a replay the board of that moment.
@Suite("Journal, replay and as-of on the command line")
struct JournalCLITests {
  /// A moment on the Monday of the simulated team's second week (its default present is the
  /// Wednesday after, mid-sprint), and one in the first.
  static let earlier = "2026-11-09T11:30:00Z"
  static let first = "2026-11-04T10:00:00Z"

  static func inspect(_ args: [String]) throws -> String {
    let r = Captured.run(["inspect", "--tz", "UTC"] + args)
    try #require(r.code == 0, "inspect \(args): \(r.err)")
    return r.out
  }

  @Test func aRestartGivesByteIdenticalInspect() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let before = try Self.inspect(["--source", "sim", "--journal", journal])
    // The restarted board, from its journal alone.
    let after = try Self.inspect(["--journal", journal])
    #expect(after == before)
    #expect(before.contains("\"burndown\"") && before.contains("\"remaining\""))
    // And without the journal the same sources give the same board: the journal changed nothing.
    #expect(try Self.inspect(["--source", "sim"]) == before)
  }

  @Test func aReplayGivesTheSameProjectionsAndAMomentOfItTheBoardOfThatMoment() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let original = try Self.inspect(["--source", "sim", "--journal", journal])
    #expect(try Self.inspect(["--source", "replay:\(journal)"]) == original)
    // `--at` on the replay equals a run stopped at that moment.
    let stopped = try Self.inspect(["--source", "sim", "--at", Self.earlier])
    let replayed = try Self.inspect(["--source", "replay:\(journal)", "--at", Self.earlier])
    #expect(replayed == stopped)
    #expect(replayed != original)
  }

  @Test func theJournalKeepsGoingAcrossRestarts() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    _ = try Self.inspect(["--source", "sim", "--journal", journal])
    // Restored, then more from another source beside it: both are kept.
    let both = try Self.inspect(["--source", "sim", "--source", "jsonl:\(events)", "--journal", journal])
    #expect(both.contains("\"sim\"") && both.contains("jsonl:"))
    #expect(try Self.inspect(["--journal", journal]) == both)
    // A source no longer named leaves the board with all it brought (issue 20, item 8).
    let one = try Self.inspect(["--source", "jsonl:\(events)", "--journal", journal])
    #expect(!one.contains("\"sim\"") && !one.contains("FEAT-") && one.contains("jsonl:"), "\(one)")
    #expect(try Self.inspect(["--journal", journal]) == one)
  }

  @Test func anEarlierMomentOfAJournalIsLookedAtNotWritten() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let whole = try Self.inspect(["--source", "sim", "--journal", journal])
    let size = try FileManager.default.attributesOfItem(atPath: journal)[.modificationDate] as? Date
    let then = try Self.inspect(["--journal", journal, "--at", Self.earlier])
    #expect(then == (try Self.inspect(["--source", "sim", "--at", Self.earlier])))
    // With a source too, an earlier moment is only looked at.
    _ = try Self.inspect(["--source", "sim", "--journal", journal, "--at", Self.first])
    #expect(try FileManager.default.attributesOfItem(atPath: journal)[.modificationDate] as? Date == size)
    #expect(try Self.inspect(["--journal", journal]) == whole, "looking at older moments added nothing")
  }

  @Test func aJournalIsReadWhileABoardWritesIt() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let whole = try Self.inspect(["--source", "sim", "--journal", journal])
    // A running board holds the journal; inspect and replay of it alone still read it.
    let running = try JournalWriter(path: journal, clock: .system)
    defer { running.close() }
    #expect(try Self.inspect(["--journal", journal]) == whole)
    #expect(try Self.inspect(["--source", "replay:\(journal)"]) == whole)
    // Writing to it is another board's: refused, naming it.
    let r = Captured.run(["inspect", "--source", "sim", "--journal", journal])
    #expect(r.code == 1 && r.err.contains("another board is writing it") && r.err.contains(journal), "\(r.err)")
  }

  @Test func aMistypedJournalIsAnErrorAndNotMade() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("bord.db").path
    let r = Captured.run(["inspect", "--journal", journal])
    #expect(r.code == 1 && r.err.contains(journal), "\(r.err)")
    #expect(!FileManager.default.fileExists(atPath: journal))
  }

  @Test func aReplayIsAloneAndNotOfTheJournalItWrites() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    _ = try Self.inspect(["--source", "sim", "--journal", journal])
    let beside = Captured.run(["inspect", "--source", "replay:\(journal)", "--source", "sim"])
    #expect(beside.code == 2 && beside.err.contains("replay:"), "\(beside.err)")
    let declared = Captured.run([
      "inspect", "--source", "replay:\(journal)", "--sprint", "id=s9,start=2026-11-02,end=2026-11-13",
    ])
    #expect(declared.code == 2, "\(declared.err)")
    // Played into the journal it is read from (by another spelling of its path): refused.
    let itself = Captured.run(["inspect", "--source", "replay:\(dir.url.path)/./board.db", "--journal", journal])
    #expect(itself.code == 2 && itself.err.contains("--no-journal"), "\(itself.err)")
    // As of a moment, the journal is only looked at: replaying it then is allowed.
    #expect(
      Captured.run(["inspect", "--source", "replay:\(journal)", "--journal", journal, "--at", Self.earlier]).code == 0)
  }

  @Test func asOfLeavesOutTheEventsOfAFileAfterTheMoment() throws {
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    let whole = try Self.inspect(["--source", "jsonl:\(events)"])
    let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
    // The moment of the middle line: the file up to it, and no further.
    let middle = lines[lines.count / 2]
    let time = try #require(middle.firstRange(of: "\"time\": \"").map { middle[$0.upperBound...].prefix(20) })
    let asOf = try Self.inspect(["--source", "jsonl:\(events)", "--at", String(time)])
    let dir = try TempDir()
    let head = dir.url.appendingPathComponent("head.jsonl")
    let kept = lines.filter { line in
      guard let r = line.firstRange(of: "\"time\": \"") else { return true }
      return line[r.upperBound...].prefix(20) <= time
    }
    try (kept.joined(separator: "\n") + "\n").write(to: head, atomically: true, encoding: .utf8)
    let expected = try Self.inspect(["--source", "jsonl:\(head.path)", "--at", String(time)])
    #expect(asOf != whole)
    // The same board, the events after the moment counted as set aside.
    let later = lines.count - kept.count
    #expect(later > 0)
    let counted = asOf.replacingOccurrences(of: events, with: "F")
    #expect(counted.contains("\"after_at\": \(later)"), "\(later) events are after the moment")
    #expect(
      counted.replacingOccurrences(of: ",\n    \"after_at\": \(later)", with: "")
        == expected.replacingOccurrences(of: head.path, with: "F"))
  }

  @Test func aJournalThatIsNotOneIsAnErrorNamingIt() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("notes.txt")
    try "not a database at all, just words".write(to: file, atomically: true, encoding: .utf8)
    let r = Captured.run(["inspect", "--journal", file.path])
    #expect(r.code == 1)
    #expect(r.err.contains(file.path) && r.err.contains("journal"), "\(r.err)")
    #expect(try String(contentsOf: file, encoding: .utf8) == "not a database at all, just words")
    let replay = Captured.run(["inspect", "--source", "replay:\(dir.url.appendingPathComponent("none.db").path)"])
    #expect(replay.code == 3 && replay.err.contains("none.db"), "\(replay.err)")
  }
}

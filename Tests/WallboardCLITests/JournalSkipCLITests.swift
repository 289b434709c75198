import Foundation
import TestSupport
import Testing
import WallboardCLI

/// A journal holding rows it cannot read is still read: `inspect --journal` and a restart of a
/// named journal skip them, say so on stderr by table and row, and show the rest.
@Suite("Unreadable journal rows on the command line")
struct JournalSkipCLITests {
  @Test func inspectAndARestartSkipAnUnreadableRowAndSaySo() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let events = dir.url.appendingPathComponent("e.jsonl")
    try """
    {"topic": "feature.created", "time": "2026-10-30T09:00:00Z", "seq": 1, "source": "x", "payload": {"id": "A", "title": "Kept", "status": "todo"}}
    {"topic": "feature.created", "time": "2026-10-30T09:01:00Z", "seq": 2, "source": "x", "payload": {"id": "B", "title": "MARKER-TO-BREAK", "status": "todo"}}
    {"topic": "feature.created", "time": "2026-10-30T09:02:00Z", "seq": 3, "source": "x", "payload": {"id": "C", "title": "Also kept", "status": "todo"}}

    """.write(to: events, atomically: true, encoding: .utf8)
    let first = Captured.run(["inspect", "--tz", "UTC", "--source", "jsonl:\(events.path)", "--journal", journal])
    try #require(first.code == 0, "\(first.err)")
    // Every copy of one title made invalid UTF-8 by hand: the input's row and the board's snapshot.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: journal)))
    let marker = Array("MARKER-TO-BREAK".utf8)
    var hits = 0
    var i = 0
    while i + marker.count <= bytes.count {
      if Array(bytes[i..<i + marker.count]) == marker {
        bytes[i] = 0xFF
        hits += 1
      }
      i += 1
    }
    try #require(hits >= 2, "the title is in the input and in the snapshot")
    try Data(bytes).write(to: URL(fileURLWithPath: journal))
    let looked = Captured.run(["inspect", "--tz", "UTC", "--journal", journal])
    #expect(looked.code == 0, "\(looked.err)")
    // The input's row, by its number (the sources' first "connecting" rows come before it).
    let brokenInput = /inputs row \d+: input\.event\.body\.featureCreated\.title at byte \d+: not valid UTF-8/
    #expect(looked.err.contains("unreadable rows skipped") && looked.err.contains(brokenInput), "\(looked.err)")
    #expect(looked.err.contains("snapshots row"), "\(looked.err)")
    #expect(looked.out.contains("\"count\" : 2") || looked.out.contains("\"count\": 2"), "\(looked.out)")
    // A named journal restarts: the bad rows are skipped, the board goes on.
    let again = Captured.run(["inspect", "--tz", "UTC", "--source", "jsonl:\(events.path)", "--journal", journal])
    #expect(again.code == 0, "\(again.err)")
    #expect(again.err.contains(brokenInput), "\(again.err)")
  }
}

import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// `jsonl:PATH` in a running board follows the file like `tail -F`.
@Suite("Following a JSON Lines file", .serialized)
struct FollowerTests {
  static func line(_ id: String, _ status: String) -> String {
    #"{"topic":"feature.created","time":"2026-11-03T09:00:00Z","payload":{"id":"\#(id)","status":"\#(status)"}}"# + "\n"
  }

  func withFile(
    _ configure: (JSONLinesFollower) -> Void = { _ in }, _ body: (URL, JSONLinesFollower, LiveBoard) throws -> Void
  ) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-follow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("events.jsonl")
    try Self.line("A", "todo").write(to: file, atomically: false, encoding: .utf8)
    let follower = JSONLinesFollower(path: file.path, origin: "jsonl:\(file.path)", clock: .system)
    follower.pollInterval = 0.05
    configure(follower)
    let board = LiveBoard()
    follower.start { board.put($0) }
    defer { follower.stop() }
    try body(file, follower, board)
  }

  func append(_ text: String, to file: URL) throws {
    let h = try FileHandle(forWritingTo: file)
    h.seekToEndOfFile()
    h.write(Data(text.utf8))
    try h.close()
  }

  @Test func readsWhatIsThereThenWhatIsAppended() throws {
    try withFile { file, _, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      // Half a line, then the rest: nothing is decoded until the line is complete.
      let line = Self.line("B", "done")
      try append(String(line.prefix(20)), to: file)
      Thread.sleep(forTimeInterval: 0.3)
      #expect(board.board().features["B"] == nil)
      #expect(board.board().counters.rejected == 0)
      try append(String(line.dropFirst(20)), to: file)
      #expect(board.wait(5) { $0.features["B"]?.status == "done" })
    }
  }

  @Test func truncationStartsAgainFromTheTop() throws {
    try withFile { file, _, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      try "".write(to: file, atomically: false, encoding: .utf8)  // `> events.jsonl`
      Thread.sleep(forTimeInterval: 0.3)
      try append(Self.line("C", "todo"), to: file)
      #expect(board.wait(5) { $0.features["C"] != nil })
    }
  }

  @Test func rotationSwitchesToTheNewFile() throws {
    try withFile { file, _, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      try append(Self.line("B", "todo"), to: file)
      let rotated = file.deletingLastPathComponent().appendingPathComponent("events.jsonl.1")
      try FileManager.default.moveItem(at: file, to: rotated)
      try Self.line("D", "in-review").write(to: file, atomically: false, encoding: .utf8)
      #expect(board.wait(5) { $0.features["B"] != nil && $0.features["D"]?.status == "in-review" })
    }
  }

  @Test func aRemovedFileIsOfflineUntilItReturns() throws {
    try withFile { file, follower, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      try FileManager.default.removeItem(at: file)
      #expect(board.wait(5) { $0.origins[follower.origin]?.connection == .offline })
      #expect(board.board().features["A"] != nil, "what was read stays")
      try Self.line("E", "todo").write(to: file, atomically: false, encoding: .utf8)
      #expect(board.wait(5) { $0.origins[follower.origin]?.connection == .live && $0.features["E"] != nil })
    }
  }
}

/// A followed file that is written anew, or replaced by something else, is never silently lost.
@Suite("Following a file that is rewritten or replaced", .serialized)
struct FollowerRewriteTests {
  typealias F = FollowerTests

  static func statuses(_ n: Int, _ status: String) -> String {
    (0..<n).map { F.line("F\($0)", status) }.joined()
  }

  /// Writes `text` over the file in place (no rename: the same inode), as `>` does.
  static func rewrite(_ file: URL, _ text: String) throws {
    let h = try FileHandle(forWritingTo: file)
    try h.truncate(atOffset: 0)
    h.write(Data(text.utf8))
    try h.close()
  }

  @Test func rewrittenToTheSameSizeWithinOnePollIsReadAgain() throws {
    try FollowerTests().withFile { file, follower, board in
      // The first line is read before the file is written anew (else whether "A" is on the board
      // would depend on which thread runs first); what was read stays.
      #expect(board.wait(5) { $0.features["A"] != nil })
      try Self.rewrite(file, Self.statuses(10, "todo"))
      #expect(
        board.wait(5) { s in
          s.features.count == 11 && (0..<10).allSatisfy { s.features[FeatureKey(id: "F\($0)")] != nil }
        })
      // The same ten features, every status changed, the file the same size, written over in
      // place without ever being shorter ("todo" and "done" are as long).
      let h = try FileHandle(forWritingTo: file)
      h.write(Data(Self.statuses(10, "done").utf8))
      try h.close()
      #expect(
        board.wait(5) { s in (0..<10).allSatisfy { s.features[FeatureKey(id: "F\($0)")]?.status == "done" } },
        "\(board.board().features.mapValues(\.status))")
      #expect(board.board().origins[follower.origin]?.connection == .live)
    }
  }

  @Test func rewrittenLargerIsReadFromTheTopNotFromTheOldEnd() throws {
    try FollowerTests().withFile { file, follower, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      try Self.rewrite(file, Self.statuses(10, "todo"))
      #expect(
        board.wait(5) { s in
          s.features.count == 11 && (0..<10).allSatisfy { s.features[FeatureKey(id: "F\($0)")] != nil }
        })
      // Thirty lines: the first ten are new statuses of the old features, not old lines.
      try Self.rewrite(
        file, Self.statuses(10, "in-review") + (10..<30).map { F.line("F\($0)", "todo") }.joined())
      #expect(
        board.wait(5) { s in
          s.features.count == 31 && (0..<10).allSatisfy { s.features[FeatureKey(id: "F\($0)")]?.status == "in-review" }
        })
    }
  }

  @Test func numberedEventsOfARewrittenFileCountAfresh() throws {
    try FollowerTests().withFile { file, follower, board in
      func numbered(_ status: String) -> String {
        (1...5).map {
          #"{"topic":"feature.created","seq":\#($0),"payload":{"id":"N\#($0)","status":"\#(status)"}}"# + "\n"
        }.joined()
      }
      try Self.rewrite(file, numbered("todo"))
      #expect(board.wait(5) { $0.features["N5"]?.status == "todo" })
      try Self.rewrite(file, numbered("done") + "\n")
      #expect(board.wait(5) { $0.features["N5"]?.status == "done" }, "seq 1–5 of the new file are not duplicates")
    }
  }

  @Test func aFileReplacedByADirectoryIsOffline() throws {
    try FollowerTests().withFile { file, follower, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      try FileManager.default.removeItem(at: file)
      try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
      #expect(board.wait(5) { $0.origins[follower.origin]?.connection == .offline })
      #expect(board.board().origins[follower.origin]?.connectionDetail == "\(file.path): is a directory")
      // And back to a file: followed again.
      try FileManager.default.removeItem(at: file)
      try F.line("G", "todo").write(to: file, atomically: false, encoding: .utf8)
      #expect(board.wait(5) { $0.origins[follower.origin]?.connection == .live && $0.features["G"] != nil })
    }
  }
}

/// The follower sleeps in the shared `FileWatcher`: woken by inotify, or polling where there is none.
@Suite("Following a file through the file watcher", .serialized)
struct FollowerWatchTests {
  typealias F = FollowerTests

  @Test func withInotifyAnAppendWakesItLongBeforeAnyPoll() throws {
    try FollowerTests().withFile({
      $0.watchMode = .inotify
      $0.pollInterval = 600
      $0.checkInterval = 600
    }) { file, _, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      // Neither a poll nor the safety net comes within ten minutes: only the watcher wakes it.
      try F().append(F.line("B", "done"), to: file)
      #expect(board.wait(5) { $0.features["B"]?.status == "done" })
      let rotated = file.deletingLastPathComponent().appendingPathComponent("events.jsonl.1")
      try FileManager.default.moveItem(at: file, to: rotated)
      try F.line("C", "todo").write(to: file, atomically: false, encoding: .utf8)
      #expect(board.wait(5) { $0.features["C"] != nil })
    }
  }

  @Test func thePollingFallbackFollowsAppendsRotationAndRemoval() throws {
    try FollowerTests().withFile({ $0.watchMode = .polling }) { file, follower, board in
      #expect(board.wait(5) { $0.features["A"] != nil })
      try F().append(F.line("B", "todo"), to: file)
      #expect(board.wait(5) { $0.features["B"] != nil })
      let rotated = file.deletingLastPathComponent().appendingPathComponent("events.jsonl.1")
      try FileManager.default.moveItem(at: file, to: rotated)
      try F.line("D", "in-review").write(to: file, atomically: false, encoding: .utf8)
      #expect(board.wait(5) { $0.features["D"]?.status == "in-review" })
      try FileManager.default.removeItem(at: file)
      #expect(board.wait(5) { $0.origins[follower.origin]?.connection == .offline })
    }
  }
}

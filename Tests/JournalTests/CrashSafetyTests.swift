import Foundation
import Journal
import TestSupport
import Testing
import WallboardCore

/// The real board, killed: by SIGKILL at random moments of a heavy ingest (the journal must open,
/// pass `PRAGMA integrity_check` and give back exactly the board of the inputs it holds), and by a
/// service manager's SIGTERM (nothing the board accepted may be lost).
@Suite("The journal survives the process being killed", .serialized)
struct CrashSafetyTests {
  static var binary: String { Paths.binary.path }

  /// `count` events of one publisher, numbered from 1: 300 features, then status changes.
  static func lines(_ count: Int) -> [String] {
    let states = ["todo", "in_progress", "review", "done"]
    return (1...count).map { n in
      let minute = n / 60
      let time = String(
        format: "2026-11-%02dT%02d:%02d:%02dZ", 2 + minute / 1440, minute / 60 % 24, minute % 60, n % 60)
      let id = "F-\(n % 300)"
      if n <= 300 {
        return
          #"{"topic":"feature.created","time":"\#(time)","seq":\#(n),"source":"load","payload":{"id":"\#(id)","title":"Feature \#(n)","status":"todo","points":\#(n % 8 + 1)}}"#
      }
      return
        #"{"topic":"feature.updated","time":"\#(time)","seq":\#(n),"source":"load","payload":{"id":"\#(id)","status":"\#(states[n % 4])"}}"#
    }
  }

  static func board(_ arguments: [String], stdin: Pipe? = nil) throws -> (Process, Pipe) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = ["run", "--display", "text", "--tz", "UTC"] + arguments
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    p.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    p.standardError = err
    if let stdin { p.standardInput = stdin }
    try p.run()
    return (p, err)
  }

  static func waitFor(_ path: String, seconds: Double) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if FileManager.default.fileExists(atPath: path) { return true }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  /// Waits until the journal holds an input past id `after`.
  static func waitForInputs(_ path: String, after: Int64, seconds: Double) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if let last = try? JournalFile(path: path, mode: .read).inputRange().last, last > after { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }

  /// The journal opens, is sound, and its snapshot-and-tail board is the board of its rows.
  /// Returns the sequence numbers of the events it holds, in order.
  static func check(_ path: String, _ what: String) throws -> [Int64] {
    let file = try JournalFile(path: path, mode: .read)
    #expect(try file.integrityCheck() == "ok", "\(what)")
    #expect(try !file.snapshots().contains(where: \.gap), "\(what): nothing was dropped")
    let (restored, _) = try JournalFixture.played(path)
    let (folded, rows) = try JournalFixture.folded(path)
    #expect(restored == folded, "\(what): the restored board is the board of the \(rows.count) rows it holds")
    return rows.filter { $0.kind == .event }.compactMap(\.seq)
  }

  @Test func aKillDuringHeavyIngestLeavesAJournalThatReplaysToExactlyWhatItHolds() throws {
    let dir = try TempDir()
    let events = dir.url.appendingPathComponent("load.jsonl")
    try (Self.lines(150_000).joined(separator: "\n") + "\n").write(to: events, atomically: true, encoding: .utf8)
    var random = TestRandom(state: 11)
    for round in 0..<20 {
      // Every fourth round restarts on the journal the last kill left: a restore after a crash.
      let journal = dir.url.appendingPathComponent("j\(round % 4 == 3 ? round - 1 : round).db").path
      let (p, _) = try Self.board(["--source", "jsonl:\(events.path)", "--journal", journal])
      #expect(Self.waitFor(journal, seconds: 20), "round \(round): no journal")
      // The ingest has begun once the journal holds inputs of this run (it may hold a last run's).
      let before = (try? JournalFile(path: journal, mode: .read).inputRange().last) ?? 0
      #expect(Self.waitForInputs(journal, after: before, seconds: 20), "round \(round): nothing ingested")
      Thread.sleep(forTimeInterval: 0.05 + Double(random.below(1500)) / 1000)
      kill(p.processIdentifier, SIGKILL)
      Deadline.wait(for: p, timeout: 10)
      #expect(p.terminationReason == .uncaughtSignal)
      let seqs = try Self.check(journal, "round \(round)")
      // What it holds is what the file said, in its order, from the start: each run read it
      // from the first line (a restart re-reads it as duplicates).
      var expected: Int64 = 1
      for s in seqs {
        if s == 1 { expected = 1 }
        #expect(s == expected, "round \(round): seq \(s) where \(expected) was next")
        expected = s + 1
      }
    }
  }

  @Test func aServiceManagersStopLosesNothingTheBoardAccepted() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("j.db").path
    let stdin = Pipe()
    let (p, err) = try Self.board(["--source", "jsonl:-", "--journal", journal], stdin: stdin)
    let lines = Self.lines(60_000)
    #expect(Self.waitFor(journal, seconds: 20))
    let writer = stdin.fileHandleForWriting
    writer.write((lines.prefix(40_000).joined(separator: "\n") + "\n").data(using: .utf8)!)
    // The rest, and the stop at once after it: some of it is in the board, some still in the pipe.
    writer.write((lines.dropFirst(40_000).joined(separator: "\n") + "\n").data(using: .utf8)!)
    kill(p.processIdentifier, SIGTERM)
    Deadline.wait(for: p, timeout: 60)
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 10), as: UTF8.self)
    #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(message)")
    let seqs = try Self.check(journal, "after SIGTERM")
    #expect(seqs == Array(1...Int64(seqs.count)), "a prefix of what was sent, in order")
    // The board says how many inputs it took; the journal holds every one.
    let pattern = try Regex(#"kept (\d+) of (\d+) inputs"#)
    let taken = try #require(message.firstMatch(of: pattern).map { message[$0.range] }, "\(message)")
    let numbers = taken.split(separator: " ").compactMap { Int($0) }
    #expect(numbers.count == 2 && numbers[0] == numbers[1], "\(taken)")
    let file = try JournalFile(path: journal, mode: .read)
    #expect(try file.inputRange().count == Int64(numbers.first ?? -1))
    #expect(seqs.count >= 39_000, "the lines the board had read before the stop were taken (\(seqs.count))")
  }

  @Test func theFirstFrameAfterARestartIsTheLastKnownBoardUntilASourceIsLive() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("j.db").path
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    let inspect = Process()
    inspect.executableURL = URL(fileURLWithPath: Self.binary)
    inspect.arguments = ["inspect", "--source", "jsonl:\(events)", "--journal", journal, "--tz", "UTC"]
    inspect.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    inspect.standardOutput = FileHandle.nullDevice
    try inspect.run()
    Deadline.wait(for: inspect, timeout: 60)
    try #require(inspect.terminationStatus == 0)
    for (sources, marked) in [([String](), true), (["--source", "jsonl:\(events)"], false)] {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: Self.binary)
      p.arguments = ["run", "--display", "text", "--tz", "UTC", "--journal", journal] + sources
      p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      try p.run()
      defer { if p.isRunning { p.terminate() } }
      // Two frames: the restored board, then (with a source) the live one.
      let text = out.read(seconds: 10) { $0.components(separatedBy: "Progress:").count > 2 }
      let frames = text.components(separatedBy: "\u{1B}[H\u{1B}[2J").filter { !$0.isEmpty }
      let first = try #require(frames.first, "no frame within 10 s")
      #expect(first.contains("Sprint 1"), "the journal's board: \(first)")
      if marked {
        #expect(first.hasPrefix("!! Last known board — showing data from"), "\(first)")
        #expect(frames.allSatisfy { $0.hasPrefix("!! Last known board") }, "no source: it stays marked")
      } else {
        #expect(frames.last.map { !$0.contains("Last known board") } == true, "a live source ends the mark")
      }
      p.terminate()
      Deadline.wait(for: p, timeout: 30)
    }
  }
}

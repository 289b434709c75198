import Clock
import EventSources
import Foundation
import Journal
import SQLite
import TestSupport
import Testing
import WallboardCore

@testable import WallboardCLI

/// `run`'s default journal when it cannot be used: set aside when damaged, left alone when a newer
/// Wallboard wrote it; where it lives.
@Suite struct JournalPlaceTests {
  final class Warnings: @unchecked Sendable {
    var lines: [String] = []
  }

  @Test func aDamagedDefaultJournalIsSetAsideAndANewOneBegun() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("journal-00000000.db").path
    try Data(repeating: 0x5A, count: 9000).write(to: URL(fileURLWithPath: path))
    var store = BoardStore(settings: BoardSettings())
    let warnings = Warnings()
    let opened = try JournalPlace.open(path, options: Options(), into: &store, named: false, clock: .system) {
      warnings.lines.append($0)
    }
    let (writer, played) = try #require(opened)
    writer.close()
    #expect(played.inputs == 0 && played.snapshot == nil)
    let aside = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".unreadable-") }
    #expect(aside.count == 1, "\(aside)")
    #expect(warnings.lines.count == 1 && warnings.lines[0].contains("kept it as"), "\(warnings.lines)")
    _ = try JournalFile(path: path, mode: .read)
  }

  @Test func aJournalInAnotherEncodingIsLeftAloneAndTheBoardRunsWithoutOne() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("journal-00000000.db").path
    JournalFixtureCLI.write(path)
    try Database(path: path, mode: .readWrite(create: false)).execute("UPDATE meta SET value = 7 WHERE key = 'codec'")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    var store = BoardStore(settings: BoardSettings())
    let warnings = Warnings()
    let opened = try JournalPlace.open(path, options: Options(), into: &store, named: false, clock: .system) {
      warnings.lines.append($0)
    }
    #expect(opened == nil)
    #expect(warnings.lines.first?.contains("version 7") == true, "\(warnings.lines)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "left as it was")
    // Named, it is an error that says so.
    #expect(throws: CLIError.self) {
      try JournalPlace.open(path, options: Options(), into: &store, named: true, clock: .system) { _ in }
    }
  }

  @Test func theDefaultJournalIsUnderTheStateDirectoryOnePerSetOfSources() {
    var o = Options()
    let service = JournalPlace.path(o, environment: ["STATE_DIRECTORY": "/var/lib/wallboard", "HOME": "/h"])
    #expect(service?.hasPrefix("/var/lib/wallboard/journal-") == true)
    #expect(
      JournalPlace.path(o, environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"])?.hasPrefix("/x/wallboard/") == true)
    #expect(JournalPlace.path(o, environment: ["HOME": "/h"])?.hasPrefix("/h/.local/state/wallboard/") == true)
    #expect(JournalPlace.path(o, environment: [:]) == nil)
    let sim = JournalPlace.path(o, environment: ["HOME": "/h"])
    o.sources = [SourceSpecFixture.jsonl]
    #expect(JournalPlace.path(o, environment: ["HOME": "/h"]) != sim, "other sources, other memories")
    o.noJournal = true
    #expect(JournalPlace.path(o, environment: ["HOME": "/h"]) == nil)
    var inspect = Options()
    inspect.command = .inspect
    #expect(JournalPlace.path(inspect, environment: ["HOME": "/h"]) == nil, "inspect keeps none by default")
  }
}

enum JournalFixtureCLI {
  static func write(_ path: String) {
    let writer = try! JournalWriter(path: path, clock: .system)
    var store = BoardStore(settings: BoardSettings(), recorder: writer)
    writer.start()
    store.apply(.event(Event(origin: "t", time: Instant(seconds: 1_800_000_000), body: .heartbeat)))
    writer.close(final: store.state, at: store.clock!)
  }
}

enum SourceSpecFixture {
  static var jsonl: SourceSpec { try! SourceSpec.parse("jsonl:/tmp/x.jsonl") }
}

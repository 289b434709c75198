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

@testable import Runtime
@testable import WallboardCLI

/// `run`'s default journal when it cannot be used: set aside when damaged or a newer Wallboard
/// wrote it, read (and said) when an older one did; where it lives.
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

  @Test func aDefaultJournalInANewerEncodingIsSetAsideAndANewOneBegun() throws {
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
    let (writer, played) = try #require(opened, "a new journal is begun")
    writer.close()
    #expect(played.inputs == 0 && played.snapshot == nil)
    #expect(warnings.lines.count == 1, "\(warnings.lines)")
    #expect(warnings.lines.first?.contains("version 7") == true, "\(warnings.lines)")
    #expect(warnings.lines.first?.contains("kept it as \(path).v7.") == true, "\(warnings.lines)")
    let aside = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter {
      $0.hasPrefix("journal-00000000.db.v7.") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
    }
    #expect(aside.count == 1, "\(aside)")
    let kept = dir.url.appendingPathComponent(try #require(aside.first)).path
    #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == before, "set aside as it was, never deleted")
    #expect(try JournalFile(path: path, mode: .read).openedEncoding == Int(BoardCodec.version))
    // The next start opens the new one, and says nothing.
    let again = Warnings()
    let reopened = try JournalPlace.open(path, options: Options(), into: &store, named: false, clock: .system) {
      again.lines.append($0)
    }
    try #require(reopened).0.close()
    #expect(again.lines.isEmpty, "\(again.lines)")
  }

  @Test func aDefaultJournalInANewerSchemaIsSetAsideAndANewOneBegun() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("journal-00000000.db").path
    JournalFixtureCLI.write(path)
    try Database(path: path, mode: .readWrite(create: false)).execute("PRAGMA user_version = 99")
    var store = BoardStore(settings: BoardSettings())
    let warnings = Warnings()
    let opened = try JournalPlace.open(path, options: Options(), into: &store, named: false, clock: .system) {
      warnings.lines.append($0)
    }
    try #require(opened, "a new journal is begun").0.close()
    #expect(
      warnings.lines.count == 1 && warnings.lines[0].contains("kept it as \(path).schema99."), "\(warnings.lines)")
  }

  @Test func aDefaultJournalInAnOlderEncodingIsReadAndSaidSo() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("journal-00000000.db").path
    JournalFixtureCLI.write(path)
    // What a version 3 build wrote: the same rows (nothing in them is new in version 4), each
    // blob's version byte and the meta saying 3, and each state without the agents' locks that
    // end it from version 6 (none here: one byte of count).
    let db = try Database(path: path, mode: .readWrite(create: false))
    try db.execute("UPDATE meta SET value = 3 WHERE key = 'codec'")
    try db.execute("UPDATE inputs SET body = CAST(X'03' || substr(body, 2) AS BLOB)")
    try db.execute("UPDATE snapshots SET state = CAST(X'03' || substr(state, 2, length(state) - 2) AS BLOB)")
    var store = BoardStore(settings: BoardSettings())
    let warnings = Warnings()
    let opened = try JournalPlace.open(path, options: Options(), into: &store, named: false, clock: .system) {
      warnings.lines.append($0)
    }
    let (writer, played) = try #require(opened)
    writer.close()
    #expect(played.skippedSummary == nil)
    #expect(store.state.origins["t"] != nil, "the board it held is restored")
    #expect(warnings.lines.count == 1, "\(warnings.lines)")
    #expect(warnings.lines.first?.contains("encoded in version 3") == true, "\(warnings.lines)")
    #expect(warnings.lines.first?.contains("read it") == true, "\(warnings.lines)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
    #expect(!files.contains { $0.contains(".v3.") || $0.contains(".unreadable-") }, "\(files)")
    #expect(try JournalFile(path: path, mode: .read).openedEncoding == Int(BoardCodec.version), "written in 4 now")
  }

  @Test func aNamedJournalInANewerEncodingIsAnErrorAndLeftAlone() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("mine.db").path
    JournalFixtureCLI.write(path)
    try Database(path: path, mode: .readWrite(create: false)).execute("UPDATE meta SET value = 7 WHERE key = 'codec'")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    var store = BoardStore(settings: BoardSettings())
    let error = #expect(throws: CLIError.self) {
      try JournalPlace.open(path, options: Options(), into: &store, named: true, clock: .system) { _ in }
    }
    guard case .journal(.otherEncoding(_, let found, _)) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(found == 7)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "left as it was")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".v7.") }.isEmpty)
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
  static var jsonl: SourceSpec { try! SourceRegistry.standard.parse("jsonl:/tmp/x.jsonl") }
}

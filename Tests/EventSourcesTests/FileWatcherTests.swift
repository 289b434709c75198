import Clock
import Foundation
import Glibc
import TestSupport
import Testing

@testable import EventSources
@testable import SourceKit

/// Waits on `watcher` until `path` is among what it returned, or `within` s pass: all it returned.
func collect(_ watcher: FileWatcher, until path: String, within: Double = 5) -> Set<String> {
  let end = Date().addingTimeInterval(within)
  var seen: Set<String> = []
  while !seen.contains(path) {
    let left = end.timeIntervalSinceNow
    if left <= 0 { break }
    seen.formUnion(watcher.wait(timeout: left))
  }
  return seen
}

/// Appends `text` to the file at `path` (creating it).
func append(_ text: String, to path: String) throws {
  if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
  let h = try #require(FileHandle(forWritingAtPath: path))
  h.seekToEndOfFile()
  h.write(Data(text.utf8))
  try h.close()
}

/// Every behaviour, with inotify and with the polling fallback: the same results.
@Suite("FileWatcher")
struct FileWatcherTests {
  static let modes: [FileWatcher.Mode] = [.inotify, .polling]

  func watcher(_ mode: FileWatcher.Mode, debounce: Double = 0.05) -> FileWatcher {
    let w = FileWatcher(mode: mode, pollInterval: 0.05, debounce: debounce, clock: .system)
    #expect(w.usesInotify == (mode == .inotify), "this kernel gives inotify")
    return w
  }

  @Test(arguments: modes) func aFileWritten(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let file = dir.url.path + "/events.jsonl"
    try append("one\n", to: file)
    let w = watcher(mode)
    w.watch(file)
    try append("two\n", to: file)
    #expect(collect(w, until: file).contains(file))
  }

  @Test(arguments: modes) func aFileCreatedInAWatchedFolder(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let w = watcher(mode)
    w.watch(dir.url.path + "/")
    try append("x", to: dir.url.path + "/new.md")
    let seen = collect(w, until: dir.url.path + "/new.md")
    #expect(seen.isSuperset(of: [dir.url.path, dir.url.path + "/new.md"]), "\(seen)")
  }

  @Test(arguments: modes) func deleted(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let folder = dir.url.path + "/features"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try append("x", to: folder + "/gone.md")
    let file = dir.url.path + "/alone.jsonl"
    try append("x", to: file)
    let w = watcher(mode)
    w.watch(folder)
    w.watch(file)
    try FileManager.default.removeItem(atPath: folder + "/gone.md")
    try FileManager.default.removeItem(atPath: file)
    var seen = collect(w, until: folder + "/gone.md")
    if !seen.contains(file) { seen.formUnion(collect(w, until: file)) }
    #expect(seen.isSuperset(of: [folder, folder + "/gone.md", file]), "\(seen)")
  }

  @Test(arguments: modes) func renamedIntoTheFolder(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let folder = dir.url.path + "/features"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try append("x", to: dir.url.path + "/outside.md")
    let w = watcher(mode)
    w.watch(folder)
    try FileManager.default.moveItem(atPath: dir.url.path + "/outside.md", toPath: folder + "/inside.md")
    let seen = collect(w, until: folder + "/inside.md")
    #expect(seen.isSuperset(of: [folder, folder + "/inside.md"]), "\(seen)")
    #expect(!seen.contains(dir.url.path + "/outside.md"), "only watched paths are reported")
  }

  @Test(arguments: modes) func aPathThatAppearsLater(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let file = dir.url.path + "/sub/deeper/events.jsonl"
    let w = watcher(mode)
    w.watch(file)
    #expect(w.wait(timeout: 0.1).isEmpty)
    try FileManager.default.createDirectory(atPath: dir.url.path + "/sub/deeper", withIntermediateDirectories: true)
    try append("x", to: file)
    #expect(collect(w, until: file).contains(file))
    // And once there it is watched itself: a write is seen.
    try append("y", to: file)
    #expect(collect(w, until: file).contains(file))
  }

  @Test(arguments: modes) func aFileRewrittenInPlace(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let file = dir.url.path + "/f.md"
    try append("aaaa", to: file)
    // An old file (polling tells a rewrite by its mtime; the same size, the same inode).
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1e9)], ofItemAtPath: file)
    let w = watcher(mode)
    w.watch(file)
    let h = try #require(FileHandle(forWritingAtPath: file))
    try h.truncate(atOffset: 0)
    h.write(Data("bbbb".utf8))
    try h.close()
    #expect(collect(w, until: file).contains(file))
  }

  @Test(arguments: modes) func debounceCoalescesABurstIntoOneReturn(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let file = dir.url.path + "/burst.jsonl"
    try append("", to: file)
    let w = watcher(mode, debounce: 0.2)
    w.watch(file)
    for i in 0..<20 { try append("line \(i)\n", to: file) }
    let started = Date()
    #expect(w.wait(timeout: 5) == [file])
    #expect(Date().timeIntervalSince(started) >= 0.19, "it waited out the debounce")
    let after = Date()
    #expect(w.wait(timeout: 0.3).isEmpty, "the whole burst came back once")
    #expect(Date().timeIntervalSince(after) >= 0.29)
  }

  @Test(arguments: modes) func wakeEndsAWaitFromAnotherThread(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let w = watcher(mode)
    w.watch(dir.url.path)
    let started = Date()
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 0.1)
      w.wake()
    }
    #expect(w.wait(timeout: 10).isEmpty)
    #expect(Date().timeIntervalSince(started) < 2)
    // A wake before the wait ends the next one at once.
    w.wake()
    let again = Date()
    #expect(w.wait(timeout: 10).isEmpty)
    #expect(Date().timeIntervalSince(again) < 2)
  }

  @Test(arguments: modes) func unwatchStopsReports(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let a = dir.url.path + "/a.jsonl"
    let b = dir.url.path + "/b.jsonl"
    try append("", to: a)
    try append("", to: b)
    let w = watcher(mode)
    w.watch(a)
    w.watch(b)
    w.unwatch(a)
    try append("x", to: a)
    try append("x", to: b)
    #expect(collect(w, until: b) == [b])
    try append("y", to: a)
    #expect(w.wait(timeout: 0.3).isEmpty)
  }

  @Test(arguments: modes) func aTimeoutReturnsEmpty(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let w = watcher(mode)
    w.watch(dir.url.path)
    var started = Date()
    #expect(w.wait(timeout: 0.2).isEmpty)
    #expect(Date().timeIntervalSince(started) >= 0.19)
    // After a change was returned, too: the next wait sleeps its whole timeout.
    try append("x", to: dir.url.path + "/a.md")
    #expect(collect(w, until: dir.url.path + "/a.md").contains(dir.url.path + "/a.md"))
    started = Date()
    #expect(w.wait(timeout: 0.3).isEmpty)
    #expect(Date().timeIntervalSince(started) >= 0.29)
  }

  @Test(arguments: modes) func aFolderDeletedAndCreatedAgainIsWatchedAgain(mode: FileWatcher.Mode) throws {
    let dir = try TempDir()
    let folder = dir.url.path + "/features"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let w = watcher(mode)
    w.watch(folder)
    try FileManager.default.removeItem(atPath: folder)
    #expect(collect(w, until: folder).contains(folder))
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    _ = collect(w, until: folder)
    try append("x", to: folder + "/new.md")
    #expect(collect(w, until: folder + "/new.md").contains(folder + "/new.md"))
  }
}

/// Paths the watcher refuses, and why.
@Suite("FileWatcher caps")
struct FileWatcherCapTests {
  @Test func badPathsAreRefusedNamingWhy() throws {
    let w = FileWatcher(mode: .polling, clock: .system)
    #expect(throws: FileWatcher.Refusal.emptyPath) { try w.add("") }
    let long = "/" + String(repeating: "a", count: 5000)
    #expect(throws: FileWatcher.Refusal.pathTooLong(bytes: 5001, limit: 4096)) { try w.add(long) }
    w.watch("/tmp/a\0b")
    #expect(w.refused["/tmp/a\0b"] == .nulInPath("/tmp/a?b"))
  }

  @Test func atMostMaxPathsAreWatched() throws {
    let dir = try TempDir()
    let w = FileWatcher(mode: .polling, clock: .system)
    for i in 0..<FileWatcher.maxPaths { try w.add(dir.url.path + "/\(i)") }
    try w.add(dir.url.path + "/0")  // again: idempotent, not one more
    #expect(throws: FileWatcher.Refusal.tooManyPaths(limit: FileWatcher.maxPaths)) {
      try w.add(dir.url.path + "/one-too-many")
    }
  }

  @Test func eventsAreParsedWholeAndBrokenOnesSaidSo() {
    let events = [
      InotifyEvent(wd: 3, mask: UInt32(IN_CREATE), name: "a.md"),
      InotifyEvent(wd: 4, mask: UInt32(IN_MODIFY), name: ""),
      InotifyEvent(wd: 3, mask: UInt32(IN_DELETE), name: String(repeating: "n", count: 255)),
    ]
    let bytes = events.flatMap(\.bytes)
    bytes.withUnsafeBytes { raw in
      #expect(InotifyEvent.parse(raw) == (events, false))
      // Cut anywhere inside the last event: the whole ones before it, and "malformed".
      for cut in [bytes.count - 1, bytes.count - 200, bytes.count - 270] {
        let r = InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: raw[0..<cut]))
        #expect(r.events == Array(events.prefix(2)) && r.malformed, "cut at \(cut)")
      }
    }
    // A length past the cap.
    var huge = InotifyEvent(wd: 1, mask: 0, name: "").bytes
    huge.replaceSubrange(12..<16, with: withUnsafeBytes(of: UInt32(1 << 20)) { Array($0) })
    huge.withUnsafeBytes { #expect(InotifyEvent.parse($0).malformed) }
  }
}

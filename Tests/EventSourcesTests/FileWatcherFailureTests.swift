import Clock
import Foundation
import Glibc
import TestSupport
import Testing

@testable import EventSources
@testable import SourceKit

/// The kernel failing the watcher, and telling it events were lost.
@Suite("FileWatcher on a failing kernel")
struct FileWatcherFailureTests {
  @Test(arguments: [ENOSYS, EMFILE]) func noInotifyMeansPolling(errno: Int32) throws {
    let dir = try TempDir()
    let file = dir.url.path + "/events.jsonl"
    try append("", to: file)
    let fake = FakeInotify()
    fake.initFailure = errno
    let w = FileWatcher(mode: .automatic, pollInterval: 0.05, debounce: 0.02, syscalls: fake.syscalls, clock: .system)
    #expect(!w.usesInotify)
    w.watch(file)
    try append("x", to: file)
    #expect(collect(w, until: file).contains(file))
    #expect(fake.addedNone)
  }

  @Test func theWatchLimitMeansPollingThatPath() throws {
    let dir = try TempDir()
    let file = dir.url.path + "/events.jsonl"
    let other = dir.url.path + "/other.jsonl"
    try append("", to: file)
    try append("", to: other)
    let fake = FakeInotify()
    fake.addFailure = { $0 == file ? ENOSPC : nil }
    let w = FileWatcher(mode: .automatic, pollInterval: 0.05, debounce: 0.02, syscalls: fake.syscalls, clock: .system)
    w.watch(file)
    w.watch(other)
    #expect(w.usesInotify)
    #expect(w.polledPaths == [file])
    // The fake kernel never reports anything: what is seen, polling saw.
    try append("x", to: file)
    #expect(collect(w, until: file).contains(file))
    try append("x", to: other)
    #expect(!collect(w, until: other, within: 0.3).contains(other), "the other path is left to inotify")
  }

  @Test func anOverflowReportsEverything() throws {
    let dir = try TempDir()
    let paths = [dir.url.path + "/a.jsonl", dir.url.path + "/features", dir.url.path + "/missing/b.md"]
    try append("", to: paths[0])
    try FileManager.default.createDirectory(atPath: paths[1], withIntermediateDirectories: false)
    let fake = FakeInotify()
    let w = FileWatcher(mode: .inotify, pollInterval: 0.05, debounce: 0.02, syscalls: fake.syscalls, clock: .system)
    for p in paths { w.watch(p) }
    #expect(w.wait(timeout: 0.1).isEmpty)
    fake.enqueue(InotifyEvent(wd: -1, mask: UInt32(IN_Q_OVERFLOW), name: ""))
    #expect(w.wait(timeout: 5) == Set(paths))
  }

  @Test func bytesThatAreNotEventsCountAsAnOverflow() throws {
    let dir = try TempDir()
    let file = dir.url.path + "/a.jsonl"
    try append("", to: file)
    let fake = FakeInotify()
    let w = FileWatcher(mode: .inotify, pollInterval: 0.05, debounce: 0.02, syscalls: fake.syscalls, clock: .system)
    w.watch(file)
    // An event cut short (its name's length runs past the bytes), for a watch nobody has:
    // only the broken bytes can make the file reported.
    var broken = InotifyEvent(wd: 99, mask: UInt32(IN_MODIFY), name: "x").bytes
    broken.removeLast(4)
    fake.enqueue(bytes: broken)
    #expect(w.wait(timeout: 5) == [file])
  }

  @Test func aWatchTheKernelDroppedIsAddedAgain() throws {
    let dir = try TempDir()
    let folder = dir.url.path + "/features"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let fake = FakeInotify()
    let w = FileWatcher(mode: .inotify, pollInterval: 0.05, debounce: 0.02, syscalls: fake.syscalls, clock: .system)
    w.watch(folder)
    let wd = try #require(fake.wd(folder))
    #expect(fake.adds(of: folder) == 1)
    // The folder removed and made again: the kernel says the watch is gone (IN_DELETE_SELF,
    // then IN_IGNORED).
    fake.enqueue(InotifyEvent(wd: wd, mask: UInt32(IN_DELETE_SELF), name: ""))
    fake.enqueue(InotifyEvent(wd: wd, mask: UInt32(IN_IGNORED), name: ""))
    #expect(w.wait(timeout: 5).contains(folder))
    #expect(fake.adds(of: folder) >= 2, "watched again")
    // Events on the new watch are reported.
    let again = try #require(fake.wd(folder))
    fake.enqueue(InotifyEvent(wd: again, mask: UInt32(IN_CLOSE_WRITE), name: "a.md"))
    #expect(w.wait(timeout: 5) == [folder, folder + "/a.md"])
  }
}

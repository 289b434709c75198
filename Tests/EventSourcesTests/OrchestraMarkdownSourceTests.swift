import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import EventSources

/// `orchestra-md:`: the board follows a `.projects/` tree while a second process writes it as
/// the plugin does.
@Suite("Following an Orchestra markdown tree", .serialized)
struct OrchestraMarkdownSourceTests {
  static func follow(_ workspace: String) -> (OrchestraMarkdownSource, LiveBoard) {
    let source = OrchestraMarkdownSource(origin: "orchestra-md:\(workspace)", workspace: workspace, clock: .system)
    let board = LiveBoard()
    source.start { board.put($0) }
    return (source, board)
  }

  /// Waits for `condition`, prints how long it took, and gives the seconds (nil: not within 5 s).
  static func latency(_ what: String, _ board: LiveBoard, _ condition: (BoardState) -> Bool) -> Double? {
    let start = Date()
    let met = board.wait(5, condition)
    let seconds = Date().timeIntervalSince(start)
    print("orchestra-md: \(what) reached the board in \(String(format: "%.3f", seconds)) s")
    return met ? seconds : nil
  }

  @Test func everyChangeReachesTheBoard() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.project("web")
    try writer.feature(["id": "FEAT-A", "title": "A", "status": "todo", "estimate": "M"])
    try writer.feature(["id": "FEAT-B", "title": "B", "status": "in-progress"])
    let (source, board) = Self.follow(dir.url.path)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features.count == 2 && $0.origins[source.origin]?.connection == .live })
    #expect(board.board().origins[source.origin]?.connectionDetail == "markdown \(dir.url.path)/.projects")
    #expect(board.board().workflow(forProject: "web") == .upstream)
    #expect(board.snapshots == 1)

    // A status change and a label change into a sprint.
    try writer.feature(
      [
        "id": "FEAT-A", "title": "A", "status": "in-review", "labels": ["sprint:s1"],
        "updated_at": "2026-11-04T10:00:00Z",
      ])
    let moved = Self.latency("a status and label change", board) {
      $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-review"
        && $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.ownSprintIds == ["s1"]
    }
    #expect(moved != nil)
    // Out of the sprint again.
    try writer.feature(["id": "FEAT-A", "title": "A", "status": "in-review", "updated_at": "2026-11-04T10:05:00Z"])
    #expect(
      Self.latency("a label removed", board) {
        $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.ownSprintIds == []
      } != nil)
    // A new feature, and a delete.
    try writer.feature(["id": "FEAT-C", "title": "C", "status": "todo", "updated_at": "2026-11-04T10:10:00Z"])
    #expect(
      Self.latency("a new feature", board) { $0.features[FeatureKey(project: "web", id: "FEAT-C")] != nil } != nil)
    #expect(
      board.board().history[FeatureKey(project: "web", id: "FEAT-C")]?.versions.first?.at
        == Make.t("2026-11-04T10:10:00Z"), "timed by updated_at")
    try writer.delete("FEAT-B")
    #expect(Self.latency("a delete", board) { $0.features[FeatureKey(project: "web", id: "FEAT-B")] == nil } != nil)
    #expect(board.board().counters.rejected == 0)
    #expect(board.board().features.count == 2)
  }

  @Test func aHalfWrittenFileIsNotRejectedAndItsFeatureNeverVanishes() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.feature(["id": "FEAT-A", "title": "A", "status": "todo"])
    let (source, board) = Self.follow(dir.url.path)
    defer { source.stop() }
    #expect(board.wait(5) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "todo" })
    // The first 40 bytes (inside the front matter), a pause past the debounce and a scan or
    // two, then the rest and the sidecar: the source sees the torn file in between.
    let vanished = Vanished()
    let watcher = Thread {
      let end = Date().addingTimeInterval(3)
      while Date() < end {
        if board.board().features[FeatureKey(project: "web", id: "FEAT-A")] == nil { vanished.seen() }
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
    watcher.start()
    let start = Date()
    try writer.feature(["id": "FEAT-A", "title": "A", "status": "in-progress"], split: 40, pause: 0.8)
    #expect(
      Self.latency("the rest of a half-written file", board) {
        $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "in-progress"
      } != nil)
    print(
      "orchestra-md: from the start of the torn write: \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    #expect(board.board().counters.rejected == 0, "a torn read is retried, not rejected")
    Thread.sleep(forTimeInterval: 1.5)
    #expect(board.board().counters.rejected == 0)
    #expect(!vanished.ever, "FEAT-A vanished during the write")
  }

  @Test func aTreeThatAppearsLaterIsFollowedFromThen() throws {
    let dir = try TempDir()
    let (source, board) = Self.follow(dir.url.path)
    defer { source.stop() }
    #expect(board.wait(3) { $0.origins[source.origin]?.connection == .offline })
    #expect(
      board.board().origins[source.origin]?.connectionDetail == "\(dir.url.path): no .projects folder")
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.feature(["id": "FEAT-X", "title": "X", "status": "todo"])
    #expect(
      Self.latency("a tree that appears", board) {
        $0.features[FeatureKey(project: "web", id: "FEAT-X")] != nil && $0.origins[source.origin]?.connection == .live
      } != nil)
  }

  /// A push hint makes the source look at once: here its waiter never reports a change, and its
  /// safety look is a minute away, so only the hint can bring the change in time.
  @Test func aHintIsALookNow() throws {
    let dir = try TempDir()
    let writer = try MarkdownWriter(workspace: dir.url.path)
    defer { writer.stop() }
    try writer.feature(["id": "FEAT-A", "title": "A", "status": "todo"])
    let source = OrchestraMarkdownSource(
      origin: "orchestra-md:hint", workspace: dir.url.path, projects: nil, clock: .system,
      waiter: DeafWaiter())
    source.rescanInterval = 60
    let board = LiveBoard()
    source.start { board.put($0) }
    defer { source.stop() }
    #expect(board.wait(5) { $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "todo" })
    try writer.feature(["id": "FEAT-A", "title": "A", "status": "done"])
    source.lookNow()
    #expect(
      Self.latency("a change with a hint", board) {
        $0.features[FeatureKey(project: "web", id: "FEAT-A")]?.status == "done"
      } != nil)
  }

  @Test func theExportSaysWhatItLacks() throws {
    let (source, board) = Self.follow(Paths.fixtures.appendingPathComponent("markdown/export").path)
    defer { source.stop() }
    #expect(
      board.wait(5) {
        $0.features[FeatureKey(project: "web", id: "FEAT-EXP")] != nil && $0.origins[source.origin]?.connection == .live
      })
    #expect(
      board.board().origins[source.origin]?.connectionDetail?.hasSuffix(
        "export_markdown snapshot: no labels, versions or timestamps") == true)
  }
}

/// A waiter that never hears a change: it only sleeps, until its timeout or `wake()`.
private final class DeafWaiter: ChangeWaiting, @unchecked Sendable {
  private let condition = NSCondition()
  private var woken = false
  var usesInotify: Bool { false }
  func watch(_ path: String) {}
  func wake() {
    condition.lock()
    woken = true
    condition.signal()
    condition.unlock()
  }
  func wait(timeout: Double) -> Set<String> {
    condition.lock()
    defer { condition.unlock() }
    if !woken { _ = condition.wait(until: Date().addingTimeInterval(timeout)) }
    woken = false
    return []
  }
}

/// Whether a feature was ever missing, as seen from another thread.
private final class Vanished: @unchecked Sendable {
  private let lock = NSLock()
  private var flag = false
  func seen() { lock.withLock { flag = true } }
  var ever: Bool { lock.withLock { flag } }
}

import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// A follower handed a restored board's position resumes there, passing over the lines the board
/// holds past it, and reads from the top a file that is no longer the one it read.
@Suite("A followed file resumed from a position", .serialized)
struct FollowerResumeTests {
  static func lines(_ range: Range<Int>, tag: String = "F") -> String {
    range.map { n in
      #"{"topic":"feature.created","time":"2026-11-03T09:00:00Z","payload":{"id":"\#(tag)\#(n)","status":"todo"}}"#
        + "\n"
    }.joined()
  }

  /// Follows `file` from `start` onto `board` (a board restored, or a new one) until `until`
  /// holds; returns the board and every input delivered.
  static func follow(
    _ file: URL, from board: BoardState, until: @escaping (BoardState) -> Bool
  ) -> (BoardState, [BoardInput]) {
    let origin = "jsonl:\(file.path)"
    let source = try! SourceRegistry.standard.parse("jsonl:" + file.path).configuration.make(
      SourceContext(
        locator: WorkspaceLocator(home: "/nonexistent", currentDirectory: "/"),
        clock: .system.stamping { Instant(millis: 0) },
        restored: board.origins))
    let box = Collected()
    source.start { box.put($0) }
    defer { source.stop() }
    let end = Date().addingTimeInterval(10)
    var state = board
    var seen: [BoardInput] = []
    while Date() < end {
      for i in box.take() {
        Reducer.reduce(into: &state, i)
        seen.append(i)
      }
      // Settled: the condition holds, and the position after the last line is said.
      if until(state), state.origins[origin]?.linesPastFile == 0 { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Thread.sleep(forTimeInterval: 0.3)
    for i in box.take() {
      Reducer.reduce(into: &state, i)
      seen.append(i)
    }
    return (state, seen)
  }

  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [BoardInput] = []
    func put(_ i: BoardInput) { lock.withLock { items.append(i) } }
    func take() -> [BoardInput] {
      lock.withLock {
        defer { items.removeAll() }
        return items
      }
    }
  }

  static func events(_ inputs: [BoardInput]) -> [String] {
    inputs.compactMap { i in
      if case .event(let e) = i, case .featureCreated(let f) = e.body { return f.id }
      return nil
    }
  }

  static func detail(_ state: BoardState, _ file: URL) -> String {
    state.origins["jsonl:\(file.path)"]?.connectionDetail ?? ""
  }

  func append(_ text: String, to file: URL) throws {
    let h = try FileHandle(forWritingTo: file)
    h.seekToEndOfFile()
    h.write(Data(text.utf8))
    try h.close()
  }

  @Test func resumesAtThePositionAndReadsOnlyWhatWasAppended() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("e.jsonl")
    try Self.lines(0..<10).write(to: file, atomically: false, encoding: .utf8)
    let (first, firstInputs) = Self.follow(file, from: BoardState()) { $0.features.count == 10 }
    #expect(Self.events(firstInputs).count == 10)
    let p = try #require(first.origins["jsonl:\(file.path)"]?.file)
    #expect(p.offset == Int64(try Data(contentsOf: file).count) && p.line == 10)
    try append(Self.lines(10..<13) + "not json\n", to: file)
    let (second, inputs) = Self.follow(file, from: first) { $0.features.count == 13 }
    #expect(Self.events(inputs) == ["F10", "F11", "F12"], "only the appended lines")
    #expect(Self.detail(second, file).contains("resumed where the journal left it: line 11"))
    // Line numbers go on from where it resumed.
    #expect(second.origins["jsonl:\(file.path)"]?.lastError?.contains("e.jsonl:14:") == true)
    #expect(second.origins["jsonl:\(file.path)"]?.file?.line == 14)
  }

  @Test func passesOverTheLinesTheBoardHoldsPastThePosition() throws {
    // A board killed after it took lines but before the position after them: the position is
    // the file's top and 6 lines are past it.
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("e.jsonl")
    try Self.lines(0..<10).write(to: file, atomically: false, encoding: .utf8)
    var held = BoardState()
    let origin = "jsonl:\(file.path)"
    var st = stat()
    #expect(stat(file.path, &st) == 0)
    let top = FilePosition(
      device: UInt64(st.st_dev), inode: UInt64(st.st_ino), offset: 0, line: 0, head: FilePosition.hash([]),
      tail: FilePosition.hash([]))
    Reducer.reduce(into: &held, .fileRead(origin: origin, at: Instant(millis: 0), through: top))
    for i in 0..<6 {
      Reducer.reduce(
        into: &held,
        .event(Event(origin: origin, time: Instant(millis: 0), body: .featureCreated(Feature(id: "F\(i)")))))
    }
    #expect(held.origins[origin]?.linesPastFile == 6)
    let (after, inputs) = Self.follow(file, from: held) { $0.features.count == 10 }
    #expect(Self.events(inputs) == ["F6", "F7", "F8", "F9"])
    #expect(Self.detail(after, file).contains("past 6 more lines"))
    #expect(after.origins[origin]?.events == 10)
  }

  @Test func aFileRewrittenInPlaceToTheSameSizeIsReadFromTheTop() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("e.jsonl")
    try Self.lines(0..<10).write(to: file, atomically: false, encoding: .utf8)
    let (first, _) = Self.follow(file, from: BoardState()) { $0.features.count == 10 }
    // Same inode, same size, other bytes.
    try Self.lines(0..<10, tag: "G").write(to: file, atomically: false, encoding: .utf8)
    let (second, inputs) = Self.follow(file, from: first) { $0.features.count == 20 }
    #expect(Self.events(inputs).count == 10 && Self.events(inputs).allSatisfy { $0.hasPrefix("G") })
    #expect(Self.detail(second, file).contains("read from the top: its bytes before where the journal left it"))
    #expect(second.origins["jsonl:\(file.path)"]?.file?.line == 10)
  }

  @Test func aBoardFromAnOlderJournalWithoutAPositionReadsFromTheTopAndSaysSo() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("e.jsonl")
    try Self.lines(0..<4).write(to: file, atomically: false, encoding: .utf8)
    var held = BoardState()
    let origin = "jsonl:\(file.path)"
    Reducer.reduce(
      into: &held, .event(Event(origin: origin, time: Instant(millis: 0), body: .featureCreated(Feature(id: "F0")))))
    let (after, inputs) = Self.follow(file, from: held) { $0.origins[origin]?.file?.line == 4 }
    #expect(Self.events(inputs) == ["F0", "F1", "F2", "F3"])
    #expect(Self.detail(after, file).contains("read from the top: the journal holds no position for it"))
  }
}

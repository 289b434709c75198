import Testing
import WallboardCore

@testable import Codec

/// A followed file's position goes through the reducer and the codec: the board keeps where the
/// file was read to and how many of its lines came after, so a restored board agrees with itself.
@Suite("A followed file's position on the board")
struct FilePositionTests {
  static let origin = "jsonl:/tmp/e.jsonl"
  static let at = Instant(seconds: 1_800_000_000)
  static let position = FilePosition(device: 2049, inode: 77, offset: 4096, line: 30, head: 0xdead_beef, tail: 42)

  static func event(_ id: String, origin: String = origin) -> BoardInput {
    .event(Event(origin: origin, time: at, body: .featureCreated(Feature(id: id, title: id, status: "todo"))))
  }

  @Test func theBoardCountsTheLinesPastTheLastPosition() {
    var s = BoardState()
    // Before any position (a source that never says one), nothing is counted.
    Reducer.reduce(into: &s, Self.event("A"))
    #expect(s.origins[Self.origin]?.file == nil && s.origins[Self.origin]?.linesPastFile == 0)
    Reducer.reduce(into: &s, .fileRead(origin: Self.origin, at: Self.at, through: Self.position))
    #expect(s.origins[Self.origin]?.file == Self.position && s.origins[Self.origin]?.linesPastFile == 0)
    Reducer.reduce(into: &s, Self.event("B"))
    Reducer.reduce(into: &s, .rejected(origin: Self.origin, at: Self.at, reason: "bad"))
    Reducer.reduce(into: &s, Self.event("B"))  // the same again: still a line read
    Reducer.reduce(into: &s, .connection(origin: Self.origin, status: .live, at: Self.at, detail: nil))
    Reducer.reduce(into: &s, Self.event("X", origin: "sim"))
    #expect(s.origins[Self.origin]?.linesPastFile == 3, "events and rejections of its origin, not connections")
    #expect(s.origins["sim"]?.file == nil && s.origins["sim"]?.linesPastFile == 0)
    var later = Self.position
    later.offset = 9000
    Reducer.reduce(into: &s, .fileRead(origin: Self.origin, at: Self.at, through: later))
    #expect(s.origins[Self.origin]?.file == later && s.origins[Self.origin]?.linesPastFile == 0)
  }

  @Test func thePositionAndTheCountRoundTripThroughTheCodec() throws {
    let input = BoardInput.fileRead(origin: Self.origin, at: Self.at, through: Self.position)
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(input)) == input)
    var s = BoardState()
    Reducer.reduce(into: &s, input)
    Reducer.reduce(into: &s, Self.event("A"))
    let back = try BoardCodec.decodeState(BoardCodec.encode(s, maxBytes: 1 << 20))
    #expect(back == s)
    #expect(back.origins[Self.origin]?.linesPastFile == 1)
  }

  @Test func anOlderBlobHasNoPositionAndCannotHoldOne() throws {
    // A version 3 blob of an origin (flags 0, four tallies, no cursor) reads as before.
    var s = BoardState()
    Reducer.reduce(into: &s, Self.event("A"))
    var bytes = try BoardCodec.encode(s, maxBytes: 1 << 20)
    bytes[0] = 3
    // Without the agents' locks (version 6), which end a state: none here, one byte of count.
    #expect(bytes.last == 0)
    bytes.removeLast()
    #expect(try BoardCodec.decodeState(bytes).origins[Self.origin]?.file == nil)
    // The new input's tag is not one a version 3 blob may hold.
    var input = BoardCodec.encode(.fileRead(origin: Self.origin, at: Self.at, through: Self.position))
    input[0] = 3
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput(input) }
  }
}

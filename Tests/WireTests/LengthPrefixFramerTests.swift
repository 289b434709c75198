import Testing
import Wire

@Suite("Length-prefix framer")
struct LengthPrefixFramerTests {
  /// Several frames, an empty one among them, one with a prefix byte above 0, and a real message.
  static let frames: [[UInt8]] = [
    [1, 2, 3],
    [],
    (0..<300).map { UInt8(truncatingIfNeeded: $0) },
    [],
    PluginResponse(response: .eventDelivery(EventDelivery(subscriptionId: "s1", topic: "heartbeat"))).encode(),
    [0xFF],
  ]
  static let stream: [UInt8] = frames.flatMap(LengthPrefixFramer.frame)

  /// The frames `chunks` give, and whether the framer ended mid-frame.
  static func run(_ chunks: [ArraySlice<UInt8>], cap: Int = 1024) throws -> ([[UInt8]], Bool) {
    var framer = LengthPrefixFramer(maxFrameBytes: cap)
    var out: [[UInt8]] = []
    for c in chunks { out += try framer.push(c) }
    return (out, framer.isMidFrame)
  }

  static func chunked(_ bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
    stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
  }

  @Test func framesCarryABigEndianLength() {
    #expect(LengthPrefixFramer.frame([9, 8]) == [0, 0, 0, 2, 9, 8])
    #expect(LengthPrefixFramer.frame([]) == [0, 0, 0, 0])
    #expect(Array(LengthPrefixFramer.frame(Self.frames[2]).prefix(4)) == [0, 0, 1, 0x2C])
  }

  @Test func whole() throws {
    let (frames, mid) = try Self.run([Self.stream[...]])
    #expect(frames == Self.frames)
    #expect(!mid)
  }

  @Test func byteByByte() throws {
    var framer = LengthPrefixFramer()
    var out: [[UInt8]] = []
    for b in Self.stream {
      out += try framer.push([b])
      #expect(framer.bufferedByteCount <= 300 + 4)
    }
    #expect(out == Self.frames)
    #expect(framer.bufferedByteCount == 0 && !framer.isMidFrame)
  }

  @Test("every chunk size gives the same frames", arguments: 1...64)
  func chunkSize(_ size: Int) throws {
    let (frames, mid) = try Self.run(Self.chunked(Self.stream, size: size))
    #expect(frames == Self.frames)
    #expect(!mid)
  }

  @Test func anUnfinishedFrameIsHeldAndReported() throws {
    var framer = LengthPrefixFramer()
    #expect(try framer.push([0, 0]).isEmpty)
    #expect(framer.isMidFrame && framer.bufferedByteCount == 2)
    #expect(try framer.push([0, 3, 7]).isEmpty)
    #expect(framer.isMidFrame && framer.bufferedByteCount == 5, "the prefix and one payload byte")
    #expect(try framer.push([8, 9, 0]) == [[7, 8, 9]])
    #expect(framer.isMidFrame && framer.bufferedByteCount == 1)
    #expect(try framer.push([0, 0, 0]) == [[]])
    #expect(!framer.isMidFrame && framer.bufferedByteCount == 0)
  }

  @Test func aFrameOfExactlyTheCapIsAccepted() throws {
    let (frames, _) = try Self.run([LengthPrefixFramer.frame([UInt8](repeating: 1, count: 16))[...]], cap: 16)
    #expect(frames == [[UInt8](repeating: 1, count: 16)])
  }

  @Test("an oversize length is rejected after exactly its 4 bytes", arguments: [UInt32(1025), 0x0100_0000, .max])
  func oversize(length: UInt32) {
    var framer = LengthPrefixFramer(maxFrameBytes: 1024)
    let prefix = [
      UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
      UInt8(truncatingIfNeeded: length),
    ]
    for b in prefix.dropLast() {
      #expect(throws: Never.self) { try framer.push([b]) }
    }
    #expect(framer.bufferedByteCount == 3)
    let expected = FramingError(announcedLength: Int(length), maxFrameBytes: 1024)
    #expect(throws: expected) { try framer.push([prefix[3], 1, 2, 3]) }
    #expect(framer.bufferedByteCount <= 4, "nothing is buffered for the announced payload")
    #expect(framer.hasFailed)
    // The framer stays failed, even for bytes that would be a valid frame.
    #expect(throws: expected) { try framer.push(LengthPrefixFramer.frame([1])) }
    #expect(expected.description == "frame of \(length) bytes announced; the cap is 1024")
  }

  @Test func theDefaultCapIsSixteenMebibytes() {
    var framer = LengthPrefixFramer()
    #expect(throws: FramingError(announcedLength: 16 * 1024 * 1024 + 1, maxFrameBytes: 16 * 1024 * 1024)) {
      try framer.push([0x01, 0x00, 0x00, 0x01])
    }
    #expect(framer.bufferedByteCount == 0)
  }

  @Test func framesBeforeAnOversizeLengthInTheSameChunkAreLost() {
    // The chunk is rejected as a whole: the connection is to be dropped anyway.
    var framer = LengthPrefixFramer(maxFrameBytes: 4)
    #expect(throws: FramingError(announcedLength: 5, maxFrameBytes: 4)) {
      try framer.push(LengthPrefixFramer.frame([1]) + [0, 0, 0, 5])
    }
  }
}

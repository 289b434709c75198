import Testing
import Wire

@Suite("JSON Lines framer")
struct JSONLinesFramerTests {
  typealias Item = JSONLinesFramer.Item

  static let cap = 16
  /// Blank lines, CRLF, whitespace-only lines, a too-long line, a line of exactly the cap with
  /// CRLF, a too-long line whose byte after the cap is `\r`, and a last line without newline.
  static let input: [UInt8] = Array(
    ("{\"a\":1}\n" + "\n" + "  \t \r\n" + "{\"b\":2}\r\n" + String(repeating: "x", count: 40)
      + "\n" + "0123456789abcdef\r\n" + "0123456789abcdef\rtail\n" + "[3]\n" + "\r\n"
      + "{\"last\":true}").utf8)

  static let expected: [Item] = [
    .line(Array("{\"a\":1}".utf8), number: 1),
    .line(Array("{\"b\":2}".utf8), number: 4),
    .tooLong(number: 5, bytes: 17),
    .line(Array("0123456789abcdef".utf8), number: 6),
    .tooLong(number: 7, bytes: 18),
    .line(Array("[3]".utf8), number: 8),
    .line(Array("{\"last\":true}".utf8), number: 10),
  ]

  static func run(_ chunks: [ArraySlice<UInt8>], cap: Int = cap) -> [Item] {
    var framer = JSONLinesFramer(maxLineBytes: cap)
    var items: [Item] = []
    for c in chunks { items += framer.push(c) }
    return items + framer.finish()
  }

  static func chunked(_ bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
    stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
  }

  @Test func whole() {
    #expect(Self.run([Self.input[...]]) == Self.expected)
  }

  @Test func lineByLine() {
    var chunks: [ArraySlice<UInt8>] = []
    var start = 0
    for (i, b) in Self.input.enumerated() where b == 0x0A {
      chunks.append(Self.input[start...i])
      start = i + 1
    }
    chunks.append(Self.input[start...])
    #expect(chunks.count == 10)
    #expect(Self.run(chunks) == Self.expected)
  }

  @Test func byteByByte() {
    #expect(Self.run(Self.chunked(Self.input, size: 1)) == Self.expected)
  }

  @Test("every chunk size gives the same items", arguments: 1...64)
  func chunkSize(_ size: Int) {
    #expect(Self.run(Self.chunked(Self.input, size: size)) == Self.expected)
  }

  @Test func acceptsNonContiguousCollections() {
    var framer = JSONLinesFramer(maxLineBytes: 100)
    let items = framer.push(Array("[1]\n[2".utf8).lazy.map { $0 }) + framer.finish()
    #expect(items == [.line(Array("[1]".utf8), number: 1), .line(Array("[2".utf8), number: 2)])
  }

  @Test func finishWithoutPendingLineAddsNothing() {
    var framer = JSONLinesFramer(maxLineBytes: 100)
    #expect(framer.push(Array("[1]\n".utf8)) == [.line(Array("[1]".utf8), number: 1)])
    #expect(framer.finish() == [])
    #expect(framer.push(Array("[2]\n".utf8)) == [.line(Array("[2]".utf8), number: 2)])
  }

  @Test func tooLongAtEndOfStreamIsReportedOnce() {
    let bytes = Array(String(repeating: "y", count: 30).utf8)
    #expect(Self.run([bytes[...]]) == [.tooLong(number: 1, bytes: 17)])
    #expect(Self.run(Self.chunked(bytes, size: 7)) == [.tooLong(number: 1, bytes: 17)])
  }

  @Test func capWithCRAtTheEndOfTheStream() {
    let bytes = Array("0123456789abcdef\r".utf8)
    let expected: [Item] = [.line(Array("0123456789abcdef".utf8), number: 1)]
    #expect(Self.run([bytes[...]]) == expected)
    #expect(Self.run(Self.chunked(bytes, size: 1)) == expected)
  }

  @Test func overlongLineMemoryStaysBounded() {
    let cap = 1_000
    var framer = JSONLinesFramer(maxLineBytes: cap)
    let block = [UInt8](repeating: UInt8(ascii: "z"), count: 4_096)
    var items: [Item] = []
    var peak = 0
    for _ in 0..<2_560 {  // 10 MiB of one line
      items += framer.push(block)
      peak = max(peak, framer.bufferedByteCount)
    }
    items += framer.push(Array("\n{}\n".utf8))
    #expect(peak <= cap + 1)
    #expect(framer.bufferedByteCount == 0)
    #expect(items == [.tooLong(number: 1, bytes: cap + 1), .line(Array("{}".utf8), number: 2)])
  }
}

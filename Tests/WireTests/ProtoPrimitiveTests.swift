import Testing
import Wire

/// Runs `body` with a reader over `bytes`.
func reading<T>(_ bytes: [UInt8], _ body: (inout ProtoReader) throws(ProtoError) -> T) throws(ProtoError) -> T {
  let result = bytes.withUnsafeBytes { raw in
    Result { () throws(ProtoError) in
      var r = ProtoReader(raw)
      return try body(&r)
    }
  }
  return try result.get()
}

/// The error `body` throws over `bytes`, or `nil` when it throws none.
func protoError<T>(_ bytes: [UInt8], _ body: (inout ProtoReader) throws(ProtoError) -> T) -> ProtoError? {
  do {
    _ = try reading(bytes, body)
    return nil
  } catch {
    return error
  }
}

/// Bytes from a hex string with optional spaces: `"0a 02 73 31"`.
func hex(_ s: String) -> [UInt8] {
  let digits = s.filter { !$0.isWhitespace }
  precondition(digits.count % 2 == 0, "odd hex string \(s)")
  var out: [UInt8] = []
  var i = digits.startIndex
  while i < digits.endIndex {
    let j = digits.index(i, offsetBy: 2)
    out.append(UInt8(digits[i..<j], radix: 16)!)
    i = j
  }
  return out
}

@Suite("Protobuf primitives")
struct ProtoPrimitiveTests {
  static let varints: [(UInt64, String)] = [
    (0, "00"), (1, "01"), (127, "7f"), (128, "80 01"), (300, "ac 02"), (16_383, "ff 7f"),
    (16_384, "80 80 01"), (UInt64(UInt32.max), "ff ff ff ff 0f"),
    (UInt64.max, "ff ff ff ff ff ff ff ff ff 01"),
    (UInt64(bitPattern: -1), "ff ff ff ff ff ff ff ff ff 01"),
    (1 << 63, "80 80 80 80 80 80 80 80 80 01"),
  ]

  @Test("varints encode and decode to the wire format's bytes", arguments: varints)
  func varint(value: UInt64, bytes: String) throws {
    var w = ProtoWriter()
    w.varint(value)
    #expect(w.bytes == hex(bytes))
    let (read, atEnd) = try reading(hex(bytes)) { (r) throws(ProtoError) in (try r.varint(), r.isAtEnd) }
    #expect(read == value)
    #expect(atEnd)
  }

  @Test(
    "truncated varints are rejected where they start", arguments: ["80", "ff ff", "ac", "ff ff ff ff ff ff ff ff ff"])
  func truncatedVarint(bytes: String) {
    let e = protoError(hex(bytes)) { (r) throws(ProtoError) in try r.varint() }
    #expect(e == ProtoError(.truncatedVarint, offset: 0))
    #expect(e?.description == "truncated varint at byte 0")
  }

  @Test(
    "over-long varints are rejected",
    arguments: ["ff ff ff ff ff ff ff ff ff 02", "80 80 80 80 80 80 80 80 80 80 01", "ff ff ff ff ff ff ff ff ff 7f"])
  func overlongVarint(bytes: String) {
    let e = protoError(hex("08") + hex(bytes)) { (r) throws(ProtoError) in
      _ = try r.tag()
      return try r.varint()
    }
    #expect(e == ProtoError(.overlongVarint, offset: 1))
  }

  @Test func fixedWidthValuesAreLittleEndian() throws {
    var w = ProtoWriter()
    w.fixed32(0x0102_0304)
    w.fixed64(0x0102_0304_0506_0708)
    w.double(2, 1.0)
    #expect(w.bytes == hex("04 03 02 01  08 07 06 05 04 03 02 01  11 00 00 00 00 00 00 f0 3f"))
    let (a, b, tag, x) = try reading(w.bytes) { (r) throws(ProtoError) in
      let a = try r.fixed32()
      let b = try r.fixed64()
      let tag = try r.tag()!
      return (a, b, tag, try r.double(tag))
    }
    #expect(a == 0x0102_0304 && b == 0x0102_0304_0506_0708)
    #expect(tag == ProtoTag(field: 2, wireType: .fixed64, offset: 12))
    #expect(x == 1.0)
  }

  @Test func truncatedFixedValuesAreRejected() {
    #expect(
      protoError(hex("01 02 03")) { (r) throws(ProtoError) in try r.fixed32() }
        == ProtoError(.truncatedFixed(needed: 4, left: 3), offset: 0))
    #expect(
      protoError(hex("01 02 03 04 05 06 07")) { (r) throws(ProtoError) in try r.fixed64() }
        == ProtoError(.truncatedFixed(needed: 8, left: 7), offset: 0))
  }

  @Test func tagsCarryFieldNumberWireTypeAndOffset() throws {
    // Field 1 varint, field 50 length-delimited (two-byte key), field 2^29-1 fixed32.
    let tags = try reading(hex("08 00  92 03 00  fd ff ff ff 0f 00 00 00 00")) { (r) throws(ProtoError) in
      var tags: [ProtoTag] = []
      while let t = try r.tag() {
        tags.append(t)
        try r.skip(t)
      }
      return tags
    }
    #expect(
      tags == [
        ProtoTag(field: 1, wireType: .varint, offset: 0),
        ProtoTag(field: 50, wireType: .lengthDelimited, offset: 2),
        ProtoTag(field: 0x1FFF_FFFF, wireType: .fixed32, offset: 5),
      ])
  }

  @Test("wire types 3, 4, 6 and 7 are rejected", arguments: [(3, "0b"), (4, "0c"), (6, "0e"), (7, "0f")])
  func unsupportedWireType(wireType: Int, key: String) {
    let e = protoError(hex(key + " 00")) { (r) throws(ProtoError) in try r.tag() }
    #expect(e?.problem == .unsupportedWireType(UInt8(wireType)))
    #expect(e?.offset == 0)
  }

  @Test func startGroupIsNamed() {
    let e = protoError(hex("0b")) { (r) throws(ProtoError) in try r.tag() }
    #expect(e?.description == "(field 1) at byte 0: wire type 3 (start group) is not supported")
    #expect(
      ProtoError(.unsupportedWireType(3), offset: 0).description
        == "wire type 3 (start group) is not supported at byte 0")
  }

  @Test("field number 0 and numbers past 2^29-1 are rejected", arguments: ["00", "02 00", "80 80 80 80 10"])
  func invalidFieldNumber(key: String) {
    let e = protoError(hex(key)) { (r) throws(ProtoError) in try r.tag() }
    guard case .invalidFieldNumber = e?.problem else {
      Issue.record("expected an invalid field number, got \(String(describing: e))")
      return
    }
  }

  @Test func lengthsAreCheckedAgainstWhatIsLeft() throws {
    // 0x0a, then a length of 5 with 4 bytes left.
    let e = protoError(hex("0a 05 61 62 63 64")) { (r) throws(ProtoError) in
      try r.string(try r.tag()!, maxBytes: 100)
    }
    #expect(e == ProtoError(.lengthPastEnd(length: 5, left: 4), offset: 1))
    // A length near 2^64 must not wrap around.
    let huge = protoError(hex("0a ff ff ff ff ff ff ff ff ff 01 00")) { (r) throws(ProtoError) in
      try r.skip(try r.tag()!)
    }
    #expect(huge == ProtoError(.lengthPastEnd(length: UInt64.max, left: 1), offset: 1))
    let exact = try reading(hex("0a 04 61 62 63 64")) { (r) throws(ProtoError) in
      try r.string(try r.tag()!, maxBytes: 4)
    }
    #expect(exact == "abcd")
  }

  @Test func stringsAreCappedAndMustBeUTF8() throws {
    #expect(
      protoError(hex("0a 03 61 62 63")) { (r) throws(ProtoError) in try r.string(try r.tag()!, maxBytes: 2) }
        == ProtoError(.stringTooLong(bytes: 3, limit: 2), offset: 1))
    #expect(
      protoError(hex("0a 02 c3 28")) { (r) throws(ProtoError) in try r.string(try r.tag()!, maxBytes: 9) }
        == ProtoError(.invalidUTF8, offset: 1))
    // A bad byte after a run of ASCII, past the eight-byte ASCII check's first word.
    #expect(
      protoError(hex("0a 0a 61 62 63 64 65 66 67 68 69 ff")) { (r) throws(ProtoError) in
        try r.string(try r.tag()!, maxBytes: 99)
      } == ProtoError(.invalidUTF8, offset: 1))
    #expect(
      try reading(hex("0a 0b 61 62 63 64 65 66 67 68 69 c3 a9")) { (r) throws(ProtoError) in
        try r.string(try r.tag()!, maxBytes: 99)
      } == "abcdefghié")
  }

  @Test func nestedReadersKeepAbsoluteOffsets() throws {
    // Field 1 holds a message whose second field is truncated.
    let e = protoError(hex("0a 04 08 01 10 80")) { (r) throws(ProtoError) in
      var inner = try r.message(try r.tag()!)
      while let t = try inner.tag() { try inner.skip(t) }
    }
    #expect(e == ProtoError(.truncatedVarint, offset: 5))
  }

  @Test func wrongWireTypeForAKnownFieldIsRejected() {
    let e = protoError(hex("08 01")) { (r) throws(ProtoError) in try r.string(try r.tag()!, maxBytes: 9) }
    #expect(e?.problem == .wrongWireType(expected: .lengthDelimited, found: .varint))
  }

  @Test func writerWritesLongLengthPrefixes() throws {
    for n in [0, 1, 127, 128, 300, 20_000] {
      var w = ProtoWriter()
      w.lengthDelimited(3) { w in
        for i in 0..<n { w.varint(UInt64(i % 100)) }
      }
      let body = try reading(w.bytes) { (r) throws(ProtoError) in
        let t = try r.tag()!
        #expect(t.field == 3 && t.wireType == .lengthDelimited)
        let range = try r.lengthDelimited()
        #expect(r.isAtEnd)
        return range.count
      }
      #expect(body == n)
    }
  }

  @Test func scalarFieldsRoundTrip() throws {
    var w = ProtoWriter()
    w.bool(1, true)
    w.int64(2, -5)
    w.int32(3, -1)
    w.string(4, "héllo")
    #expect(w.bytes.prefix(2) == [0x08, 0x01])
    #expect(w.bytes.count == 2 + 11 + 11 + 8)
    let (b, i, j, s) = try reading(w.bytes) { (r) throws(ProtoError) in
      (
        try r.bool(try r.tag()!), try r.int64(try r.tag()!), try r.int32(try r.tag()!),
        try r.string(try r.tag()!, maxBytes: 100)
      )
    }
    #expect(b && i == -5 && j == -1 && s == "héllo")
  }
}

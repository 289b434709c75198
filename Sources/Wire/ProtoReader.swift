/// A field's key as read from the wire: its number, its wire type and where the tag began.
public struct ProtoTag: Hashable, Sendable {
  public var field: Int
  public var wireType: WireType
  /// Byte offset of the tag's first byte.
  public var offset: Int

  public init(field: Int, wireType: WireType, offset: Int) {
    self.field = field
    self.wireType = wireType
    self.offset = offset
  }
}

/// Reads protobuf wire primitives from a byte buffer, checking every length before using it.
///
/// A reader borrows its buffer: it is valid only while the buffer is (inside the
/// `withUnsafeBytes` closure that made it). Offsets are absolute within that buffer, so a nested
/// reader (`nested()`) reports positions in the whole message. Nothing here allocates except
/// `string(maxBytes:)`.
public struct ProtoReader {
  /// The whole buffer; only `offset..<end` belongs to this reader.
  @usableFromInline let base: UnsafeRawBufferPointer
  /// The next byte to read.
  public private(set) var offset: Int
  /// One past the last byte of this reader's message.
  public let end: Int

  /// A reader over all of `buffer`.
  public init(_ buffer: UnsafeRawBufferPointer) {
    base = buffer
    offset = 0
    end = buffer.count
  }

  init(base: UnsafeRawBufferPointer, offset: Int, end: Int) {
    self.base = base
    self.offset = offset
    self.end = end
  }

  /// Whether every byte of this reader's message has been read.
  public var isAtEnd: Bool { offset >= end }

  /// Bytes left in this reader's message.
  public var remaining: Int { end - offset }

  // MARK: Primitives

  /// A base-128 varint of at most 10 bytes whose value fits in 64 bits.
  public mutating func varint() throws(ProtoError) -> UInt64 {
    let start = offset
    // One-byte varints (tags, small lengths, booleans) are by far the most common.
    if start < end {
      let b = base[start]
      if b < 0x80 {
        offset = start + 1
        return UInt64(b)
      }
    }
    var result: UInt64 = 0
    var shift: UInt64 = 0
    var i = start
    while true {
      guard i < end else { throw ProtoError(.truncatedVarint, offset: start) }
      let b = base[i]
      i += 1
      // The 10th byte may only carry bit 63: anything more is over-long or overflows.
      if i - start == 10 && b > 1 { throw ProtoError(.overlongVarint, offset: start) }
      result |= UInt64(b & 0x7F) << shift
      if b < 0x80 {
        offset = i
        return result
      }
      shift += 7
    }
  }

  /// A little-endian 32-bit value.
  public mutating func fixed32() throws(ProtoError) -> UInt32 {
    guard remaining >= 4 else {
      throw ProtoError(.truncatedFixed(needed: 4, left: remaining), offset: offset)
    }
    let v = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    offset += 4
    return UInt32(littleEndian: v)
  }

  /// A little-endian 64-bit value.
  public mutating func fixed64() throws(ProtoError) -> UInt64 {
    guard remaining >= 8 else {
      throw ProtoError(.truncatedFixed(needed: 8, left: remaining), offset: offset)
    }
    let v = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    offset += 8
    return UInt64(littleEndian: v)
  }

  /// A length prefix, checked against the bytes left before anything is done with it; returns
  /// the range of the bytes it announces and moves past them.
  public mutating func lengthDelimited() throws(ProtoError) -> Range<Int> {
    let start = offset
    let length = try varint()
    guard length <= UInt64(remaining) else {
      throw ProtoError(.lengthPastEnd(length: length, left: remaining), offset: start)
    }
    let from = offset
    offset += Int(length)
    return from..<offset
  }

  /// A reader over the next length-delimited field's bytes (a nested message).
  public mutating func nested() throws(ProtoError) -> ProtoReader {
    let range = try lengthDelimited()
    return ProtoReader(base: base, offset: range.lowerBound, end: range.upperBound)
  }

  /// The next length-delimited field's bytes, borrowed from the buffer.
  public mutating func bytes() throws(ProtoError) -> UnsafeRawBufferPointer {
    let range = try lengthDelimited()
    return UnsafeRawBufferPointer(rebasing: base[range])
  }

  /// A length-delimited UTF-8 string of at most `maxBytes` bytes.
  public mutating func string(maxBytes: Int) throws(ProtoError) -> String {
    let start = offset
    let range = try lengthDelimited()
    if range.isEmpty { return "" }
    guard range.count <= maxBytes else {
      throw ProtoError(.stringTooLong(bytes: range.count, limit: maxBytes), offset: start)
    }
    let utf8 = UnsafeRawBufferPointer(rebasing: base[range]).assumingMemoryBound(to: UInt8.self)
    // ASCII needs no validation, and `String(decoding:)` takes its fast path; the generic
    // validating initialiser is several times slower, so only other text goes through it.
    if Self.isASCII(utf8) { return String(decoding: utf8, as: UTF8.self) }
    guard let s = String(validating: utf8, as: UTF8.self) else {
      throw ProtoError(.invalidUTF8, offset: start)
    }
    return s
  }

  /// Whether every byte is below 0x80, eight at a time.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let raw = UnsafeRawBufferPointer(bytes)
    var i = 0
    var bits: UInt64 = 0
    while i + 8 <= raw.count {
      bits |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      i += 8
    }
    while i < raw.count {
      bits |= UInt64(raw[i])
      i += 1
    }
    return bits & 0x8080_8080_8080_8080 == 0
  }

  // MARK: Fields

  /// The next field's tag, or `nil` at the end of this reader's message.
  ///
  /// Rejects field number 0 and numbers above 2^29 − 1, and wire types 3, 4, 6 and 7.
  public mutating func tag() throws(ProtoError) -> ProtoTag? {
    guard offset < end else { return nil }
    let start = offset
    let key = try varint()
    let number = key >> 3
    guard number >= 1 && number <= 0x1FFF_FFFF else {
      throw ProtoError(.invalidFieldNumber(number), offset: start)
    }
    guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
      throw ProtoError(
        .unsupportedWireType(UInt8(key & 7)), fieldNumber: Int(number), offset: start)
    }
    return ProtoTag(field: Int(number), wireType: wireType, offset: start)
  }

  /// Moves past the value of a field that is not read (an unknown field).
  public mutating func skip(_ tag: ProtoTag) throws(ProtoError) {
    switch tag.wireType {
    case .varint: _ = try varint()
    case .fixed64: _ = try fixed64()
    case .lengthDelimited: _ = try lengthDelimited()
    case .fixed32: _ = try fixed32()
    }
  }

  /// Throws unless `tag` has the wire type its field is declared with.
  public func expect(_ tag: ProtoTag, _ wireType: WireType) throws(ProtoError) {
    guard tag.wireType == wireType else {
      throw ProtoError(
        .wrongWireType(expected: wireType, found: tag.wireType), fieldNumber: tag.field,
        offset: tag.offset)
    }
  }

  // MARK: Typed fields

  /// A `string` field's value.
  public mutating func string(_ tag: ProtoTag, maxBytes: Int) throws(ProtoError) -> String {
    try expect(tag, .lengthDelimited)
    return try string(maxBytes: maxBytes)
  }

  /// A `bool` field's value (any non-zero varint is `true`).
  public mutating func bool(_ tag: ProtoTag) throws(ProtoError) -> Bool {
    try expect(tag, .varint)
    return try varint() != 0
  }

  /// An `int64` field's value.
  public mutating func int64(_ tag: ProtoTag) throws(ProtoError) -> Int64 {
    try expect(tag, .varint)
    return Int64(bitPattern: try varint())
  }

  /// An `int32` or enum field's value (truncated to 32 bits, as protobuf runtimes do).
  public mutating func int32(_ tag: ProtoTag) throws(ProtoError) -> Int32 {
    try expect(tag, .varint)
    return Int32(truncatingIfNeeded: try varint())
  }

  /// A `double` field's value.
  public mutating func double(_ tag: ProtoTag) throws(ProtoError) -> Double {
    try expect(tag, .fixed64)
    return Double(bitPattern: try fixed64())
  }

  /// A reader over a message field's bytes.
  public mutating func message(_ tag: ProtoTag) throws(ProtoError) -> ProtoReader {
    try expect(tag, .lengthDelimited)
    return try nested()
  }
}

/// Writes protobuf wire primitives into a growing byte array.
///
/// The field methods always write, even default values: proto3's "defaults are not written" is
/// the message encoders' choice, since a oneof member must be written even when it is zero.
public struct ProtoWriter: Sendable {
  /// What has been written so far.
  public private(set) var bytes: [UInt8]

  public init(capacity: Int = 64) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  // MARK: Primitives

  /// A base-128 varint (1 to 10 bytes).
  public mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  /// A field's key: its number and wire type.
  public mutating func tag(_ field: Int, _ wireType: WireType) {
    precondition(field >= 1 && field <= 0x1FFF_FFFF, "protobuf field numbers are 1…2^29-1, not \(field)")
    varint(UInt64(field) << 3 | UInt64(wireType.rawValue))
  }

  /// A little-endian 32-bit value.
  public mutating func fixed32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// A little-endian 64-bit value.
  public mutating func fixed64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  // MARK: Fields

  /// A length-delimited field whose contents `body` writes into this same writer; the length
  /// prefix is filled in afterwards (one byte is reserved; longer prefixes shift the contents).
  public mutating func lengthDelimited(_ field: Int, _ body: (inout ProtoWriter) -> Void) {
    tag(field, .lengthDelimited)
    let prefix = bytes.count
    bytes.append(0)
    body(&self)
    let length = bytes.count - prefix - 1
    if length < 0x80 {
      bytes[prefix] = UInt8(length)
      return
    }
    var lengthWriter = ProtoWriter(capacity: 10)
    lengthWriter.varint(UInt64(length))
    bytes.replaceSubrange(prefix..<prefix + 1, with: lengthWriter.bytes)
  }

  /// A `bytes` field.
  public mutating func bytes(_ field: Int, _ value: some Collection<UInt8>) {
    tag(field, .lengthDelimited)
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  /// A `string` field.
  public mutating func string(_ field: Int, _ value: String) {
    bytes(field, value.utf8)
  }

  /// A `double` field.
  public mutating func double(_ field: Int, _ value: Double) {
    tag(field, .fixed64)
    fixed64(value.bitPattern)
  }

  /// A `bool` field.
  public mutating func bool(_ field: Int, _ value: Bool) {
    tag(field, .varint)
    bytes.append(value ? 1 : 0)
  }

  /// An `int64` field (negative values take 10 bytes).
  public mutating func int64(_ field: Int, _ value: Int64) {
    tag(field, .varint)
    varint(UInt64(bitPattern: value))
  }

  /// An `int32` or enum field (negative values are sign-extended to 10 bytes, as protobuf does).
  public mutating func int32(_ field: Int, _ value: Int32) {
    int64(field, Int64(value))
  }

  /// A message field.
  public mutating func message(_ field: Int, _ value: some ProtoMessage) {
    lengthDelimited(field) { value.encode(to: &$0) }
  }

  // MARK: Proto3 defaults

  /// A `string` field, unless it is empty (proto3's default is not written).
  public mutating func nonEmpty(_ field: Int, _ value: String) {
    if !value.isEmpty { string(field, value) }
  }
}

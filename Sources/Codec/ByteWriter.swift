internal import WallboardCore

/// Appends the codec's primitives to one growing byte buffer (see `BoardCodec` for the format).
///
/// Varints are LEB128 (seven bits a byte, least significant first); signed numbers are
/// zig-zagged first, so that small negative numbers stay short. Doubles are their IEEE 754 bit
/// pattern, eight bytes little-endian, so that every value (`-0.0`, infinities) comes back
/// bit-exact. Strings are a varint byte count and their UTF-8.
struct ByteWriter {
  /// Everything written so far.
  var bytes: [UInt8]
  /// The longest string written so far, in bytes: the decoder refuses one over
  /// `BoardCodec.maxStringBytes` (`BoardCodec.encode(_:maxBytes:)` checks it).
  var longestString = 0

  init(bytes: [UInt8] = []) { self.bytes = bytes }

  mutating func byte(_ b: UInt8) { bytes.append(b) }

  mutating func varint(_ value: UInt64) {
    if value < 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value))
      return
    }
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(truncatingIfNeeded: v))
  }

  /// A signed number, zig-zagged: 0, -1, 1, -2… become 0, 1, 2, 3….
  mutating func int64(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

  mutating func int(_ v: Int) { int64(Int64(v)) }

  mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

  mutating func double(_ d: Double) {
    let bits = d.bitPattern
    for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k)))) }
  }

  mutating func string(_ s: String) {
    let utf8 = s.utf8
    let n = utf8.count
    if n > longestString { longestString = n }
    varint(UInt64(n))
    // Native strings are contiguous: one copy, not a byte-by-byte walk.
    let copied: Void? = utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
    if copied == nil { bytes.append(contentsOf: utf8) }
  }

  /// A count of items to follow.
  mutating func count(_ n: Int) { varint(UInt64(n)) }

  /// An array of strings: its count, then each.
  mutating func strings(_ list: [String]) {
    count(list.count)
    for s in list { string(s) }
  }

  /// A dictionary in ascending key order (so that equal dictionaries give equal bytes): its
  /// count, then each key and its value.
  mutating func dictionary<V>(_ d: [String: V], _ value: (inout ByteWriter, V) -> Void) {
    count(d.count)
    switch d.count {
    case 0: return
    case 1:
      let (k, v) = d.first!
      string(k)
      value(&self, v)
    default:
      for (k, v) in d.sorted(by: { $0.key < $1.key }) {
        string(k)
        value(&self, v)
      }
    }
  }

  /// A dictionary keyed by feature: the count, then each key's project and id and its value, in
  /// ascending order of the keys (project, then id).
  mutating func keyedDictionary<V>(_ d: [FeatureKey: V], _ value: (inout ByteWriter, V) -> Void) {
    count(d.count)
    for (k, v) in d.count > 1 ? d.sorted(by: { $0.key < $1.key }) : Array(d) {
      string(k.project)
      string(k.id)
      value(&self, v)
    }
  }
}

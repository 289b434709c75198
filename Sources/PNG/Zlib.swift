internal import CZlib

/// Thin wrappers over zlib (`crc32`, `compress2`, `uncompress2`).
enum Zlib {
  /// CRC-32 of `bytes` continuing from `crc` (zlib's `crc32`).
  static func crc32<C: Collection<UInt8>>(_ bytes: C, _ crc: UInt32 = 0) -> UInt32 {
    let result = bytes.withContiguousStorageIfAvailable { buf in
      CZlib.crc32(UInt(crc), buf.baseAddress, UInt32(buf.count))
    }
    if let result { return UInt32(truncatingIfNeeded: result) }
    return crc32(Array(bytes), crc)
  }

  /// `bytes` as a zlib stream at `level` (zlib's `compress2`).
  static func compress(_ bytes: [UInt8], level: Int32) -> [UInt8] {
    var length = compressBound(UInt(bytes.count))
    var out = [UInt8](repeating: 0, count: Int(length))
    let status = out.withUnsafeMutableBufferPointer { dst in
      bytes.withUnsafeBufferPointer { src in
        compress2(dst.baseAddress, &length, src.baseAddress, UInt(src.count), level)
      }
    }
    precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
    out.removeLast(out.count - Int(length))
    return out
  }

  /// The outcome of inflating into a buffer of a known size.
  enum Inflated {
    case ok
    /// The stream ended after this many bytes, before the buffer was full.
    case short(Int)
    /// The stream holds more data than the buffer.
    case tooLong
    /// The stream is corrupt or ends early.
    case corrupt
  }

  /// Inflates the zlib stream `bytes` into `out`, never writing past its end (`uncompress2`).
  static func uncompress(_ bytes: [UInt8], into out: inout [UInt8]) -> Inflated {
    var length = UInt(out.count)
    var sourceLength = UInt(bytes.count)
    let status = out.withUnsafeMutableBufferPointer { dst in
      bytes.withUnsafeBufferPointer { src in
        uncompress2(dst.baseAddress, &length, src.baseAddress, &sourceLength)
      }
    }
    switch status {
    case Z_OK: return Int(length) == out.count ? .ok : .short(Int(length))
    case Z_BUF_ERROR: return .tooLong
    default: return .corrupt
    }
  }
}

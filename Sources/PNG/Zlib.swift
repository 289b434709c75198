internal import CZlib

/// Thin wrappers over zlib (`crc32`, `adler32`, `compress2`, `uncompress2`, and raw deflate).
enum Zlib {
  /// Adler-32 of `bytes` (zlib's `adler32`, from its start value 1).
  static func adler32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: CZlib.adler32(1, $0.baseAddress, UInt32($0.count))) }
  }

  /// The Adler-32 of two byte strings one after the other, from each one's and the second's
  /// length (zlib's `adler32_combine`).
  static func adler32Combine(_ first: UInt32, _ second: UInt32, _ secondLength: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: adler32_combine(UInt(first), UInt(second), off_t(secondLength)))
  }

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

/// Raw deflate (no zlib header or trailer) of independent segments: each starts with an empty
/// history and ends with a full flush (byte-aligned, not final), so segments can be put one after
/// another in any stream. The `z_stream` lives at a fixed address (zlib keeps a pointer to it).
final class Deflater {
  private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)

  init(level: Int32) {
    stream.initialize(to: z_stream())
    let status = deflateInit2_(
      stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib deflateInit2 failed with status \(status)")
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// `bytes` deflated as one segment.
  func segment(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    deflateReset(stream)
    var out: [UInt8] = []
    stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
    stream.pointee.avail_in = UInt32(bytes.count)
    repeat {
      let produced = buffer.withUnsafeMutableBufferPointer { b -> Int in
        stream.pointee.next_out = b.baseAddress
        stream.pointee.avail_out = UInt32(b.count)
        let status = deflate(stream, Z_FULL_FLUSH)
        precondition(status == Z_OK || status == Z_BUF_ERROR, "zlib deflate failed with status \(status)")
        return b.count - Int(stream.pointee.avail_out)
      }
      out += buffer[0..<produced]
    } while stream.pointee.avail_out == 0
    return out
  }
}

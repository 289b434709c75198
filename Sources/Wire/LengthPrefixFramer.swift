/// A frame announced a length above the framer's cap.
public struct FramingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The length the 4-byte prefix announced.
  public var announcedLength: Int
  /// The framer's `maxFrameBytes`.
  public var maxFrameBytes: Int

  public init(announcedLength: Int, maxFrameBytes: Int) {
    self.announcedLength = announcedLength
    self.maxFrameBytes = maxFrameBytes
  }

  /// `frame of 4294967295 bytes announced; the cap is 16777216`.
  public var description: String {
    "frame of \(announcedLength) bytes announced; the cap is \(maxFrameBytes)"
  }
}

/// Splits a byte stream into `[4-byte big-endian length][payload]` frames: a pure state machine
/// with a frame-size cap.
///
/// - The length is checked against `maxFrameBytes` as soon as its 4 bytes are in, before
///   anything is allocated for the payload; a payload is buffered only as its bytes arrive.
/// - After an error the framer stays failed: every later `push` throws the same error.
/// - A zero-length frame is valid (an empty message).
/// - The frames are the same however the stream is cut into chunks.
public struct LengthPrefixFramer: Sendable {
  public let maxFrameBytes: Int
  /// Bytes of the current length prefix seen so far (0…3 between pushes).
  private var headerCount = 0
  /// The current length prefix, accumulated big-endian.
  private var header: UInt32 = 0
  /// The current frame's length, once its prefix is complete.
  private var expected: Int?
  /// The current frame's payload bytes seen so far.
  private var payload: [UInt8] = []
  private var failure: FramingError?

  public init(maxFrameBytes: Int = 16 * 1024 * 1024) {
    precondition(maxFrameBytes >= 0, "a frame cap cannot be negative")
    self.maxFrameBytes = maxFrameBytes
  }

  /// Bytes of the unfinished frame received so far, its length prefix included.
  public var bufferedByteCount: Int { expected == nil ? headerCount : 4 + payload.count }

  /// Whether bytes of an unfinished frame are held (a stream ending now ends mid-frame).
  public var isMidFrame: Bool { headerCount > 0 || expected != nil }

  /// Whether an oversize length was seen; the framer then accepts nothing more.
  public var hasFailed: Bool { failure != nil }

  /// Feeds the next bytes of the stream; returns the frames they complete, in order.
  public mutating func push(_ chunk: some Collection<UInt8>) throws(FramingError) -> [[UInt8]] {
    if let failure { throw failure }
    var frames: [[UInt8]] = []
    let done: Void? = chunk.withContiguousStorageIfAvailable { push($0, into: &frames) }
    if done == nil { Array(chunk).withUnsafeBufferPointer { push($0, into: &frames) } }
    if let failure { throw failure }
    return frames
  }

  /// `payload` with its 4-byte big-endian length prefix.
  public static func frame(_ payload: [UInt8]) -> [UInt8] {
    precondition(payload.count <= Int(UInt32.max), "a frame holds at most 2^32-1 bytes, not \(payload.count)")
    let n = UInt32(payload.count)
    var out: [UInt8] = []
    out.reserveCapacity(payload.count + 4)
    out.append(UInt8(n >> 24))
    out.append(UInt8(truncatingIfNeeded: n >> 16))
    out.append(UInt8(truncatingIfNeeded: n >> 8))
    out.append(UInt8(truncatingIfNeeded: n))
    out.append(contentsOf: payload)
    return out
  }

  private mutating func push(_ bytes: UnsafeBufferPointer<UInt8>, into frames: inout [[UInt8]]) {
    var i = 0
    let count = bytes.count
    while i < count {
      guard let length = expected else {
        // Whole prefix and payload in this chunk, nothing pending: slice without buffering.
        if headerCount == 0 && count - i >= 4 {
          let n = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
          i += 4
          guard begin(length: n) else { return }
          if count - i >= n {
            frames.append(Array(bytes[i..<i + n]))
            i += n
            expected = nil
          }
          continue
        }
        header = header << 8 | UInt32(bytes[i])
        headerCount += 1
        i += 1
        if headerCount == 4 {
          let n = Int(header)
          headerCount = 0
          header = 0
          guard begin(length: n) else { return }
        }
        continue
      }
      let take = min(length - payload.count, count - i)
      payload.append(contentsOf: bytes[i..<i + take])
      i += take
      if payload.count == length {
        frames.append(payload)
        payload = []
        expected = nil
      }
    }
    // A frame whose prefix ended exactly at the end of the chunk, with an empty payload.
    if expected == 0 {
      frames.append([])
      expected = nil
    }
  }

  /// Starts a frame of `length` bytes; `false` (and failed) when it is over the cap.
  private mutating func begin(length: Int) -> Bool {
    guard length <= maxFrameBytes else {
      failure = FramingError(announcedLength: length, maxFrameBytes: maxFrameBytes)
      return false
    }
    expected = length
    return true
  }
}

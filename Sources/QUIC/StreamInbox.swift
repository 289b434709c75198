/// What came on one stream and was not read yet: chunks in order, taken from the front up to a
/// bound, with the count of bytes held. ngtcp2 hands a stream's data in order (it reassembles);
/// the inbox keeps it until the reader takes it, and what it holds never passes the stream's
/// flow-control window, since credit goes back only as bytes are taken.
public struct StreamInbox: Hashable, Sendable {
  private var chunks: [[UInt8]] = []
  private var head = 0
  /// Bytes held, not yet taken.
  public private(set) var count = 0

  public init() {}

  public var isEmpty: Bool { count == 0 }

  /// Keeps `bytes` after what is held.
  public mutating func append(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    chunks.append(bytes)
    count += bytes.count
  }

  /// Up to `max` bytes from the front (at least one when any are held and `max` > 0).
  public mutating func take(max: Int) -> [UInt8] {
    precondition(max > 0, "a read takes at least one byte")
    var out: [UInt8] = []
    while out.count < max && head < chunks.count {
      let c = chunks[head]
      let room = max - out.count
      if c.count <= room {
        out += c
        chunks[head] = []
        head += 1
      } else {
        out += c[0..<room]
        chunks[head] = Array(c[room...])
      }
    }
    if head == chunks.count {
      chunks.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 64 {
      chunks.removeFirst(head)
      head = 0
    }
    count -= out.count
    return out
  }

  /// Forgets everything held; how many bytes that was.
  public mutating func removeAll() -> Int {
    defer {
      chunks = []
      head = 0
      count = 0
    }
    return count
  }
}

/// Splits a byte stream into JSON Lines: a pure state machine with a line-length cap.
///
/// - Lines end at `\n`; one trailing `\r` is stripped, so CRLF files read like LF ones.
/// - Line numbers are 1-based and count every line, blank ones included; blank and
///   whitespace-only lines (space, tab, `\r`) produce no item.
/// - A line longer than `maxLineBytes` (not counting its `\n` and a `\r` before it) yields
///   `.tooLong` exactly once, as soon as the framer is sure, with `bytes` = the bytes of that
///   line seen at that moment (always `maxLineBytes + 1`, or `+ 2` when the byte after the cap
///   was a `\r`). The rest of the line is skipped up to the next `\n` without being buffered:
///   memory stays bounded by the cap. A whitespace-only line longer than the cap is reported
///   too, since the framer cannot know that until it has seen all of it.
/// - The items are the same however the stream is cut into chunks.
public struct JSONLinesFramer: Sendable {
  /// What the framer found.
  public enum Item: Hashable, Sendable {
    /// A non-blank line, without its terminator.
    case line([UInt8], number: Int)
    /// A line longer than the cap; its bytes are dropped.
    case tooLong(number: Int, bytes: Int)
  }

  public let maxLineBytes: Int
  /// The current (unfinished) line's bytes; never more than `maxLineBytes + 1`.
  private var pending: [UInt8] = []
  /// Lines completed so far.
  private var completed = 0
  /// The current line was already reported as too long: skip to the next `\n`.
  private var skipping = false

  /// - Parameter linesBefore: the lines of the stream before its first byte (a file read on
  ///   from the middle): the numbering goes on from there.
  public init(maxLineBytes: Int = 1_048_576, linesBefore: Int = 0) {
    precondition(maxLineBytes > 0, "a JSON Lines framer needs room for at least one byte")
    precondition(linesBefore >= 0, "a stream has no fewer than 0 lines before it")
    self.maxLineBytes = maxLineBytes
    self.completed = linesBefore
  }

  /// Bytes held for the unfinished line (for tests and accounting).
  public var bufferedByteCount: Int { pending.count }
  /// Lines completed so far (blank ones included, and those before the stream).
  public var linesCompleted: Int { completed }
  /// Whether the bytes pushed so far end on a line's end, with `bufferedByteCount` bytes of the
  /// next one after it: false in the middle of a line too long to keep, which has no end yet.
  public var isAtLineStart: Bool { !skipping }

  /// Feeds the next bytes of the stream; returns the items they complete.
  public mutating func push(_ chunk: some Collection<UInt8>) -> [Item] {
    var items: [Item] = []
    let done: Void? = chunk.withContiguousStorageIfAvailable { push($0, into: &items) }
    if done == nil { Array(chunk).withUnsafeBufferPointer { push($0, into: &items) } }
    return items
  }

  /// Ends the stream: a last line without a newline becomes an item. The framer is then ready
  /// for a new stream whose line numbers continue from this one's.
  public mutating func finish() -> [Item] {
    defer {
      pending.removeAll(keepingCapacity: false)
      skipping = false
    }
    if skipping {
      completed += 1
      return []
    }
    guard !pending.isEmpty else { return [] }
    completed += 1
    return emit(pending[...]).map { [$0] } ?? []
  }

  private mutating func push(_ bytes: UnsafeBufferPointer<UInt8>, into items: inout [Item]) {
    var start = 0
    while start < bytes.count {
      let newline = bytes[start...].firstIndex(of: 0x0A)
      if skipping {
        guard let nl = newline else { return }
        completed += 1
        skipping = false
        start = nl + 1
        continue
      }
      let segment = bytes[start..<(newline ?? bytes.count)]
      let length = pending.count + segment.count
      if length > maxLineBytes {
        // Byte `max + 1` decides, unless it is a `\r` that may be the line's CRLF.
        let decider =
          pending.count > maxLineBytes
          ? pending[maxLineBytes] : segment[segment.startIndex + maxLineBytes - pending.count]
        let seen: Int? =
          decider != 0x0D
          ? maxLineBytes + 1 : length > maxLineBytes + 1 ? maxLineBytes + 2 : nil
        if let seen {
          items.append(.tooLong(number: completed + 1, bytes: seen))
          pending.removeAll(keepingCapacity: false)
          guard let nl = newline else {
            skipping = true
            return
          }
          completed += 1
          start = nl + 1
          continue
        }
        // Exactly `max` bytes and a `\r` so far: a newline next makes it a valid CRLF line.
      }
      guard let nl = newline else {
        pending.append(contentsOf: segment)
        return
      }
      completed += 1
      if pending.isEmpty {
        if let item = emit(segment) { items.append(item) }
      } else {
        pending.append(contentsOf: segment)
        if let item = emit(pending[...]) { items.append(item) }
        pending.removeAll(keepingCapacity: true)
      }
      start = nl + 1
    }
  }

  /// The item for a complete line: `nil` when blank.
  private func emit<C: BidirectionalCollection<UInt8>>(_ raw: C) -> Item? {
    var end = raw.endIndex
    if end > raw.startIndex, raw[raw.index(before: end)] == 0x0D { end = raw.index(before: end) }
    let line = raw[raw.startIndex..<end]
    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
    return .line(Array(line), number: completed)
  }
}

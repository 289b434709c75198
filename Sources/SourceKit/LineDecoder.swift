public import WallboardCore
public import Wire

/// Turns JSON Lines bytes from one source into reducer inputs: events, or rejections whose
/// reason names the source, the line and the key.
public struct LineDecoder: Sendable {
  public let origin: String
  /// How the source is named in messages (a file path, `stdin`, `sim`).
  public let label: String
  public let maxLineBytes: Int
  private var framer: JSONLinesFramer
  private let decoder: EventDecoder

  /// The lines still to pass over (without an input) before the next one is decoded: a file
  /// resumed where a restored board holds lines past its position.
  public private(set) var passingOver = 0

  /// - Parameters:
  ///   - linesBefore: lines of the stream before its first byte (numbering goes on from there).
  ///   - passOver: lines (those that make an input: blank ones do not) to pass over first.
  public init(
    origin: String, label: String, maxLineBytes: Int = 1_048_576, decoder: EventDecoder = EventDecoder(),
    linesBefore: Int = 0, passOver: Int = 0
  ) {
    self.origin = origin
    self.label = label
    self.maxLineBytes = maxLineBytes
    self.framer = JSONLinesFramer(maxLineBytes: maxLineBytes, linesBefore: linesBefore)
    self.decoder = decoder
    self.passingOver = max(0, passOver)
  }

  /// Lines completed so far (blank ones included, and those before the stream).
  public var linesCompleted: Int { framer.linesCompleted }
  /// The bytes pushed after the last complete line; nil in the middle of a line too long to keep.
  public var bytesPastLastLine: Int? { framer.isAtLineStart ? framer.bufferedByteCount : nil }

  /// Feeds a chunk; returns the inputs of every line it completed.
  public mutating func push(_ chunk: some Collection<UInt8>, receivedAt: Instant) -> [BoardInput] {
    inputs(framer.push(chunk), receivedAt: receivedAt)
  }

  /// Ends the stream: a last line without a newline is decoded too.
  public mutating func finish(receivedAt: Instant) -> [BoardInput] {
    inputs(framer.finish(), receivedAt: receivedAt)
  }

  private mutating func inputs(_ items: [JSONLinesFramer.Item], receivedAt: Instant) -> [BoardInput] {
    var items = items[...]
    if passingOver > 0 {
      let n = min(passingOver, items.count)
      items = items.dropFirst(n)
      passingOver -= n
    }
    return items.map { item in input(for: item, receivedAt: receivedAt) }
  }

  /// Decodes one complete line (no newline).
  public func decode(line: [UInt8], number: Int, receivedAt: Instant) -> BoardInput {
    do {
      return .event(try decoder.decode(line: line, origin: origin, receivedAt: receivedAt))
    } catch {
      return .rejected(
        origin: origin, at: receivedAt, reason: "\(label):\(number): \(error)", position: error.position)
    }
  }

  private func input(for item: JSONLinesFramer.Item, receivedAt: Instant) -> BoardInput {
    switch item {
    case .line(let bytes, let number):
      return decode(line: bytes, number: number, receivedAt: receivedAt)
    case .tooLong(let number, let bytes):
      return .rejected(
        origin: origin, at: receivedAt,
        reason: "\(label):\(number): line longer than the limit of \(maxLineBytes) bytes (\(bytes) bytes seen); skipped"
      )
    }
  }
}

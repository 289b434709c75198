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

  public init(origin: String, label: String, maxLineBytes: Int = 1_048_576, decoder: EventDecoder = EventDecoder()) {
    self.origin = origin
    self.label = label
    self.maxLineBytes = maxLineBytes
    self.framer = JSONLinesFramer(maxLineBytes: maxLineBytes)
    self.decoder = decoder
  }

  /// Feeds a chunk; returns the inputs of every line it completed.
  public mutating func push(_ chunk: some Collection<UInt8>, receivedAt: Instant) -> [BoardInput] {
    framer.push(chunk).map { item in input(for: item, receivedAt: receivedAt) }
  }

  /// Ends the stream: a last line without a newline is decoded too.
  public mutating func finish(receivedAt: Instant) -> [BoardInput] {
    framer.finish().map { item in input(for: item, receivedAt: receivedAt) }
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

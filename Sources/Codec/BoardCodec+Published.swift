public import WallboardCore

/// A whole board as `wallboard publish` keeps it in the broker's key-value bucket, for a wall to
/// start from: the board, and the stream position it covers (the stream, by when it was
/// created, and the sequence of the last input in it), so that the wall follows the stream from
/// the next one.
public struct PublishedBoard: Hashable, Sendable {
  /// When the stream was created, in nanoseconds since 1970 (the broker's clock).
  public var stream: Int64
  /// The sequence of the last input the board holds (0: none).
  public var sequence: UInt64
  public var state: BoardState

  public init(stream: Int64, sequence: UInt64, state: BoardState) {
    self.stream = stream
    self.sequence = sequence
    self.state = state
  }

  /// Where it leaves a wall that starts from it.
  public var position: RelayPosition { RelayPosition(stream: stream, sequence: sequence) }
}

extension BoardCodec {
  /// A published board's encoding: the version byte, the stream, the sequence, the state. At
  /// most `maxBytes` (the broker's largest message), checked as a journal's snapshot is.
  public static func encode(_ board: PublishedBoard, maxBytes: Int) throws(CodecError) -> [UInt8] {
    var w = ByteWriter()
    w.bytes.reserveCapacity(256 + 256 * (board.state.features.count + board.state.hidden.count))
    w.byte(version)
    w.int64(board.stream)
    w.varint(board.sequence)
    w.state(board.state)
    try w.check(maxBytes: maxBytes, "published board")
    return w.bytes
  }

  /// A published board read back, with the codec's caps; an error names what was wrong.
  public static func decodePublished(_ bytes: [UInt8]) throws(CodecError) -> PublishedBoard {
    var failure: CodecError?
    let value = bytes.withUnsafeBytes { b -> PublishedBoard? in
      do throws(CodecError) {
        var r = ByteReader(b)
        try r.versionByte()
        let stream = try r.int64("stream")
        let sequence = try r.varint("sequence")
        let state = try r.state()
        try r.finish()
        return PublishedBoard(stream: stream, sequence: sequence, state: state)
      } catch {
        failure = error.within("published board")
        return nil
      }
    }
    guard let value else { throw failure! }
    return value
  }
}

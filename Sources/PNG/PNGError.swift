/// Why a PNG could not be decoded, read or written.
public struct PNGError: Error, CustomStringConvertible, Hashable, Sendable {
  /// The kind of problem, for code that reacts to it.
  public enum Kind: Sendable, Hashable {
    /// The file does not start with the PNG signature.
    case signature
    /// The data ends before a chunk, or a chunk before its stated length.
    case truncated
    /// A chunk's CRC does not match its contents.
    case crc
    /// A chunk is malformed, missing, misplaced or unknown and critical.
    case chunk
    /// The IHDR fields describe something this decoder does not read.
    case header
    /// The image is larger than the decoder accepts.
    case tooLarge
    /// The compressed image data is corrupt or decompresses to the wrong size.
    case data
    /// A row uses a filter type other than 0…4.
    case filter
    /// A file could not be opened, read, written or renamed.
    case io
    /// The path to write is not a regular file (a device node, a FIFO, a directory…).
    case notRegularFile
  }

  public let kind: Kind
  /// What was wrong, naming the chunk, byte offset, field or path involved.
  public let message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { "PNG: \(message)" }
}

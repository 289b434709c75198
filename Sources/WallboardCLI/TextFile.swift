internal import EventSources
internal import Posix

/// Reads the small text files a user writes (config, layouts): a regular file only (never a
/// FIFO that would hold the read up), refused when large before it is read.
enum TextFile {
  /// A config or layout is a few dozen lines; this is far above that.
  static let maxBytes = 64 * 1024

  /// The file's text, or an error naming the file and what was wrong: bad input, or the call
  /// that failed with its `errno`.
  static func read(_ path: String, what: String) throws(CLIError) -> String {
    switch RegularFile.read(path, limit: maxBytes) {
    case .success(let bytes):
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw .badInput("\(path): the \(what) is not UTF-8 text")
      }
      return text
    case .failure(.missing): throw .badInput("\(path): no such \(what)")
    case .failure(.notRegular(let kind)): throw .badInput("\(path): the \(what) is a \(kind), not a regular file")
    case .failure(.tooLarge(let size)):
      throw .badInput("\(path): the \(what) is \(size) bytes, more than \(maxBytes)")
    case .failure(.failed(let call)): throw .system(call, what: "the \(what)")
    }
  }
}

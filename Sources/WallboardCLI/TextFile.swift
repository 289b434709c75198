internal import Foundation

/// Reads the small text files a user writes (config, layouts), refusing large ones before
/// reading them.
enum TextFile {
  /// A config or layout is a few dozen lines; this is far above that.
  static let maxBytes = 64 * 1024

  /// The file's text, or a bad-input error naming the file and what was wrong.
  static func read(_ path: String, what: String) throws(CLIError) -> String {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let size = attributes[.size] as? Int
    else { throw .badInput("\(path): cannot read the \(what)") }
    guard size <= maxBytes else { throw .badInput("\(path): the \(what) is \(size) bytes, more than \(maxBytes)") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .badInput("\(path): cannot read the \(what)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .badInput("\(path): the \(what) is not UTF-8 text")
    }
    return text
  }
}

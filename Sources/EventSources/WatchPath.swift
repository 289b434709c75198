internal import SourceKit

/// A path given to `FileWatcher.watch`, checked once: the spelling it is reported by, and its
/// absolute, lexically normalised form (no `.`, `..` or doubled slashes) that is watched.
struct WatchPath: Hashable, Sendable {
  /// The longest path accepted, in bytes (`PATH_MAX`).
  static let maxBytes = 4096

  /// How the watcher reports it: as given, without trailing slashes.
  let key: String
  /// The components of the absolute path, from the root.
  let components: [String]

  init(_ path: String, cwd: @autoclosure () -> String) throws(FileWatcher.Refusal) {
    guard !path.isEmpty else { throw .emptyPath }
    guard path.utf8.count <= Self.maxBytes else { throw .pathTooLong(bytes: path.utf8.count, limit: Self.maxBytes) }
    guard !path.utf8.contains(0) else { throw .nulInPath(path.replacingNUL) }
    var key = Substring(path)
    while key.count > 1 && key.hasSuffix("/") { key = key.dropLast() }
    self.key = String(key)
    components = WorkspaceLocator.absolute(path, from: path.hasPrefix("/") ? "/" : cwd())
      .split(separator: "/").map(String.init)
  }

  /// The absolute path of the first `depth` components (0: the root).
  func prefix(_ depth: Int) -> String {
    depth == 0 ? "/" : "/" + components[0..<depth].joined(separator: "/")
  }

  /// The absolute path itself.
  var absolute: String { prefix(components.count) }

  /// How an entry of this folder is reported.
  func entry(_ name: String) -> String { key == "/" ? "/" + name : key + "/" + name }
}

extension String {
  fileprivate var replacingNUL: String {
    String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
  }
}

internal import Posix
internal import SourceKit
internal import WallboardCore

#if canImport(Glibc)
  internal import Glibc
#endif

/// The file-system side of a markdown tree: folder listings that never leave the tree, and
/// capped whole-file reads.
enum MarkdownTree {
  /// What a directory holds, one level: names and whether each is a folder. `.`, `..` and
  /// names longer than 255 bytes are left out; a symbolic link is listed only when it stays
  /// inside `inside` (a real path), else it is returned in `escaping`.
  static func entries(
    of dir: String, inside: String
  ) -> (names: [(name: String, isDirectory: Bool)], escaping: [String])? {
    guard let d = opendir(dir) else { return nil }
    defer { closedir(d) }
    var out: [(String, Bool)] = []
    var escaping: [String] = []
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { raw -> String in
        let b = raw.bindMemory(to: UInt8.self)
        let n = b.firstIndex(of: 0) ?? b.count
        return String(decoding: b[0..<n], as: UTF8.self)
      }
      if name == "." || name == ".." || name.utf8.count > 255 || name.contains("/") { continue }
      var type = e.pointee.d_type
      let path = dir + "/" + name
      if type == UInt8(DT_LNK) {
        guard let real = realPath(path), real == inside || real.hasPrefix(inside + "/") else {
          escaping.append(path)
          continue
        }
        var st = stat()
        guard stat(path, &st) == 0 else { continue }
        type = (st.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : UInt8(DT_REG)
      } else if type == UInt8(DT_UNKNOWN) {
        var st = stat()
        guard lstat(path, &st) == 0 else { continue }
        type = (st.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : UInt8(DT_REG)
      }
      out.append((name, type == UInt8(DT_DIR)))
    }
    return (out, escaping)
  }

  /// The canonical path (links resolved), nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }

  /// Why a file could not be read.
  typealias ReadError = RegularFile.ReadError

  /// The whole of a regular file, at most `limit` bytes (`RegularFile.read`: never blocks, and
  /// refuses a FIFO or a device by name).
  static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadError> {
    RegularFile.read(path, limit: limit)
  }

  /// The storage version in a `.version` sidecar: its decimal number (the plugin writes no
  /// newline; surrounding white space is tolerated); 0 when missing or not a number.
  static func sidecarVersion(_ path: String) -> Int {
    guard case .success(let b) = read(path, limit: 32) else { return 0 }
    let text = String(decoding: b, as: UTF8.self).trimmed()
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return 0 }
    return Int(text) ?? 0
  }
}

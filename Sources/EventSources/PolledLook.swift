internal import Glibc
internal import SourceKit

/// One look at a watched path, as the polling fallback compares them: what `stat` says of it
/// (nil: it is not there) and, for a folder, what it says of each entry.
struct PolledLook: Hashable, Sendable {
  /// The most entries of one folder looked at; past them only the folder's own stamp counts.
  static let maxEntries = 100_000

  var stamp: FileStamp?
  var entries: [String: FileStamp] = [:]

  /// Looks at `absolute` now: `stat`, and for a folder its entries (at most `maxEntries`),
  /// each by `fstatat` (following a link; a dangling link by the link itself).
  static func take(_ absolute: String) -> PolledLook {
    guard let stamp = FileStamp.of(absolute) else { return PolledLook(stamp: nil) }
    var look = PolledLook(stamp: stamp)
    guard look.stamp?.isFolder == true, let dir = opendir(absolute) else { return look }
    defer { closedir(dir) }
    let fd = dirfd(dir)
    while look.entries.count < maxEntries, let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      var est = stat()
      if fstatat(fd, name, &est, 0) == 0 || fstatat(fd, name, &est, AT_SYMLINK_NOFOLLOW) == 0 {
        look.entries[name] = FileStamp(est)
      }
    }
    return look
  }

  /// What changed since `old`, as `FileWatcher.wait` reports it: the path when its stamp
  /// changed (written, created, removed, replaced) or any entry did; each entry created,
  /// changed or removed by its full path.
  func changes(since old: PolledLook, of path: WatchPath) -> Set<String> {
    var out: Set<String> = []
    if stamp != old.stamp { out.insert(path.key) }
    for (name, now) in entries where old.entries[name] != now { out.insert(path.entry(name)) }
    for name in old.entries.keys where entries[name] == nil { out.insert(path.entry(name)) }
    if !out.isEmpty { out.insert(path.key) }
    return out
  }
}

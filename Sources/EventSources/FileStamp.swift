internal import Glibc
internal import SourceKit
public import WallboardCore

/// What a look at a file tells of it without reading it: where it is (device, inode), its size
/// and modification time — the one stamp the file watcher's polling and the markdown reader
/// compare.
public struct FileStamp: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64
  public var size: Int64
  /// Modification time, in nanoseconds since the epoch (saturated: a file dated past 2262, which
  /// file systems allow, is not a trap).
  public var mtime: Int64
  public var isFolder: Bool

  public init(device: UInt64, inode: UInt64, size: Int64, mtime: Int64, isFolder: Bool = false) {
    self.device = device
    self.inode = inode
    self.size = size
    self.mtime = mtime
    self.isFolder = isFolder
  }

  init(_ st: stat) {
    let (ns, overflow) = Int64(st.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
    let mtime: Int64
    if overflow {
      mtime = st.st_mtim.tv_sec < 0 ? .min : .max
    } else {
      mtime = ns.addingReportingOverflow(Int64(st.st_mtim.tv_nsec)).overflow ? .max : ns + Int64(st.st_mtim.tv_nsec)
    }
    self.init(
      device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size), mtime: mtime,
      isFolder: st.st_mode & S_IFMT == S_IFDIR)
  }

  /// The stamp of `path` (symbolic links followed), nil when nothing is there.
  public static func of(_ path: String) -> FileStamp? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return FileStamp(st)
  }

  /// The modification time to the millisecond, within the years 1970…9999 that a time read from
  /// text may hold (`touch -d 1960-01-01` gives a file a time the board, and its journal, would
  /// otherwise carry beyond them).
  public var modified: Instant { Instant(millis: min(max(0, mtime / 1_000_000), Instant.lastMillisecond)) }
}

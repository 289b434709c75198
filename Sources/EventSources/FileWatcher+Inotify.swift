internal import Glibc
internal import SourceKit

/// One watched path and how it is watched now.
struct Registration: Sendable {
  let path: WatchPath
  /// The inotify watch on the path itself, while it exists.
  var own: Int32?
  /// The inotify watch on the folder that holds it, or while it is missing on the nearest
  /// folder above it that exists, and that folder's depth (components from the root).
  var anchor: Int32?
  var anchorDepth = 0
  /// The device and inode the path had at the last look (nil: missing): a change is reported.
  var identity: [UInt64]?
  /// The last look at it when it is polled (no inotify, or a watch could not be added).
  var polled: PolledLook?

  init(path: WatchPath) { self.path = path }
}

extension FileWatcher {
  /// What a path's own watch asks for: a file written, closed, touched, removed or moved; a
  /// folder's entries created, written, closed, removed or moved in and out.
  static let ownMask: UInt32 =
    UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
    | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_MASK_ADD)
  /// What an anchor asks for: its entries coming and going, itself removed or moved.
  static let anchorMask: UInt32 =
    UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
    | UInt32(IN_ONLYDIR) | UInt32(IN_MASK_ADD)
  /// The kernel dropped the watch: the inode is gone, or its file system was unmounted.
  static let goneMask = UInt32(IN_IGNORED | IN_UNMOUNT)

  /// Watches `key` as it is on disk now: its own watch when it exists, an anchor on the folder
  /// above it (or the nearest one that exists). A race (a component appearing or going while
  /// the watches are added) is looked at again, up to 8 times; a watch that cannot be added for
  /// another reason (`ENOSPC`, `EACCES`) makes the path polled. When `report`, a path that
  /// appeared, went or was replaced is noted as changed. Under the lock.
  func resolve(_ key: String, report: Bool) {
    guard var r = registrations[key], r.polled == nil, inotifyFD >= 0 else { return }
    let n = r.path.components.count
    var added: Set<Int32> = []
    var settled: (own: Int32?, anchor: Int32?, depth: Int)?
    attempts: for _ in 0..<8 {
      var depth = n
      while depth > 0 {
        var st = stat()
        if stat(r.path.prefix(depth), &st) == 0 && (depth == n || st.st_mode & S_IFMT == S_IFDIR) { break }
        depth -= 1
      }
      var own: Int32?
      var anchor: Int32?
      do throws(WatchSyscallFailure) {
        if depth == n { own = try syscalls.addWatch(inotifyFD, r.path.absolute, Self.ownMask) }
        let anchorDepth = depth == n ? n - 1 : depth
        if anchorDepth >= 0 { anchor = try syscalls.addWatch(inotifyFD, r.path.prefix(anchorDepth), Self.anchorMask) }
        added.formUnion([own, anchor].compactMap { $0 })
        if depth < n && access(r.path.prefix(depth + 1), F_OK) == 0 { continue attempts }
        settled = (own, anchor, max(0, anchorDepth))
        break attempts
      } catch  where error.errno == ENOENT || error.errno == ENOTDIR {
        added.formUnion([own, anchor].compactMap { $0 })
        continue attempts
      } catch {
        added.formUnion([own, anchor].compactMap { $0 })
        break attempts
      }
    }
    let old = [r.own, r.anchor]
    if let settled {
      r.own = settled.own
      r.anchor = settled.anchor
      r.anchorDepth = settled.depth
      for wd in [settled.own, settled.anchor].compactMap({ $0 }) { users[wd, default: []].insert(key) }
    } else {
      r.own = nil
      r.anchor = nil
      r.polled = PolledLook.take(r.path.absolute)
    }
    let before = r.identity
    r.identity = FileStamp.of(r.path.absolute).map { [$0.device, $0.inode] }
    registrations[key] = r
    release(key, from: old.filter { $0 != r.own && $0 != r.anchor }, also: added)
    if report && before != r.identity { note([key]) }
  }

  /// Drops `key` from the users of `watches`, and removes every watch of those and `also`
  /// that nobody uses any more. Under the lock.
  func release(_ key: String, from watches: [Int32?], also: Set<Int32> = []) {
    var candidates = also
    for case let wd? in watches {
      users[wd]?.remove(key)
      candidates.insert(wd)
    }
    for wd in candidates where users[wd]?.isEmpty ?? true {
      if users.removeValue(forKey: wd) != nil || also.contains(wd) { syscalls.removeWatch(inotifyFD, wd) }
    }
  }

  /// What one inotify event means for the paths that use its watch. Under the lock.
  func handle(_ e: InotifyEvent) {
    if e.mask & UInt32(IN_Q_OVERFLOW) != 0 {
      overflowed()
      return
    }
    guard let keys = users[e.wd] else { return }
    let gone = e.mask & Self.goneMask != 0
    if gone { users[e.wd] = nil }
    var changed: Set<String> = []
    var again: [String] = []
    for key in keys {
      guard var r = registrations[key] else { continue }
      var resolve = gone
      if r.own == e.wd {
        changed.insert(key)
        if !e.name.isEmpty { changed.insert(r.path.entry(e.name)) }
        if e.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { resolve = true }
      }
      if r.anchor == e.wd && e.mask & Self.anchorMask != 0 {
        if e.name.isEmpty {
          resolve = resolve || e.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0
        } else if r.anchorDepth < r.path.components.count && e.name == r.path.components[r.anchorDepth] {
          resolve = true
          if r.anchorDepth == r.path.components.count - 1 { changed.insert(key) }
        }
      }
      if gone {
        if r.own == e.wd { r.own = nil }
        if r.anchor == e.wd { r.anchor = nil }
        registrations[key] = r
      }
      if resolve { again.append(key) }
    }
    note(changed)
    for key in again { resolve(key, report: true) }
  }

  /// Events were lost (the kernel's queue overflowed, or bytes that are not events): every
  /// watched path is reported changed, and watched again as it is now. Under the lock.
  func overflowed() {
    note(Set(registrations.keys))
    for key in registrations.keys { resolve(key, report: false) }
  }
}

internal import Foundation

/// Waits for changes by looking: every `interval` seconds it stats each watched path and, for a
/// folder, each entry in it (inode, size, modification time), and reports what differs from
/// the look before. The markdown source's way of waiting where no event-driven watcher is
/// given. A look costs about two stats per file, so on a large tree the looks space out to
/// keep their cost under 5 % of a core (a 10,000-file tree is looked at every few seconds,
/// a few hundred files every `interval`). Used by one thread; `wake` may come from any.
final class ScanWaiter: ChangeWaiting, @unchecked Sendable {
  let interval: Double
  private let condition = NSCondition()
  private var woken = false
  /// What each watched path looked like: its own stamp and, for a folder, its entries'.
  private var watched: [String: Look] = [:]
  private var nextScan = Date()

  struct Look: Hashable {
    var stamp: FileStamp?
    var entries: [String: FileStamp] = [:]
  }

  init(interval: Double = 0.5) { self.interval = interval }

  func watch(_ path: String) {
    guard watched[path] == nil else { return }
    watched[path] = Self.look(path)
  }

  func wake() {
    condition.lock()
    woken = true
    condition.signal()
    condition.unlock()
  }

  func wait(timeout: Double) -> Set<String> {
    let deadline = Date().addingTimeInterval(max(0, timeout))
    while true {
      if Date() >= nextScan {
        let started = Date()
        let changed = scan()
        nextScan = Date().addingTimeInterval(max(interval, Date().timeIntervalSince(started) * 20))
        if !changed.isEmpty { return changed }
      }
      condition.lock()
      defer { condition.unlock() }
      if !woken { _ = condition.wait(until: min(deadline, nextScan)) }
      if woken {
        woken = false
        return []
      }
      if Date() >= deadline { return [] }
    }
  }

  /// Looks at every watched path again; returns the paths that changed, appeared or went.
  func scan() -> Set<String> {
    var changed: Set<String> = []
    for (path, before) in watched {
      let now = Self.look(path)
      guard now != before else { continue }
      if now.stamp?.inode != before.stamp?.inode || (now.stamp == nil) != (before.stamp == nil) { changed.insert(path) }
      for (name, stamp) in now.entries where before.entries[name] != stamp { changed.insert(path + "/" + name) }
      for name in before.entries.keys where now.entries[name] == nil { changed.insert(path + "/" + name) }
      watched[path] = now
    }
    return changed
  }

  static func look(_ path: String) -> Look {
    var look = Look(stamp: FileStamp.of(path))
    guard look.stamp != nil, let d = opendir(path) else { return look }
    defer { closedir(d) }
    while let e = readdir(d) {
      let name = withUnsafeBytes(of: e.pointee.d_name) { raw -> String in
        let b = raw.bindMemory(to: UInt8.self)
        return String(decoding: b[0..<(b.firstIndex(of: 0) ?? b.count)], as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      if let s = FileStamp.of(path + "/" + name) { look.entries[name] = s }
    }
    return look
  }
}

import Foundation
import Glibc

@testable import EventSources
@testable import SourceKit

/// A kernel's inotify, faked: failures injected, events queued as the kernel lays them out, a
/// log of the watches added (one watch descriptor per path, as the kernel has one per inode).
final class FakeInotify: @unchecked Sendable {
  private let lock = NSLock()
  var initFailure: Int32?
  /// `errno` for `inotify_add_watch` on a path; nil: it succeeds.
  var addFailure: @Sendable (String) -> Int32? = { _ in nil }
  private var queue: [UInt8] = []
  private var descriptors: [String: Int32] = [:]
  private var added: [String] = []

  func enqueue(_ event: InotifyEvent) { enqueue(bytes: event.bytes) }
  func enqueue(bytes: [UInt8]) { lock.withLock { queue += bytes } }
  func wd(_ path: String) -> Int32? { lock.withLock { descriptors[path] } }
  func adds(of path: String) -> Int { lock.withLock { added.filter { $0 == path }.count } }
  var addedNone: Bool { lock.withLock { added.isEmpty } }

  var syscalls: InotifySyscalls {
    InotifySyscalls(
      initialize: { [self] () throws(WatchSyscallFailure) -> Int32 in
        if let e = initFailure { throw WatchSyscallFailure(errno: e) }
        return 1000
      },
      addWatch: { [self] (_, path, _) throws(WatchSyscallFailure) -> Int32 in
        if let e = addFailure(path) { throw WatchSyscallFailure(errno: e) }
        return lock.withLock {
          added.append(path)
          if let wd = descriptors[path] { return wd }
          let wd = Int32(descriptors.count + 1)
          descriptors[path] = wd
          return wd
        }
      },
      removeWatch: { [self] _, wd in
        lock.withLock { descriptors = descriptors.filter { $0.value != wd } }
      },
      read: { [self] (_, buffer) throws(WatchSyscallFailure) -> Int in
        lock.withLock {
          let n = min(buffer.count, queue.count)
          queue.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
          queue.removeFirst(n)
          return n
        }
      },
      poll: { [self] _, wake, ms in
        if lock.withLock({ !queue.isEmpty }) { return (true, false) }
        // Nothing queued: sleep as the kernel would, on the wake pipe alone.
        return InotifySyscalls.live.poll(-1, wake, min(ms, 20))
      },
      close: { _ in }
    )
  }
}

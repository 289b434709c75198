internal import Glibc
internal import SourceKit

extension InotifySyscalls {
  /// The kernel: Glibc's `inotify_init1`, `inotify_add_watch`, `inotify_rm_watch`, `read`,
  /// `poll` and `close`.
  public static let live = InotifySyscalls(
    initialize: { () throws(WatchSyscallFailure) -> Int32 in
      let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard fd >= 0 else { throw WatchSyscallFailure(errno: Glibc.errno) }
      return fd
    },
    addWatch: { (fd, path, mask) throws(WatchSyscallFailure) -> Int32 in
      let wd = inotify_add_watch(fd, path, mask)
      guard wd >= 0 else { throw WatchSyscallFailure(errno: Glibc.errno) }
      return wd
    },
    removeWatch: { fd, wd in _ = inotify_rm_watch(fd, wd) },
    read: { (fd, buffer) throws(WatchSyscallFailure) -> Int in
      while true {
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n >= 0 { return n }
        switch Glibc.errno {
        case EINTR: continue
        case EAGAIN: return 0
        default: throw WatchSyscallFailure(errno: Glibc.errno)
        }
      }
    },
    poll: { fd, wake, timeoutMs in
      var fds = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
      ]
      guard Glibc.poll(&fds, 2, timeoutMs) > 0 else { return (false, false) }
      return (fds[0].revents != 0, fds[1].revents != 0)
    },
    close: { fd in _ = Glibc.close(fd) }
  )
}

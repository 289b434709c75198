internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#endif

/// A blocking TCP connection with timeouts, over the C socket API.
///
/// Owns its file descriptor and closes it in `deinit`. Used by one thread at a time, except
/// `shutdown`, which another thread may call while that one reads: the two meet under `lock`, so
/// that a descriptor closed (and its number perhaps given to another file) is never shut down.
final class TCPConnection: @unchecked Sendable {
  /// Why a connection failed, with the host and the C library's text.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private var fd: Int32
  private let lock = NSLock()
  let peer: String

  private init(fd: Int32, peer: String) {
    self.fd = fd
    self.peer = peer
  }

  deinit { close() }

  /// Connects to `host:port`, trying each address `getaddrinfo` gives, within `timeout` seconds.
  static func connect(host: String, port: Int, timeout: Double) throws(Failure) -> TCPConnection {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, String(port), &hints, &list)
    guard rc == 0, let first = list else {
      throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
    }
    defer { freeaddrinfo(first) }
    var lastError = "no address"
    var node: UnsafeMutablePointer<addrinfo>? = first
    while let ai = node {
      node = ai.pointee.ai_next
      let fd = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
      if fd < 0 {
        lastError = String(cString: strerror(errno))
        continue
      }
      // Non-blocking connect, so that it can time out.
      let flags = fcntl(fd, F_GETFL)
      _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
      var r = Glibc.connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen)
      if r != 0 && errno == EINPROGRESS {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        r = poll(&p, 1, Int32(timeout * 1000))
        if r == 1 {
          var err: Int32 = 0
          var len = socklen_t(MemoryLayout<Int32>.size)
          getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
          if err == 0 {
            r = 0
          } else {
            errno = err
            r = -1
          }
        } else {
          if r == 0 { errno = ETIMEDOUT }
          r = -1
        }
      }
      if r == 0 {
        _ = fcntl(fd, F_SETFL, flags)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return TCPConnection(fd: fd, peer: "\(host):\(port)")
      }
      lastError = String(cString: strerror(errno))
      Glibc.close(fd)
    }
    throw Failure(description: "cannot connect to \(host):\(port): \(lastError)")
  }

  /// Writes every byte, or fails.
  func write(_ bytes: [UInt8]) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "write to \(peer) failed: \(String(cString: strerror(errno)))")
      }
      offset += n
    }
  }

  /// What a read gave.
  enum ReadResult {
    case bytes([UInt8])
    case timedOut
    case closed
  }

  /// Reads what is there (up to 64 KiB), waiting at most `timeout` seconds.
  func read(timeout: Double) throws(Failure) -> ReadResult {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let r = poll(&p, 1, Int32(max(0, timeout) * 1000))
    if r == 0 { return .timedOut }
    if r < 0 {
      if errno == EINTR { return .timedOut }
      throw Failure(description: "poll on \(peer) failed: \(String(cString: strerror(errno)))")
    }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if n == 0 { return .closed }
    if n < 0 {
      if errno == EINTR || errno == EAGAIN { return .timedOut }
      throw Failure(description: "read from \(peer) failed: \(String(cString: strerror(errno)))")
    }
    return .bytes(Array(buffer[0..<n]))
  }

  func close() {
    lock.withLock {
      if fd >= 0 {
        Glibc.close(fd)
        fd = -1
      }
    }
  }

  /// Wakes a thread blocked in `read` on this connection from another thread.
  func shutdown() {
    lock.withLock {
      if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }
}

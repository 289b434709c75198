public import Clock

#if canImport(Glibc)
  internal import Glibc
#endif

/// Opens TCP connections (`orchestra://HOST:PORT`), trying each address `getaddrinfo` gives.
public struct TCPDialer: TransportDialer {
  let clock: Clock

  public init(clock: Clock) { self.clock = clock }

  public func open(host: String, port: Int, until deadline: Monotonic) throws(TransportError) -> any Transport {
    try TCPTransport.connect(host: host, port: port, until: deadline, clock: clock)
  }
}

/// A TCP connection over the C socket API: reads wait in `poll(2)` on the socket and a
/// socket pair that `interrupt()` writes a byte to, for at most the time left to the deadline on the clock.
///
/// Owns both descriptors and closes them in `close()` (or `deinit`). `interrupt()` meets
/// `close()` under `lock`, so that a descriptor closed (and its number perhaps given to another
/// file) is never written.
final class TCPTransport: Transport, @unchecked Sendable {
  /// The most one read returns.
  static let chunk = 65_536

  private var fd: Int32
  /// The wake socket pair: read end, write end.
  private var wake: [Int32]
  private let lock = Lock()
  private let clock: Clock
  let peer: String

  private init(fd: Int32, wake: [Int32], peer: String, clock: Clock) {
    self.fd = fd
    self.wake = wake
    self.peer = peer
    self.clock = clock
  }

  deinit { close() }

  static func connect(
    host: String, port: Int, until deadline: Monotonic, clock: Clock
  ) throws(TransportError)
    -> TCPTransport
  {
    let peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, String(port), &hints, &list)
    guard rc == 0, let first = list else {
      throw TransportError(.resolve, peer: host, reason: String(cString: gai_strerror(rc)))
    }
    defer { freeaddrinfo(first) }
    var lastError = "no address"
    var node: UnsafeMutablePointer<addrinfo>? = first
    while let ai = node {
      node = ai.pointee.ai_next
      switch attempt(ai.pointee, until: deadline, clock: clock) {
      case .success(let fd):
        var ends: [Int32] = [-1, -1]
        guard
          socketpair(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends) == 0
        else {
          Glibc.close(fd)
          throw TransportError(.connect, peer: peer, reason: "socketpair: " + String(cString: strerror(errno)))
        }
        return TCPTransport(fd: fd, wake: ends, peer: peer, clock: clock)
      case .failure(let failure):
        lastError = failure.why
      }
    }
    throw TransportError(.connect, peer: peer, reason: lastError)
  }

  /// One address: a non-blocking connect that gives up at the deadline.
  private static func attempt(_ ai: addrinfo, until deadline: Monotonic, clock: Clock) -> Result<Int32, Failure> {
    let fd = socket(ai.ai_family, ai.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), ai.ai_protocol)
    guard fd >= 0 else { return .failure(Failure(String(cString: strerror(errno)))) }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    var r = Glibc.connect(fd, ai.ai_addr, ai.ai_addrlen)
    if r != 0 && errno == EINPROGRESS {
      var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      r = poll(&p, 1, milliseconds(until: deadline, clock: clock))
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
    guard r == 0 else {
      let why = String(cString: strerror(errno))
      Glibc.close(fd)
      return .failure(Failure(why))
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return .success(fd)
  }

  struct Failure: Error {
    var why: String
    init(_ why: String) { self.why = why }
  }

  /// The poll timeout for `deadline`: at least 0, at most a day.
  static func milliseconds(until deadline: Monotonic, clock: Clock) -> Int32 {
    let left = deadline.seconds(since: clock.monotonic())
    return Int32(max(0, min(left, 86_400)) * 1000)
  }

  func write(_ bytes: [UInt8]) throws(TransportError) {
    var offset = 0
    while offset < bytes.count {
      let fd = lock.withLock { self.fd }
      guard fd >= 0 else { throw TransportError(.closed, peer: peer, reason: "connection closed") }
      let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw TransportError(.write, peer: peer, reason: String(cString: strerror(errno)))
      }
      offset += n
    }
  }

  func read(until deadline: Monotonic) throws(TransportError) -> TransportRead {
    let (fd, wake) = lock.withLock { (self.fd, self.wake[0]) }
    guard fd >= 0 else { throw TransportError(.closed, peer: peer, reason: "connection closed") }
    var p = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
    let r = poll(&p, 2, Self.milliseconds(until: deadline, clock: clock))
    if r == 0 { return .idle }
    if r < 0 {
      if errno == EINTR { return .idle }
      throw TransportError(.read, peer: peer, reason: "poll: " + String(cString: strerror(errno)))
    }
    if p[1].revents != 0 {
      var drain = [UInt8](repeating: 0, count: 64)
      _ = Glibc.read(wake, &drain, drain.count)
      if p[0].revents == 0 { return .idle }
    }
    var buffer = [UInt8](repeating: 0, count: Self.chunk)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if n == 0 { return .closed }
    if n < 0 {
      if errno == EINTR || errno == EAGAIN { return .idle }
      throw TransportError(.read, peer: peer, reason: String(cString: strerror(errno)))
    }
    return .bytes(Array(buffer[0..<n]))
  }

  func interrupt() {
    lock.withLock {
      guard wake[1] >= 0 else { return }
      var one: UInt8 = 1
      // Full (a read is already due): the byte is not needed.
      _ = Glibc.write(wake[1], &one, 1)
    }
  }

  func close() {
    lock.withLock {
      if fd >= 0 {
        Glibc.close(fd)
        fd = -1
      }
      for end in wake where end >= 0 { Glibc.close(end) }
      wake = [-1, -1]
    }
  }
}

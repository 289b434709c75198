internal import CQUIC

#if canImport(Glibc)
  internal import Glibc
#endif

/// The UDP side of a QUIC client: a connected, non-blocking socket (so that an ICMP "port
/// unreachable" comes back as `ECONNREFUSED`), with buffers large enough for a burst.
enum UDPSocket {
  /// What the socket buffers are asked to hold (the kernel caps it at `net.core.*mem_max`).
  static let bufferBytes: Int32 = 4 << 20

  /// Resolves `host`, connects a UDP socket to its first address; fills `remote` and `local`.
  static func connect(
    host: String, port: Int, remote: UnsafeMutablePointer<sockaddr_storage>,
    local: UnsafeMutablePointer<sockaddr_storage>
  ) throws(QUICError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, String(port), &hints, &list)
    guard rc == 0, let ai = list else { throw .resolve(host: host, reason: String(cString: gai_strerror(rc))) }
    defer { freeaddrinfo(ai) }
    let fd = socket(
      ai.pointee.ai_family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .socket(call: "socket", reason: String(cString: strerror(errno))) }
    var size = bufferBytes
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    UnsafeMutableRawPointer(remote).copyMemory(from: ai.pointee.ai_addr, byteCount: Int(ai.pointee.ai_addrlen))
    guard Glibc.connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 else {
      let why = String(cString: strerror(errno))
      Glibc.close(fd)
      throw .socket(call: "connect", reason: why)
    }
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let got = local.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    guard got == 0 else {
      let why = String(cString: strerror(errno))
      Glibc.close(fd)
      throw .socket(call: "getsockname", reason: why)
    }
    return fd
  }

  /// The length of the address in `storage` (IPv4 or IPv6).
  static func length(of storage: UnsafeMutablePointer<sockaddr_storage>) -> Int {
    Int(storage.pointee.ss_family) == Int(AF_INET6)
      ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
  }

  /// An IPv4 or IPv6 address written out, not a name.
  static func isAddressLiteral(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }
}

public import SourceKit

#if canImport(Glibc)
  internal import Glibc
#endif

extension PushHost {
  /// The numeric addresses `host` names: itself when it is one, else what `getaddrinfo` gives
  /// (the hosts file for `localhost`), at most `maxAddresses`.
  public static func resolve(_ host: String) -> Result<[String], Refusal> {
    if ipv4(Substring(host)) != nil || ipv6(host.lowercased()[...]) != nil { return .success([host]) }
    guard !host.isEmpty, host.utf8.count <= maxHostBytes else {
      return .failure(Refusal(host: String(host.prefix(64)), why: "not a host name"))
    }
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, nil, &hints, &list)
    guard rc == 0, let head = list else {
      return .failure(Refusal(host: host, why: "cannot be resolved (\(String(cString: gai_strerror(rc))))"))
    }
    defer { freeaddrinfo(head) }
    var out: [String] = []
    var node: UnsafeMutablePointer<addrinfo>? = head
    while let ai = node, out.count < maxAddresses {
      node = ai.pointee.ai_next
      var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
      guard
        getnameinfo(ai.pointee.ai_addr, ai.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST)
          == 0
      else { continue }
      let address = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !out.contains(address) { out.append(address) }
    }
    return .success(out)
  }
}

/// Which hosts the push hint connects to: loopback addresses only (127.0.0.0/8, `::1`, and IPv4
/// loopback mapped into IPv6). An `.info` file is anyone's to write who can write under
/// `~/.orchestra/run`, and `orchestra serve` listens on the machine it serves; a hint from
/// elsewhere is refused, never followed. There is no setting that allows other hosts: a board
/// that follows a server on another machine names it as an `orchestra://HOST:PORT` source.
public enum PushHost {
  /// Why a host named by an `.info` file is not connected to.
  public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var why: String

    public init(host: String, why: String) {
      self.host = host
      self.why = why
    }

    public var description: String { "\(host) refused: \(why)" }
  }

  /// The most addresses one name's resolution keeps.
  public static let maxAddresses = 16
  /// The longest host name looked up (a DNS name has at most 253 bytes).
  public static let maxHostBytes = 253

  /// Whether `address` (numeric, IPv4 or IPv6, a `%zone` allowed) is a loopback address.
  public static func isLoopback(_ address: String) -> Bool {
    let bare = address.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    if let v4 = ipv4(bare) { return v4[0] == 127 }
    guard let g = ipv6(bare.lowercased()[...]) else { return false }
    if g[0..<7].allSatisfy({ $0 == 0 }) && g[7] == 1 { return true }
    // `::ffff:127.x.y.z`: IPv4 loopback mapped into IPv6.
    return g[0..<5].allSatisfy { $0 == 0 } && g[5] == 0xFFFF && g[6] >> 8 == 127
  }

  /// The loopback addresses among those `host` resolved to, or why it is refused.
  public static func check(_ host: String, resolved: [String]) -> Result<[String], Refusal> {
    guard let first = resolved.first else { return .failure(Refusal(host: host, why: "resolves to no address")) }
    let loopback = resolved.filter(isLoopback)
    guard loopback.isEmpty else { return .success(loopback) }
    return .failure(Refusal(host: host, why: "not a loopback address (\(first))"))
  }

  /// `a.b.c.d`, each part 1–3 decimal digits up to 255.
  public static func ipv4(_ s: Substring) -> [UInt8]? {
    let parts = s.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var out: [UInt8] = []
    for p in parts {
      guard (1...3).contains(p.utf8.count), p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let v = UInt8(p)
      else { return nil }
      out.append(v)
    }
    return out
  }

  /// Eight 16-bit groups from RFC 4291 text (lower-case): `::` once at most, a dotted IPv4 last.
  public static func ipv6(_ s: Substring) -> [UInt16]? {
    guard s.utf8.count <= 45, s.contains(":") else { return nil }
    func groups(_ part: Substring) -> [UInt16]? {
      if part.isEmpty { return [] }
      var out: [UInt16] = []
      let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
      for (k, p) in pieces.enumerated() {
        if k == pieces.count - 1, p.contains("."), let v4 = ipv4(p) {
          out += [UInt16(v4[0]) << 8 | UInt16(v4[1]), UInt16(v4[2]) << 8 | UInt16(v4[3])]
          continue
        }
        guard (1...4).contains(p.utf8.count), let v = UInt16(p, radix: 16) else { return nil }
        out.append(v)
      }
      return out
    }
    // Split at each `::` (more than one is no address).
    var halves: [Substring] = []
    var start = s.startIndex
    var i = s.startIndex
    while i < s.endIndex {
      let next = s.index(after: i)
      if s[i] == ":" && next < s.endIndex && s[next] == ":" {
        halves.append(s[start..<i])
        start = s.index(after: next)
        i = start
      } else {
        i = next
      }
    }
    halves.append(s[start...])
    switch halves.count {
    case 1:
      guard let g = groups(s), g.count == 8 else { return nil }
      return g
    case 2:
      guard let l = groups(halves[0]), let r = groups(halves[1]), l.count + r.count < 8 else {
        return nil
      }
      return l + Array(repeating: 0, count: 8 - l.count - r.count) + r
    default:
      return nil
    }
  }
}

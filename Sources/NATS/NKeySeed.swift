/// A NATS user's NKey seed ("SU…"): the 32-byte Ed25519 seed the hub's NKey users sign their
/// connection's nonce with. Parsed here in pure Swift (NATS's base32 without padding, prefix bytes
/// 0x95 0x00, CRC-16/XMODEM little-endian, as nats-io/nkeys encodes it); the public key is derived
/// and nonces signed with libcrypto's Ed25519. The seed never goes to libnats as a file.
///
/// Its description never shows the seed.
public struct NKeySeed: Sendable, CustomStringConvertible {
  /// The Ed25519 seed.
  let seed: [UInt8]

  /// The first line of the seed block of a `.creds` file.
  static let credsBegin = "-----BEGIN USER NKEY SEED-----"

  /// One seed line ("SU…", surrounding whitespace ignored), or a `.creds` file: its
  /// "-----BEGIN USER NKEY SEED-----" block is taken and its JWT ignored (a hub configured with
  /// NKey users has no use for it).
  public init(text: String) throws(NATSError) {
    try self.init(text: text, operation: "read NKey seed")
  }

  init(text: String, operation: String) throws(NATSError) {
    func bad(_ why: String) -> NATSError { NATSError(.badSeed, operation: operation, detail: why) }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" })
      .map(Self.trimmed)
    let line: Substring
    if let begin = lines.firstIndex(where: { $0 == Self.credsBegin }) {
      guard let first = lines[(begin + 1)...].first(where: { !$0.isEmpty }), !first.hasPrefix("-") else {
        throw bad("the .creds seed block is empty")
      }
      line = first
    } else {
      let filled = lines.filter { !$0.isEmpty }
      guard !filled.isEmpty else { throw bad("no seed: the text is empty") }
      guard filled.count == 1 else {
        throw bad(
          filled.contains { $0.hasPrefix("-----BEGIN") }
            ? "no \(Self.credsBegin) block in the .creds text" : "more than one line: a seed is one line")
      }
      line = filled[0]
    }
    seed = try Self.decodeSeed(String(line), bad)
  }

  /// Reads a seed file or a `.creds` file (at most 64 KiB); errors name the file.
  public static func read(path: String) throws(NATSError) -> NKeySeed {
    let operation = "read NKey seed from \(path)"
    let bytes = try CappedFile.read(path, operation: operation)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw NATSError(.badSeed, operation: operation, detail: "not UTF-8 text")
    }
    return try NKeySeed(text: text, operation: operation)
  }

  /// The user's public key, "U…" (56 characters), derived with Ed25519 (libcrypto).
  public func publicKey() throws(NATSError) -> String {
    let crypto = try NATSCrypto.load()
    guard let key = crypto.publicKey(seed: seed) else {
      throw NATSError(.badSeed, operation: "derive the NKey's public key", detail: "libcrypto refused the seed")
    }
    return Self.encodePublic(key)
  }

  public var description: String { "NKeySeed(user, seed hidden)" }

  static func trimmed(_ line: Substring) -> Substring {
    var s = line
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return s
  }

  // MARK: - The encoding (nats-io/nkeys strkey.go, crc16.go)

  /// 'S' (18 << 3) with the high bits of the user prefix 'U' (20 << 3), then its low bits.
  static let seedPrefix: [UInt8] = [0x95, 0x00]
  /// 'U' (20 << 3).
  static let userPrefix: UInt8 = 0xA0

  static func decodeSeed(_ text: String, _ bad: (String) -> NATSError) throws(NATSError) -> [UInt8] {
    guard text.hasPrefix("S") else { throw bad("not a seed: it does not begin with S") }
    guard text.utf8.count == 58 else { throw bad("\(text.utf8.count) characters; a user seed has 58") }
    guard let raw = Base32.decode(text) else { throw bad("not NATS base32 (A–Z, 2–7, no padding)") }
    guard raw.count == 36 else { throw bad("\(raw.count) bytes decoded; a user seed has 36") }
    let body = Array(raw[0..<34])
    let stored = UInt16(raw[34]) | UInt16(raw[35]) << 8
    guard CRC16.xmodem(body) == stored else { throw bad("checksum mismatch: the seed is damaged or mistyped") }
    guard body[0] & 0xF8 == 18 << 3 else { throw bad("not a seed (prefix byte \(body[0]))") }
    guard Array(body[0..<2]) == seedPrefix else {
      throw bad("a seed of another kind than a user's (account, operator, server…)")
    }
    return Array(body[2..<34])
  }

  static func encodePublic(_ key: [UInt8]) -> String {
    var raw = [userPrefix] + key
    let crc = CRC16.xmodem(raw)
    raw += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    return Base32.encode(raw)
  }
}

/// RFC 4648's base32 alphabet without padding, as NATS keys are written.
enum Base32 {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  static func decode(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    var acc: UInt32 = 0
    var bits = 0
    for c in text.utf8 {
      let v: UInt8
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c - UInt8(ascii: "A")
      case UInt8(ascii: "2")...UInt8(ascii: "7"): v = c - UInt8(ascii: "2") + 26
      default: return nil
      }
      acc = (acc << 5) | UInt32(v)
      bits += 5
      if bits >= 8 {
        bits -= 8
        out.append(UInt8((acc >> UInt32(bits)) & 0xFF))
      }
    }
    return out
  }

  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var acc: UInt32 = 0
    var bits = 0
    for b in bytes {
      acc = (acc << 8) | UInt32(b)
      bits += 8
      while bits >= 5 {
        bits -= 5
        out.append(alphabet[Int((acc >> UInt32(bits)) & 31)])
      }
    }
    if bits > 0 { out.append(alphabet[Int((acc << UInt32(5 - bits)) & 31)]) }
    return String(decoding: out, as: UTF8.self)
  }
}

/// CRC-16/XMODEM: polynomial 0x1021, initial 0, no reflection, no final xor ("123456789" → 0x31C3).
enum CRC16 {
  static func xmodem(_ bytes: [UInt8]) -> UInt16 {
    var crc: UInt16 = 0
    for b in bytes {
      crc ^= UInt16(b) << 8
      for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
    }
    return crc
  }
}

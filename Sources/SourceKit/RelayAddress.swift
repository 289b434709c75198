/// A board published to NATS JetStream (`nats://HOST:PORT/BOARD`) and the names it lives under
/// on the broker, derived here once for the publisher, the walls, `fleet` and the hub's
/// permissions (docs/fleet.md lists them):
///
/// | what | name |
/// |---|---|
/// | the stream of the inputs the publisher took | `WB_BOARD`, subject `wb.BOARD.in` |
/// | the whole board, rewritten every few inputs | key-value bucket `wb_BOARD`, key `board` |
/// | the walls' reports | key-value bucket `wb_BOARD_fleet`, key the wall's name |
///
/// BOARD is 1–32 of `A–Z a–z 0–9 _ -`, and a wall's name 1–64 of those and `.` (a host name),
/// never two dots together nor one at either end: both become subject tokens, where `.`, `*`,
/// `>` and spaces mean something else. A name outside that is refused, never altered.
public struct RelayAddress: Hashable, Sendable, CustomStringConvertible {
  public var host: String
  public var port: Int
  public var board: String

  public init(host: String, port: Int, board: String) throws(SourceSpecError) {
    self.host = host
    self.port = port
    self.board = board
    if let why = Self.problem(board: board) {
      throw SourceSpecError(text: description, problem: why)
    }
  }

  /// `nats://HOST:PORT/BOARD` (an IPv6 host in brackets); nil: another scheme.
  public static func parse(_ text: String) throws(SourceSpecError) -> RelayAddress? {
    let scheme = "nats://"
    guard text.hasPrefix(scheme) else { return nil }
    let rest = text.dropFirst(scheme.count)
    guard let slash = rest.lastIndex(of: "/"), let colon = rest[..<slash].lastIndex(of: ":"),
      colon != rest.startIndex, let port = Int(rest[rest.index(after: colon)..<slash]), (1...65535).contains(port)
    else { throw SourceSpecError(text: text, problem: "expected nats://HOST:PORT/BOARD with a port 1–65535") }
    var host = String(rest[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty else { throw SourceSpecError(text: text, problem: "no host before the port") }
    return try RelayAddress(host: host, port: port, board: String(rest[rest.index(after: slash)...]))
  }

  public var description: String { "nats://\(host.contains(":") ? "[\(host)]" : host):\(port)/\(board)" }

  /// The stream of the published inputs, and its one subject.
  public var stream: String { "WB_\(board)" }
  public var subject: String { "wb.\(board).in" }
  /// The bucket that holds the whole board, and its key.
  public var bucket: String { "wb_\(board)" }
  public static let boardKey = "board"
  /// The bucket of the walls' reports (a key per wall, its name).
  public var fleetBucket: String { "wb_\(board)_fleet" }
  /// The stream behind a bucket (JetStream's naming).
  public static func bucketStream(_ bucket: String) -> String { "KV_\(bucket)" }
  /// The subject a wall's report is published on.
  public func reportSubject(wall: String) -> String { "$KV.\(fleetBucket).\(wall)" }
  /// A wall's own reply subjects, so that the hub can let it read its own answers only.
  public static func inboxPrefix(wall: String) -> String { "_INBOX_\(wall)" }

  /// Why `board` cannot name a board; nil when it can.
  public static func problem(board: String) -> String? {
    guard (1...32).contains(board.utf8.count), board.utf8.allSatisfy(isNameByte) else {
      return "a board's name is 1–32 letters, digits, '_' or '-' (got \"\(board)\")"
    }
    return nil
  }

  /// Why `wall` cannot name a wall; nil when it can.
  public static func problem(wall: String) -> String? {
    let bytes = Array(wall.utf8)
    guard (1...64).contains(bytes.count), bytes.allSatisfy({ isNameByte($0) || $0 == UInt8(ascii: ".") }),
      bytes.first != UInt8(ascii: "."), bytes.last != UInt8(ascii: "."), !wall.contains("..")
    else {
      return
        "a wall's name is 1–64 letters, digits, '_', '-' or single dots inside (a host name) (got \"\(wall)\")"
    }
    return nil
  }

  private static func isNameByte(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default: false
    }
  }
}

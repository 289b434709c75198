// ZoneFiles: tzdata's compiled zone files read for the board — a name under `$TZDIR` or
// `/usr/share/zoneinfo`, the system's zone (`$TZ`, `/etc/localtime`, `/etc/timezone`), and the
// zones a board's sprints name (`ZoneBook`). The projections read no file: what they need is
// read here, at the edge, and handed to them as values (`Zone`, `SprintZones`).
//
// What it may import: WallboardCore, Projections (Zone), Glibc.
internal import Glibc
public import Projections
public import WallboardCore

extension Zone {
  /// The zone named `identifier` from this system's tzdata; nil when the identifier names no
  /// zone it has (or is not a zone's name: a path that climbs out of the zone folder, say).
  public init?(_ identifier: String) { self.init(identifier, environment: nil) }

  /// The zone `identifier` under `environment`'s `TZDIR` (else the process's).
  init?(_ identifier: String, environment: [String: String]?) {
    if let utc = Zone(utc: identifier) {
      self = utc
      return
    }
    guard Zone.isName(identifier),
      let bytes = ZoneFiles.read(ZoneFiles.folder(environment) + "/" + identifier, atMost: Zone.maxFileBytes)
    else { return nil }
    self.init(identifier: identifier, tzif: bytes)
  }

  /// The zone of the file at `path` (a copied `/etc/localtime`), named `identifier`.
  init?(file path: String, identifier: String) {
    guard let bytes = ZoneFiles.read(path, atMost: Zone.maxFileBytes) else { return nil }
    self.init(identifier: identifier, tzif: bytes)
  }

  /// The system's zone: `$TZ` when it names one (`Europe/Berlin` or `:Europe/Berlin`), else the
  /// zone `/etc/localtime` links to, else the one `/etc/timezone` names, else `/etc/localtime`'s
  /// own rules when it is a copied file, else UTC.
  public static var current: Zone { current(environment: nil) }

  static func current(
    environment: [String: String]?, localtime: String = "/etc/localtime", timezone: String = "/etc/timezone"
  ) -> Zone {
    let tzVariable = environment?["TZ"] ?? getenv("TZ").map { String(cString: $0) }
    if let v = tzVariable, !v.isEmpty,
      let z = Zone(v.hasPrefix(":") ? String(v.dropFirst()) : v, environment: environment)
    {
      return z
    }
    var link = [CChar](repeating: 0, count: 4096)
    let n = readlink(localtime, &link, link.count - 1)
    if n > 0 {
      let target = String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let parts = target.split(separator: "/", omittingEmptySubsequences: false)
      if let i = parts.lastIndex(of: "zoneinfo"), i + 1 < parts.count,
        let z = Zone(parts[(i + 1)...].joined(separator: "/"), environment: environment)
      {
        return z
      }
    }
    if let text = ZoneFiles.read(timezone, atMost: 4096).map({ String(decoding: $0, as: UTF8.self) }),
      let name = text.split(whereSeparator: \.isWhitespace).first,
      let z = Zone(String(name), environment: environment)
    {
      return z
    }
    // A copy of a zone's file rather than a link (some images): its rules, under its own name.
    return Zone(file: localtime, identifier: "localtime") ?? .utc
  }
}

enum ZoneFiles {
  /// Where the zone files are: `$TZDIR`, else `/usr/share/zoneinfo`.
  static func folder(_ environment: [String: String]?) -> String {
    if let d = environment?["TZDIR"] ?? getenv("TZDIR").map({ String(cString: $0) }), !d.isEmpty { return d }
    return "/usr/share/zoneinfo"
  }

  /// The bytes of the regular file at `path`, nil when it is missing, not a regular file or
  /// larger than `limit` bytes. Opened without blocking: a FIFO in its place is refused.
  static func read(_ path: String, atMost limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= limit else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
    var got = 0
    while got < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      got += n
    }
    return bytes
  }
}

/// The zones the board's sprints name, each file read once (a name this system lacks is
/// remembered as such too, and the sprint falls back to the board's zone). The run loop owns
/// one; `zones(for:)` is O(the sprints) and reads a file only for a name it has not seen.
public struct ZoneBook {
  private var seen: [String: Zone?] = [:]
  /// How many names were looked up in the files (for tests: once each).
  public private(set) var reads = 0
  /// The names kept at most (a hostile feed naming a new zone in every event is not followed).
  public static let maxNames = 1_024

  public init() {}

  /// The zones `state`'s sprints name, read now (a command that draws once).
  public static func read(for state: BoardState) -> SprintZones {
    var book = ZoneBook()
    return book.zones(for: state)
  }

  /// The zones `state`'s sprints name, as far as this system has them.
  public mutating func zones(for state: BoardState) -> SprintZones {
    var found: [Zone] = []
    for s in state.sprints.values {
      guard let name = s.timeZone else { continue }
      if let known = seen[name] {
        if let z = known { found.append(z) }
        continue
      }
      guard seen.count < ZoneBook.maxNames else { continue }
      reads += 1
      let z = Zone(name)
      seen[name] = .some(z)
      if let z { found.append(z) }
    }
    return SprintZones(found)
  }
}

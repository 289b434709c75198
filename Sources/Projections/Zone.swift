internal import Glibc
public import WallboardCore

/// An IANA time zone, for turning instants into local dates and local midnights into instants.
///
/// Read from tzdata's compiled files (`/usr/share/zoneinfo/Europe/Berlin`, or under `$TZDIR`)
/// by `TZif`, not through Foundation's `TimeZone`, which starts ICU: that cost a board a tenth
/// of its start on a PC and about a second on a small or emulated machine. "UTC" (and "Etc/UTC",
/// "GMT") need no file.
public struct Zone: Sendable, Hashable {
  public let identifier: String
  private let tz: TZif

  /// `nil` when the identifier names no zone this system has (or is not a zone's name: a path
  /// that climbs out of the zone folder, say).
  public init?(_ identifier: String) { self.init(identifier, environment: nil) }

  /// The zone `identifier` under `environment`'s `TZDIR` (else the process's).
  init?(_ identifier: String, environment: [String: String]?) {
    if ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "UCT", "Zulu", "Etc/Zulu", "Universal"].contains(identifier) {
      self.identifier = identifier
      tz = TZif(transitions: [], offsets: [], initial: 0, rule: nil)
      return
    }
    guard Zone.isName(identifier), let tz = TZif.load(path: Zone.folder(environment) + "/" + identifier) else {
      return nil
    }
    self.identifier = identifier
    self.tz = tz
  }

  /// Whether `s` can be a zone's name: letters, digits, `/ _ + -`, no `.` or `..` component.
  static func isName(_ s: String) -> Bool {
    !s.isEmpty && s.utf8.count <= 64 && !s.hasPrefix("/")
      && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }
      && !s.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
  }

  /// The zone of the file at `path` (a copied `/etc/localtime`), named `identifier`.
  init?(file path: String, identifier: String) {
    guard let tz = TZif.load(path: path) else { return nil }
    self.identifier = identifier
    self.tz = tz
  }

  /// Where the zone files are: `$TZDIR`, else `/usr/share/zoneinfo`.
  static func folder(_ environment: [String: String]?) -> String {
    if let d = environment?["TZDIR"] ?? getenv("TZDIR").map({ String(cString: $0) }), !d.isEmpty { return d }
    return "/usr/share/zoneinfo"
  }

  public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
  public func hash(into h: inout Hasher) { h.combine(identifier) }

  public static let utc = Zone("UTC")!

  /// The system's zone: `$TZ` when it names one (`Europe/Berlin` or `:Europe/Berlin`), else the
  /// zone `/etc/localtime` links to, else the one `/etc/timezone` names, else `/etc/localtime`'s
  /// own rules when it is a copied file, else UTC.
  public static var current: Zone { current(environment: nil) }

  static func current(
    environment: [String: String]?, localtime: String = "/etc/localtime", timezone: String = "/etc/timezone"
  )
    -> Zone
  {
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
    if let name = TZif.readSmall(timezone)?.split(whereSeparator: \.isWhitespace).first,
      let z = Zone(String(name), environment: environment)
    {
      return z
    }
    // A copy of a zone's file rather than a link (some images): its rules, under its own name.
    return Zone(file: localtime, identifier: "localtime") ?? .utc
  }

  /// Offset from UTC at `t`, in seconds.
  public func offset(at t: Instant) -> Int {
    tz.offset(at: t.millis.floorDivided(by: 1000))
  }

  /// The local calendar date of `t`.
  public func date(of t: Instant) -> CivilDate {
    Instant(millis: t.millis + Int64(offset(at: t)) * 1000).utcDate
  }

  /// The local wall-clock time of `t` as seconds after local midnight.
  public func secondsIntoDay(_ t: Instant) -> Int {
    let local = t.millis / 1000 + Int64(offset(at: t))
    return Int(((local % 86_400) + 86_400) % 86_400)
  }

  /// The instant local midnight begins `date` (the first instant of the day).
  public func startOfDay(_ date: CivilDate) -> Instant {
    let local = Int64(date.daysSinceEpoch) * 86_400
    var guess = local - Int64(offset(at: Instant(seconds: local)))
    guess = local - Int64(offset(at: Instant(seconds: guess)))
    return Instant(seconds: guess)
  }

  /// The last millisecond of `date`.
  public func endOfDay(_ date: CivilDate) -> Instant {
    Instant(millis: startOfDay(date.adding(days: 1)).millis - 1)
  }
}

public import WallboardCore

/// An IANA time zone, for turning instants into local dates and local midnights into instants.
///
/// Made from tzdata's compiled bytes (`TZif`), not through Foundation's `TimeZone`, which starts
/// ICU: that cost a board a tenth of its start on a PC and about a second on a small or emulated
/// machine. Pure: the files (`/usr/share/zoneinfo/Europe/Berlin`, `$TZDIR`, `/etc/localtime`)
/// are read by `ZoneFiles`, outside the projections, which read none. "UTC" (and "Etc/UTC",
/// "GMT") need no file.
public struct Zone: Sendable, Hashable {
  public let identifier: String
  private let tz: TZif

  /// The names of UTC, which need no file.
  public static let utcNames: Set<String> = [
    "UTC", "Etc/UTC", "GMT", "Etc/GMT", "UCT", "Zulu", "Etc/Zulu", "Universal",
  ]

  /// UTC under one of its names (`utcNames`); nil for any other.
  public init?(utc identifier: String) {
    guard Zone.utcNames.contains(identifier) else { return nil }
    self.identifier = identifier
    tz = TZif(transitions: [], offsets: [], initial: 0, rule: nil)
  }

  /// The zone named `identifier` from the bytes of its compiled file; nil when they are not a
  /// TZif file (or are larger than any: 256 KiB).
  public init?(identifier: String, tzif bytes: [UInt8]) {
    guard let tz = TZif.parse(bytes) else { return nil }
    self.identifier = identifier
    self.tz = tz
  }

  /// The most bytes a zone's file can hold (a reader reads no more).
  public static let maxFileBytes = TZif.maxFileBytes

  /// Whether `s` can be a zone's name: letters, digits, `/ _ + -`, no `.` or `..` component.
  public static func isName(_ s: String) -> Bool {
    !s.isEmpty && s.utf8.count <= 64 && !s.hasPrefix("/")
      && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }
      && !s.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
  }

  public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
  public func hash(into h: inout Hasher) { h.combine(identifier) }

  public static let utc = Zone(utc: "UTC")!

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

  /// The first instant after `t` at which the local time of day reaches a whole multiple of
  /// `period` seconds (60: the next minute; 86 400: the next midnight), or the zone's offset
  /// changes (a daylight-saving switch moves the local time at once), whichever is first: until
  /// then, every local time of `t`'s minute (or day) and its date read the same. `period`
  /// divides a day. One offset change at most is looked for in that span (a zone changes its
  /// offset months apart, never twice in a day).
  public func nextLocalBoundary(after t: Instant, every period: Int) -> Instant {
    precondition(period > 0 && 86_400 % period == 0, "a boundary's period divides a day")
    let p = Int64(period) * 1000
    let offset = self.offset(at: t)
    let local = t.millis + Int64(offset) * 1000
    let boundary = Instant(millis: t.millis + p - (local - local.floorDivided(by: p) * p))
    guard self.offset(at: boundary) != offset else { return boundary }
    // The offset changes before: at a whole second (a zone's transitions are), found by halving.
    var same = t.millis.floorDivided(by: 1000)
    var changed = boundary.millis.floorDivided(by: 1000)
    while changed - same > 1 {
      let mid = same + (changed - same) / 2
      if self.offset(at: Instant(seconds: mid)) == offset { same = mid } else { changed = mid }
    }
    return Instant(seconds: changed)
  }

  /// The last millisecond of `date`.
  public func endOfDay(_ date: CivilDate) -> Instant {
    Instant(millis: startOfDay(date.adding(days: 1)).millis - 1)
  }
}

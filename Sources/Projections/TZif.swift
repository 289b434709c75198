internal import WallboardCore

/// A compiled time zone (RFC 8536, the TZif files of tzdata under `/usr/share/zoneinfo`): its
/// transitions and, for the times after the last one, its POSIX TZ rule. Read without ICU, so
/// a board never pays for ICU's time-zone data at start.
struct TZif: Sendable, Hashable {
  /// Transition instants (seconds since the epoch), ascending, and the UTC offset from each on.
  var transitions: [Int64]
  var offsets: [Int32]
  /// The offset before the first transition (RFC 8536: the first local time type).
  var initial: Int32
  /// The rule for the times after the last transition; nil when the last offset holds for ever.
  var rule: PosixTZ?

  /// The largest zone file a reader should take: tzdata's biggest are under 4 KiB (fat ones),
  /// far below.
  static let maxFileBytes = 256 * 1024

  /// The UTC offset at `t` (seconds since the epoch), in seconds.
  func offset(at t: Int64) -> Int {
    // With no transitions, the footer's rule (if any) governs every time (RFC 8536, 3.3).
    guard let last = transitions.last else { return rule?.offset(at: t) ?? Int(initial) }
    guard t >= transitions[0] else { return Int(initial) }
    if t >= last, let rule { return rule.offset(at: t) }
    // The last transition at or before t.
    var lo = 0
    var hi = transitions.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if transitions[mid] <= t { lo = mid } else { hi = mid - 1 }
    }
    return Int(offsets[lo])
  }

  /// Parses TZif bytes (version 1 alone, or 2 and later: the 64-bit block and the footer).
  static func parse(_ b: [UInt8]) -> TZif? {
    guard b.count <= maxFileBytes else { return nil }
    var p = 0
    func u32(_ at: Int) -> UInt32 {
      UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
    /// One header and data block; `wide`: 8-byte transition times.
    func block(wide: Bool) -> (TZif, end: Int)? {
      guard p + 44 <= b.count, b[p] == 0x54, b[p + 1] == 0x5A, b[p + 2] == 0x69, b[p + 3] == 0x66 else { return nil }
      let counts = (0..<6).map { Int(u32(p + 20 + 4 * $0)) }
      let (isut, isstd, leap, timecnt, typecnt, charcnt) = (
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
      )
      guard typecnt >= 1, typecnt <= 256, timecnt <= 10_000, leap <= 1_000, charcnt <= 10_000,
        isut == 0 || isut == typecnt, isstd == 0 || isstd == typecnt
      else { return nil }
      let t = wide ? 8 : 4
      var q = p + 44
      let size = timecnt * t + timecnt + typecnt * 6 + charcnt + leap * (t + 4) + isstd + isut
      guard q + size <= b.count else { return nil }
      var times: [Int64] = []
      for i in 0..<timecnt {
        let at = q + i * t
        times.append(
          wide ? Int64(bitPattern: UInt64(u32(at)) << 32 | UInt64(u32(at + 4))) : Int64(Int32(bitPattern: u32(at))))
      }
      guard zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
      q += timecnt * t
      let index = Array(b[q..<q + timecnt])
      q += timecnt
      var types: [Int32] = []
      for i in 0..<typecnt {
        let off = Int32(bitPattern: u32(q + 6 * i))
        guard off > -26 * 3600 && off < 26 * 3600 else { return nil }
        types.append(off)
      }
      q += typecnt * 6
      guard index.allSatisfy({ Int($0) < typecnt }) else { return nil }
      q += charcnt + leap * (t + 4) + isstd + isut
      return (TZif(transitions: times, offsets: index.map { types[Int($0)] }, initial: types[0], rule: nil), q)
    }
    guard let (v1, end1) = block(wide: false) else { return nil }
    guard b[4] >= 0x32 else { return v1 }  // version 1: no more
    p = end1
    guard let (wide, end2) = block(wide: true) else { return nil }
    var zone = wide
    // The footer: "\n" TZ string "\n".
    if end2 < b.count, b[end2] == 0x0A, let close = b[(end2 + 1)...].firstIndex(of: 0x0A) {
      let text = String(decoding: b[(end2 + 1)..<close], as: UTF8.self)
      if !text.isEmpty {
        guard let rule = PosixTZ(text) else { return nil }
        zone.rule = rule
        if zone.transitions.isEmpty { zone.initial = Int32(rule.std) }
      }
    }
    return zone
  }
}

/// A POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`): standard time, and daylight time between two
/// rules of the year, as TZif footers give them.
struct PosixTZ: Sendable, Hashable {
  /// UTC offsets in seconds (east positive, unlike the string's sign).
  var std: Int
  var dst: Int?
  var start: DayRule?
  var end: DayRule?

  /// A day of the year and the local time of day (seconds, may be negative or past 24 h).
  enum DayRule: Sendable, Hashable {
    /// `Jn`: day 1…365, February 29 never counted.
    case julian(Int, time: Int)
    /// `n`: day 0…365, February 29 counted.
    case zeroBased(Int, time: Int)
    /// `Mm.w.d`: weekday d (0 Sunday) of week w (1…4, 5 the last) of month m.
    case month(Int, week: Int, weekday: Int, time: Int)
  }

  init?(_ text: String) {
    var s = Substring(text)
    func name() -> Bool {
      if s.first == "<" {
        guard let close = s.firstIndex(of: ">") else { return false }
        s = s[s.index(after: close)...]
        return true
      }
      let letters = s.prefix { $0.isLetter }
      guard letters.count >= 3 else { return false }
      s = s.dropFirst(letters.count)
      return true
    }
    /// [+-]hh[:mm[:ss]] in seconds.
    func clock(maxHours: Int) -> Int? {
      var sign = 1
      if s.first == "+" || s.first == "-" {
        sign = s.first == "-" ? -1 : 1
        s = s.dropFirst()
      }
      var parts: [Int] = []
      while parts.count < 3 {
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3, let v = Int(digits) else { return nil }
        parts.append(v)
        s = s.dropFirst(digits.count)
        guard s.first == ":" else { break }
        s = s.dropFirst()
      }
      guard parts[0] <= maxHours, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
      return sign * (parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0))
    }
    func rule() -> DayRule? {
      var r: DayRule
      if s.first == "M" {
        s = s.dropFirst()
        let f = s.prefix { $0 != "/" && $0 != "," }.split(separator: ".").compactMap { Int($0) }
        guard f.count == 3, (1...12).contains(f[0]), (1...5).contains(f[1]), (0...6).contains(f[2]) else { return nil }
        s = s.drop { $0 != "/" && $0 != "," }
        r = .month(f[0], week: f[1], weekday: f[2], time: 7200)
      } else {
        let julian = s.first == "J"
        if julian { s = s.dropFirst() }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits), digits.count <= 3, julian ? (1...365).contains(n) : (0...365).contains(n) else {
          return nil
        }
        s = s.dropFirst(digits.count)
        r = julian ? .julian(n, time: 7200) : .zeroBased(n, time: 7200)
      }
      if s.first == "/" {
        s = s.dropFirst()
        guard let t = clock(maxHours: 167) else { return nil }
        switch r {
        case .julian(let n, _): r = .julian(n, time: t)
        case .zeroBased(let n, _): r = .zeroBased(n, time: t)
        case .month(let m, let w, let d, _): r = .month(m, week: w, weekday: d, time: t)
        }
      }
      return r
    }
    guard name(), let west = clock(maxHours: 24) else { return nil }
    std = -west
    if s.isEmpty { return }
    guard name() else { return nil }
    dst = std + 3600
    if let f = s.first, f != "," {
      guard let w = clock(maxHours: 24) else { return nil }
      dst = -w
    }
    guard s.first == "," else {
      // Daylight time named without rules: POSIX leaves them to the system; tzdata never writes it.
      return nil
    }
    s = s.dropFirst()
    guard let a = rule(), s.first == "," else { return nil }
    s = s.dropFirst()
    guard let b = rule(), s.isEmpty else { return nil }
    start = a
    end = b
  }

  /// The UTC offset at `t` (seconds since the epoch).
  func offset(at t: Int64) -> Int {
    guard let dst, let start, let end else { return std }
    let year = CivilDate(daysSinceEpoch: Int((t + Int64(std)).floorDivided(by: 86_400))).year
    // Daylight time starts at a local standard time and ends at a local daylight time.
    let begins = Int64(Self.day(start, year) * 86_400 + Self.time(start) - std)
    let ends = Int64(Self.day(end, year) * 86_400 + Self.time(end) - dst)
    let inside = begins < ends ? (t >= begins && t < ends) : !(t >= ends && t < begins)
    return inside ? dst : std
  }

  static func time(_ r: DayRule) -> Int {
    switch r {
    case .julian(_, let t), .zeroBased(_, let t), .month(_, _, _, let t): t
    }
  }

  /// The rule's day in `year`, as days since the epoch.
  static func day(_ r: DayRule, _ year: Int) -> Int {
    let jan1 = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
    switch r {
    case .julian(let n, _):
      // Day n of a year whose February has 28 days.
      return jan1 + n - 1 + (CivilDate.isLeap(year) && n >= 60 ? 1 : 0)
    case .zeroBased(let n, _):
      return jan1 + n
    case .month(let m, let w, let d, _):
      let first = CivilDate(year: year, month: m, day: 1).daysSinceEpoch
      // 1970-01-01 was a Thursday (4).
      let firstWeekday = ((first + 4) % 7 + 7) % 7
      var day = first + (d - firstWeekday + 7) % 7 + (w - 1) * 7
      let length = CivilDate.daysIn(month: m, year: year)
      while day >= first + length { day -= 7 }
      return day
    }
  }
}

extension Int64 {
  func floorDivided(by d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}

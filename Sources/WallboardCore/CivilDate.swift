/// A calendar date with no time zone (`YYYY-MM-DD`), as sprints and holidays are written.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// A date from its parts; the caller guarantees they are valid (see `init(parsing:)`).
  public init(year: Int, month: Int, day: Int) {
    precondition(
      (1...12).contains(month) && (1...CivilDate.daysIn(month: month, year: year)).contains(day),
      "CivilDate(\(year), \(month), \(day)) is not a calendar date")
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01 (Howard Hinnant's civil-from-days).
  public init(daysSinceEpoch days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
    self.month = m
    self.day = d
  }

  /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
  public var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `n` days later (earlier when negative).
  public func adding(days n: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + n) }

  /// The day of the week.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let d = daysSinceEpoch
    let mondayBased = ((d + 3) % 7 + 7) % 7
    return Weekday.allCases[mondayBased]
  }

  public static func < (a: CivilDate, b: CivilDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  public var description: String {
    let y = String(year)
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + pad2(month) + "-" + pad2(day)
  }

  public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Parses `YYYY-MM-DD` (years 1970…9999); `nil` when malformed or not a calendar date.
  public init?(parsing s: String) {
    let bytes = Array(s.utf8)
    var p = Scanner(bytes: bytes)
    guard let y = p.digits(4), p.eat(UInt8(ascii: "-")), let m = p.digits(2),
      p.eat(UInt8(ascii: "-")), let d = p.digits(2), p.atEnd,
      (1970...9999).contains(y), (1...12).contains(m), (1...CivilDate.daysIn(month: m, year: y)).contains(d)
    else { return nil }
    self.init(year: y, month: m, day: d)
  }
}

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: String, CaseIterable, Hashable, Sendable, Comparable {
  case mon, tue, wed, thu, fri, sat, sun

  public static func < (a: Weekday, b: Weekday) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }

  /// Parses `sat`, `Sat`, `saturday`, `SATURDAY`; `nil` for anything else.
  public init?(name: String) {
    let n = name.lowercased()
    guard n.count >= 3, let w = Weekday(rawValue: String(n.prefix(3))) else { return nil }
    let full = [
      "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
      "fri": "friday", "sat": "saturday", "sun": "sunday",
    ][w.rawValue]!
    guard n == w.rawValue || n == full else { return nil }
    self = w
  }
}

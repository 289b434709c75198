/// A moment in time: milliseconds since 1970-01-01T00:00:00Z.
///
/// Time only ever enters the core inside events, as `Instant`s; nothing here reads a clock.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since the Unix epoch (UTC).
  public var millis: Int64

  public init(millis: Int64) { self.millis = millis }
  public init(seconds: Int64) { self.millis = seconds * 1000 }

  /// Seconds since the epoch, as a floating-point number.
  public var seconds: Double { Double(millis) / 1000 }

  public static func < (a: Instant, b: Instant) -> Bool { a.millis < b.millis }

  /// This instant moved by `seconds` (may be fractional or negative).
  public func adding(seconds: Double) -> Instant {
    Instant(millis: millis + Int64((seconds * 1000).rounded()))
  }

  /// The UTC calendar date of this instant.
  public var utcDate: CivilDate {
    CivilDate(daysSinceEpoch: Int(millis.floorDiv(86_400_000)))
  }

  /// RFC 3339 in UTC, `Z`-suffixed, with milliseconds only when they are not zero.
  public var description: String { rfc3339 }

  public var rfc3339: String {
    let day = millis.floorDiv(86_400_000)
    let msOfDay = millis - day * 86_400_000
    let date = CivilDate(daysSinceEpoch: Int(day))
    let s = Int(msOfDay / 1000)
    let ms = Int(msOfDay % 1000)
    var out = "\(date)T\(pad2(s / 3600)):\(pad2(s / 60 % 60)):\(pad2(s % 60))"
    if ms != 0 { out += "." + String(ms + 1000).dropFirst() }
    return out + "Z"
  }
}

extension Int64 {
  /// Division rounding towards negative infinity.
  @inlinable func floorDiv(_ d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}

func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

extension Instant {
  /// The ways an RFC 3339 timestamp can be wrong.
  public enum ParseError: Error, Equatable, Sendable {
    case malformed
    /// Not a calendar date or time of day, or a moment outside 1970-01-01T00:00:00Z…
    /// 9999-12-31T23:59:59.999Z once its offset is applied.
    case outOfRange
    /// Second 60: a leap second, which instants (like Unix time) do not count.
    case leapSecond
  }

  /// The first moment after the years instants hold: 10000-01-01T00:00:00Z.
  package static let endOfYear9999 = Int64(CivilDate(year: 9999, month: 12, day: 31).daysSinceEpoch + 1) * 86_400_000
  /// The last millisecond of the year 9999: the latest instant a time read from text may be.
  public static let lastMillisecond = endOfYear9999 - 1

  /// Parses an RFC 3339 timestamp (`2026-11-03T09:15:00Z`, `…09:15:00.123+02:00`).
  ///
  /// Accepts `T`/`t`/space as separator, `Z`/`z` or a numeric offset, fractional seconds up to
  /// nine digits (kept to the millisecond). Years 1970…9999 only, after the offset too
  /// (`9999-12-31T23:30:00-01:00` is in the year 10000, `1970-01-01T00:30:00+01:00` in 1969:
  /// both out of range): a wall board has no business with other years, and the cap keeps
  /// arithmetic far from overflow. A leap second (`23:59:60`) is an error of its own rather
  /// than a moment moved silently to 23:59:59.
  public init<S: Collection<UInt8>>(rfc3339 bytes: S) throws(ParseError) where S.Index == Int {
    var p = Scanner(bytes: bytes)
    guard let year = p.digits(4), p.eat(UInt8(ascii: "-")), let month = p.digits(2),
      p.eat(UInt8(ascii: "-")), let day = p.digits(2)
    else { throw .malformed }
    guard let sep = p.next(), sep == UInt8(ascii: "T") || sep == UInt8(ascii: "t") || sep == 0x20
    else { throw .malformed }
    guard let hour = p.digits(2), p.eat(UInt8(ascii: ":")), let minute = p.digits(2),
      p.eat(UInt8(ascii: ":")), let second = p.digits(2)
    else { throw .malformed }
    var millis = 0
    if p.eat(UInt8(ascii: ".")) {
      var n = 0
      var scale = 100
      while let c = p.peek(), c >= 0x30, c <= 0x39 {
        p.advance()
        n += 1
        if n > 9 { throw .malformed }
        millis += Int(c - 0x30) * scale
        scale /= 10
      }
      if n == 0 { throw .malformed }
    }
    var offset = 0
    guard let z = p.next() else { throw .malformed }
    switch z {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"): break
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard let oh = p.digits(2), p.eat(UInt8(ascii: ":")), let om = p.digits(2), oh < 24, om < 60
      else { throw .malformed }
      offset = (oh * 60 + om) * 60 * (z == UInt8(ascii: "+") ? 1 : -1)
    default: throw .malformed
    }
    guard p.atEnd else { throw .malformed }
    guard (1970...9999).contains(year), (1...12).contains(month),
      (1...CivilDate.daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
      second < 61
    else { throw .outOfRange }
    if second == 60 { throw .leapSecond }
    let date = CivilDate(year: year, month: month, day: day)
    let secs =
      Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
    let total = secs * 1000 + Int64(millis)
    guard total >= 0 && total < Instant.endOfYear9999 else { throw .outOfRange }
    self.init(millis: total)
  }

  /// Parses an RFC 3339 timestamp from a string.
  public init(rfc3339 string: String) throws(ParseError) {
    try self.init(rfc3339: Array(string.utf8))
  }
}

/// A tiny cursor over ASCII bytes, for the date parsers.
struct Scanner<S: Collection<UInt8>> where S.Index == Int {
  let bytes: S
  var i: Int
  init(bytes: S) {
    self.bytes = bytes
    self.i = bytes.startIndex
  }
  var atEnd: Bool { i >= bytes.endIndex }
  func peek() -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
  mutating func advance() { i += 1 }
  mutating func next() -> UInt8? {
    guard i < bytes.endIndex else { return nil }
    defer { i += 1 }
    return bytes[i]
  }
  mutating func eat(_ c: UInt8) -> Bool {
    guard peek() == c else { return false }
    i += 1
    return true
  }
  mutating func digits(_ n: Int) -> Int? {
    var v = 0
    for _ in 0..<n {
      guard let c = peek(), c >= 0x30, c <= 0x39 else { return nil }
      v = v * 10 + Int(c - 0x30)
      i += 1
    }
    return v
  }
}

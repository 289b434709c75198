public import Projections
public import WallboardCore

/// Dims or blanks the screen between given times, per weekday.
///
/// Each rule is written `DAYS FROM-TO ACTION`: `mon-fri 19:00-07:30 dim=20` keeps 20 % of the
/// brightness from 19:00 on Monday to Friday until 07:30 the next morning; `sat,sun 00:00-24:00
/// blank` turns the screen off all weekend. A rule whose end is before its start runs past
/// midnight and belongs to the day it started. When rules overlap, blank wins over dim, and the
/// darker dim wins.
public struct NightSchedule: Hashable, Sendable {
  public enum Action: Hashable, Sendable {
    /// Keep this fraction (0…1) of the brightness.
    case dim(Double)
    case blank
  }

  public struct Rule: Hashable, Sendable {
    public var days: Set<Weekday>
    /// Minutes after midnight, 0…1440.
    public var from: Int
    public var to: Int
    public var action: Action
  }

  /// What the screen should do now.
  public enum State: Hashable, Sendable {
    case day
    case dim(Double)
    case blank
  }

  public var rules: [Rule]

  public init(rules: [Rule] = []) { self.rules = rules }

  /// A rule that could not be read, naming it and what was wrong.
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var rule: String
    public var problem: String
    public var description: String { "night rule \"\(rule)\": \(problem)" }
  }

  /// Parses one rule (`mon-fri 19:00-07:30 dim=20`).
  public static func parse(rule text: String) throws(ParseError) -> Rule {
    func fail(_ p: String) -> ParseError { ParseError(rule: text, problem: p) }
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    guard words.count == 3 else { throw fail("expected DAYS FROM-TO dim=PERCENT|blank") }
    var days: Set<Weekday> = []
    for part in words[0].split(separator: ",") {
      let ends = part.split(separator: "-").map(String.init)
      if ends.count == 1 {
        if part == "daily" || part == "all" {
          days.formUnion(Weekday.allCases)
          continue
        }
        guard let d = Weekday(name: ends[0]) else { throw fail("\"\(part)\" is not a weekday (mon…sun, or daily)") }
        days.insert(d)
      } else if ends.count == 2, let a = Weekday(name: ends[0]), let b = Weekday(name: ends[1]) {
        let all = Weekday.allCases
        var i = all.firstIndex(of: a)!
        let j = all.firstIndex(of: b)!
        while true {
          days.insert(all[i])
          if i == j { break }
          i = (i + 1) % all.count
        }
      } else {
        throw fail("\"\(part)\" is not a weekday or a range such as mon-fri")
      }
    }
    let times = words[1].split(separator: "-").map(String.init)
    guard times.count == 2, let from = minutes(times[0]), let to = minutes(times[1]) else {
      throw fail("\"\(words[1])\" is not FROM-TO with times HH:MM (00:00 to 24:00)")
    }
    guard from != to else { throw fail("FROM and TO are the same time") }
    let action: Action
    if words[2] == "blank" {
      action = .blank
    } else if words[2].hasPrefix("dim="), let p = Int(words[2].dropFirst(4)), (0...100).contains(p) {
      action = .dim(Double(p) / 100)
    } else {
      throw fail("\"\(words[2])\" is not dim=PERCENT (0–100) or blank")
    }
    return Rule(days: days, from: from, to: to, action: action)
  }

  static func minutes(_ s: String) -> Int? {
    let hm = s.split(separator: ":").map { Int($0) }
    guard hm.count == 2, let h = hm[0], let m = hm[1], (0...24).contains(h), (0..<60).contains(m), h * 60 + m <= 1440
    else { return nil }
    return h * 60 + m
  }

  /// When `state(at:zone:)` may next read differently: the next minute in `zone` (its rules are
  /// in minutes); nil without rules.
  public func nextChange(after t: Instant, zone: Zone) -> Instant? {
    rules.isEmpty ? nil : zone.nextLocalBoundary(after: t, every: 60)
  }

  /// What the screen should do at `t` in `zone`.
  public func state(at t: Instant, zone: Zone) -> State {
    let date = zone.date(of: t)
    let minute = zone.secondsIntoDay(t) / 60
    let yesterday = date.adding(days: -1).weekday
    var result = State.day
    for r in rules {
      let active: Bool
      if r.from < r.to {
        active = r.days.contains(date.weekday) && minute >= r.from && minute < r.to
      } else {
        // Runs past midnight: tonight's part, or the part left over from yesterday's start.
        active = (r.days.contains(date.weekday) && minute >= r.from) || (r.days.contains(yesterday) && minute < r.to)
      }
      guard active else { continue }
      switch (result, r.action) {
      case (_, .blank): result = .blank
      case (.blank, _): break
      case (.day, .dim(let f)): result = .dim(f)
      case (.dim(let g), .dim(let f)): result = .dim(min(f, g))
      }
    }
    return result
  }
}

import Foundation
import Wire

/// Mutations that know JSON: one value of a parsed line replaced by an extreme one (raw number
/// texts included), or a key renamed to another of the contract's keys. Byte mutations rarely
/// reach one particular value (an `estimate` of a sprint member, a sprint's `end_date`); these
/// reach every value of every line about as often.
extension Mutator {
  /// Raw JSON texts: numbers a double cannot hold exactly or at all, and plain extremes.
  static let rawValues = [
    "9007199254740993", "18446744073709551616", "1e400", "-1e400", "1e-400", "-0", "1.7976931348623157e308",
    "4.9e-324", "123456789012345678901234567890", "1E308", "0.1e1",
  ]

  /// Values of every kind the contract's keys take, at their edges and past them, by kind:
  /// numbers and numeric strings, dates and times, other strings, structure.
  static let values: [[JSONValue]] = [
    [
      0, -1, 1e6, 1_000_001, 1e308, -1e308, 9_007_199_254_740_991, 9_007_199_254_740_992, 0.5, 1e-7, "1e308", "1E308",
      "1e400", "0x10", "0x1p1023", "inf", "-inf", "nan", "-3", "+3", "1000001", "1000000", "999999.99", "2.5", ".5",
      "5.", "1e15", "99999999999",
    ],
    [
      "9999-12-31", "1970-01-01", "2026-02-29", "2024-02-29", "2026-11-01", "2026-11-02", "2026-11-30", "2027-11-13",
      "3026-11-13", "10000-01-01", "2026-13-01", "9999-12-31T23:59:59.999Z", "2016-12-31T23:59:60Z",
      "9999-12-31T23:59:59-23:59", "1970-01-01T00:00:00+23:59", "2026-11-06T12:00:00Z", "2026-11-02T00:00:00+14:00",
      "2126-11-06T12:00:00Z", "2026-11-06T12:00:00.123456789Z",
    ],
    [
      "", " ", "S", "xl", "XXL", "done", "rejected", "In_Progress", "in review", "todo", "A", "B", "s1", "s2",
      "sprint:s1", "Europe/Berlin", "Pacific/Kiritimati", "Mars/Olympus", "sat", "Saturday", "feature.created",
      "board.snapshot", .string(String(repeating: "é", count: 300)), .string(String(repeating: "x", count: 70_000)),
    ],
    [
      .null, true, false, [], ["A", "B", "C", "D", "A"], ["sat", "sun", "mon", "tue", "wed", "thu", "fri"], [1, 2],
      [[]], [:], ["id": "Z", "status": "done", "points": 1e6], .array((0..<2000).map { .string("X\($0)") }),
    ],
  ]

  /// The contract's keys, for renames.
  static let keys = [
    "topic", "time", "seq", "source", "payload", "id", "feature_id", "title", "status", "points", "estimate",
    "labels", "sprint_id", "start_date", "end_date", "feature_ids", "added", "removed", "to", "from", "at",
    "started_at", "closed_at", "holidays", "non_working_days", "time_zone", "features", "sprints", "workflows",
    "active_sprint_id", "states", "terminal", "done", "initial_state", "project_id",
  ]

  /// One JSON-aware mutation of `line`; a line that is not JSON is returned as it is.
  mutating func mutateJSON(_ line: [UInt8]) -> [UInt8] {
    guard let root = try? JSONParser.parse(line) else { return line }
    var paths: [[Int]] = []
    Self.collect(root, path: [], into: &paths)
    guard !paths.isEmpty else { return line }
    let path = paths[below(paths.count)]
    var raw: String?
    let mutated: JSONValue
    if chance(20), case .object = Self.value(root, at: path.dropLast()), let last = path.last {
      mutated = Self.renaming(root, at: path.dropLast(), member: last, to: Self.keys[below(Self.keys.count)])
    } else if chance(15) {
      raw = Self.rawValues[below(Self.rawValues.count)]
      mutated = Self.replacing(root, at: path[...], with: .string("\u{1}raw\u{1}"))
    } else {
      let kind = Self.values[[0, 0, 0, 1, 1, 2, 2, 3, 3][below(9)]]
      mutated = Self.replacing(root, at: path[...], with: kind[below(kind.count)])
    }
    var text = mutated.serialized()
    if let raw { text = text.replacingFirst("\"\\u0001raw\\u0001\"", with: raw) }
    return Array(text.utf8)
  }

  /// Paths (member or element positions) of every value below `v`.
  static func collect(_ v: JSONValue, path: [Int], into paths: inout [[Int]]) {
    switch v {
    case .object(let o):
      for (i, m) in o.members.enumerated() {
        paths.append(path + [i])
        collect(m.value, path: path + [i], into: &paths)
      }
    case .array(let a):
      for (i, e) in a.enumerated().prefix(50) {
        paths.append(path + [i])
        collect(e, path: path + [i], into: &paths)
      }
    default: break
    }
  }

  static func value(_ v: JSONValue, at path: ArraySlice<Int>) -> JSONValue {
    guard let first = path.first else { return v }
    switch v {
    case .object(let o): return value(o.members[first].value, at: path.dropFirst())
    case .array(let a): return value(a[first], at: path.dropFirst())
    default: return v
    }
  }

  static func replacing(_ v: JSONValue, at path: ArraySlice<Int>, with new: JSONValue) -> JSONValue {
    guard let first = path.first else { return new }
    switch v {
    case .object(var o):
      o.members[first].value = replacing(o.members[first].value, at: path.dropFirst(), with: new)
      return .object(o)
    case .array(var a):
      a[first] = replacing(a[first], at: path.dropFirst(), with: new)
      return .array(a)
    default: return v
    }
  }

  static func renaming(_ v: JSONValue, at path: ArraySlice<Int>, member: Int, to key: String) -> JSONValue {
    guard let first = path.first else {
      guard case .object(var o) = v else { return v }
      o.members[member].key = key
      return .object(o)
    }
    switch v {
    case .object(var o):
      o.members[first].value = renaming(o.members[first].value, at: path.dropFirst(), member: member, to: key)
      return .object(o)
    case .array(var a):
      a[first] = renaming(a[first], at: path.dropFirst(), member: member, to: key)
      return .array(a)
    default: return v
    }
  }
}

extension String {
  /// `self` with the first `target` replaced.
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let r = range(of: target) else { return self }
    return replacingCharacters(in: r, with: replacement)
  }
}

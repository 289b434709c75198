internal import Projections
internal import WallboardCore
internal import ZoneFiles

/// `--sprint id=…,name=…,start=YYYY-MM-DD,end=YYYY-MM-DD[,label=…][,goal=…][,holidays=…]
/// [,non_working=…][,tz=…][,features=…]`: a sprint the board is told of, since upstream Orchestra
/// has none (`docs/sprints.md`). Commas separate keys; lists (`holidays`, `non_working`,
/// `features`) are separated by `;`. Parsed once, here, into a `Sprint` whose dates decide
/// whether it is active.
enum SprintOption {
  /// The keys a spec may name, in the order `--help` and the errors list them.
  static let keys = ["id", "name", "start", "end", "label", "goal", "holidays", "non_working", "tz", "features"]
  /// The longest spec, in bytes (a long `features=` list fits).
  static let maxSpecBytes = 65_536
  static let maxIdLength = 64
  static let maxNameLength = 120
  static let maxGoalLength = 400
  static let maxLabelLength = 200
  /// The most ids `features=` lists.
  static let maxFeatures = 2_000
  static let maxFeatureIdLength = 128

  /// Parses one spec; every error names the key that was wrong.
  static func parse(_ spec: String, limits: BoardSettings.Limits = BoardSettings.Limits()) throws(CLIError) -> Sprint {
    func fail(_ why: String) -> CLIError { .usage("--sprint: \(why)") }
    guard spec.utf8.count <= maxSpecBytes else { throw fail("the spec is longer than \(maxSpecBytes) bytes") }
    let values = try keyValues(spec)
    guard let id = values["id"] else { throw fail("id is missing (such as id=s1)") }
    try check(id, key: "id", max: maxIdLength)
    guard id.unicodeScalars.allSatisfy(isIdScalar) else {
      throw fail("id \"\(clip(id))\" may hold only letters, digits, '.', '_' and '-'")
    }
    func named(_ why: String) -> CLIError { .usage("--sprint \(id): \(why)") }
    func date(_ key: String) throws(CLIError) -> CivilDate {
      guard let v = values[key] else { throw named("\(key) is missing (a date such as 2026-11-02)") }
      guard let d = CivilDate(parsing: v) else {
        throw named("\(key): \"\(clip(v))\" is not a date such as 2026-11-02")
      }
      return d
    }
    let start = try date("start")
    let end = try date("end")
    guard end >= start else { throw named("end \(end) is before start \(start)") }
    let days = end.daysSinceEpoch - start.daysSinceEpoch + 1
    guard days <= limits.maxSprintDays else {
      throw named("start \(start) to end \(end) is \(days) days; a sprint lasts at most \(limits.maxSprintDays)")
    }
    let name = values["name"] ?? id
    try check(name, key: "name", max: maxNameLength, sprint: id)
    if let goal = values["goal"] { try check(goal, key: "goal", max: maxGoalLength, sprint: id) }
    let label = values["label"] ?? "sprint:\(id)"
    try check(label, key: "label", max: maxLabelLength, sprint: id)

    let holidays = try holidayDates(values["holidays"], sprint: id, max: limits.maxSprintDays)
    let nonWorking = try weekdays(values["non_working"], sprint: id)
    var timeZone: String?
    if let tz = values["tz"] {
      guard Zone(tz) != nil else { throw named("tz: \"\(clip(tz))\" is not an IANA time zone such as Europe/Berlin") }
      timeZone = tz
    }
    let features = try featureIds(values["features"], sprint: id)
    return Sprint(
      id: id, name: name, goal: values["goal"], startDate: start, endDate: end, featureIds: features,
      nonWorkingDays: nonWorking, holidays: holidays, timeZone: timeZone, membershipLabel: label,
      activation: .dates)
  }

  /// The spec's `KEY=VALUE` parts, each key known, given once and with a value.
  private static func keyValues(_ spec: String) throws(CLIError) -> [String: String] {
    func fail(_ why: String) -> CLIError { .usage("--sprint: \(why)") }
    var values: [String: String] = [:]
    for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
      guard let eq = part.firstIndex(of: "=") else {
        throw fail("\"\(clip(part))\" is not KEY=VALUE (keys: \(keys.joined(separator: ", ")); commas separate them)")
      }
      let key = String(part[..<eq])
      let value = String(part[part.index(after: eq)...])
      guard keys.contains(key) else {
        throw fail("unknown key \"\(clip(key))\" (accepted: \(keys.joined(separator: ", ")))")
      }
      guard values[key] == nil else { throw fail("the key \(key) is given twice") }
      guard !value.isEmpty else { throw fail("\(key) needs a value") }
      if let bad = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
        throw fail("\(key) contains the control character U+\(String(bad.value, radix: 16, uppercase: true))")
      }
      values[key] = value
    }
    return values
  }

  /// `holidays=`: dates separated by `;`, at most `max`.
  private static func holidayDates(_ v: String?, sprint id: String, max: Int) throws(CLIError) -> Set<CivilDate> {
    var holidays: Set<CivilDate> = []
    for item in list(v) {
      guard let d = CivilDate(parsing: item) else {
        throw .usage(
          "--sprint \(id): holidays: \"\(clip(item))\" is not a date such as 2026-12-24 (dates separated by ';')")
      }
      holidays.insert(d)
      guard holidays.count <= max else { throw .usage("--sprint \(id): holidays: more than \(max) dates") }
    }
    return holidays
  }

  /// `non_working=`: weekdays separated by `;`, or `none`; Saturday and Sunday when not given.
  private static func weekdays(_ v: String?, sprint id: String) throws(CLIError) -> Set<Weekday> {
    guard let v else { return [.sat, .sun] }
    var nonWorking: Set<Weekday> = []
    if v != "none" {
      for item in list(v) {
        guard let w = Weekday(name: item) else {
          throw .usage(
            "--sprint \(id): non_working: \"\(clip(item))\" is not a weekday such as sat or saturday (or none)")
        }
        nonWorking.insert(w)
      }
    }
    guard nonWorking.count < 7 else {
      throw .usage("--sprint \(id): non_working: every day of the week is non-working")
    }
    return nonWorking
  }

  /// `features=`: ids separated by `;`, each once, in their order.
  private static func featureIds(_ v: String?, sprint id: String) throws(CLIError) -> [String] {
    var features: [String] = []
    for item in list(v) {
      guard item.utf8.count <= maxFeatureIdLength else {
        throw .usage("--sprint \(id): features: \"\(clip(item))\" is longer than \(maxFeatureIdLength) bytes")
      }
      if !features.contains(item) { features.append(item) }
      guard features.count <= maxFeatures else {
        throw .usage("--sprint \(id): features: more than \(maxFeatures) ids")
      }
    }
    return features
  }

  /// A `;`-separated list, without empty items or the spaces around them.
  static func list(_ v: String?) -> [String] {
    guard let v else { return [] }
    return v.split(separator: ";").map { String($0.trimmed { $0 == " " }) }.filter { !$0.isEmpty }
  }

  static func check(_ v: String, key: String, max: Int, sprint: String? = nil) throws(CLIError) {
    guard v.utf8.count <= max else {
      throw .usage("--sprint\(sprint.map { " " + $0 } ?? ""): \(key) is longer than \(max) bytes")
    }
  }

  static func isIdScalar(_ c: Unicode.Scalar) -> Bool {
    (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "_" || c == "-"
  }

  /// A value as an error quotes it: at most 60 characters.
  static func clip<S: StringProtocol>(_ s: S) -> String { s.count <= 60 ? String(s) : String(s.prefix(57)) + "…" }
}

import WallboardCore

/// Typed, capped reads of one JSON object's keys, with errors that carry the key's JSON path.
///
/// Readers of optional keys return `nil` for an absent key and for `null`; `nullable(_:_:)`
/// tells the two apart for patches.
struct Fields {
  let object: JSONObject
  /// The object's own path (`payload`, `payload.sprints[2]`; empty for the envelope).
  let path: String
  let limits: EventLimits

  init(_ object: JSONObject, path: String, limits: EventLimits) {
    self.object = object
    self.path = path
    self.limits = limits
  }

  /// Which cap a string falls under.
  enum Kind {
    case id, text, other
  }

  func at(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

  func fail(_ key: String, _ problem: String) -> EventDecodingError {
    EventDecodingError(path: at(key), problem: problem)
  }

  static func wrongType(_ expected: String, _ found: JSONValue) -> String {
    "expected \(expected), found \(found.kindDescription)"
  }

  /// The value of `key`, `nil` when absent or `null`.
  func present(_ key: String) -> JSONValue? {
    guard let v = object[key], v != .null else { return nil }
    return v
  }

  /// `nil` when absent, `.some(nil)` when `null`, else what `read` makes of the key.
  func nullable<T>(
    _ key: String, _ read: (String) throws(EventDecodingError) -> T?
  )
    throws(EventDecodingError) -> T??
  {
    guard let v = object[key] else { return nil }
    if v == .null { return .some(nil) }
    return .some(try read(key))
  }

  /// For patch fields that cannot be cleared: `null` is an error, absent is `nil`.
  func notNull<T>(
    _ key: String, _ read: (String) throws(EventDecodingError) -> T?
  )
    throws(EventDecodingError) -> T?
  {
    if object[key] == .null { throw fail(key, "must not be null") }
    return try read(key)
  }

  // MARK: Strings

  func check(
    _ s: String, _ kind: Kind, path: @autoclosure () -> String
  )
    throws(EventDecodingError)
  {
    let cap: Int
    switch kind {
    case .id:
      if s.isEmpty { throw EventDecodingError(path: path(), problem: "must not be empty") }
      cap = limits.maxIdBytes
    case .text: cap = limits.maxTextBytes
    case .other: cap = limits.maxStringBytes
    }
    if s.utf8.count > cap {
      throw EventDecodingError(path: path(), problem: "longer than \(cap) bytes")
    }
  }

  func string(_ key: String, _ kind: Kind) throws(EventDecodingError) -> String? {
    guard let v = present(key) else { return nil }
    guard case .string(let s) = v else { throw fail(key, Self.wrongType("a string", v)) }
    try check(s, kind, path: at(key))
    return s
  }

  func requiredString(_ key: String, _ kind: Kind) throws(EventDecodingError) -> String {
    guard let v = object[key] else { throw fail(key, "missing") }
    guard case .string(let s) = v else { throw fail(key, Self.wrongType("a string", v)) }
    try check(s, kind, path: at(key))
    return s
  }

  func id(_ key: String) throws(EventDecodingError) -> String? { try string(key, .id) }

  func requiredId(_ key: String) throws(EventDecodingError) -> String {
    try requiredString(key, .id)
  }

  /// The project that names the feature an event is about: `project`, or `project_id` (both
  /// may be given only when they agree). Absent: `nil`, the feature of that id; `null`: the
  /// feature without a project.
  func project() throws(EventDecodingError) -> String?? {
    let read = { (k: String) throws(EventDecodingError) -> String? in try self.id(k) }
    let short = try nullable("project", read)
    let long = try nullable("project_id", read)
    if let short, let long, short != long {
      throw fail(
        "project", "names \(short.map(Fields.quoted) ?? "null"), project_id \(long.map(Fields.quoted) ?? "null")")
    }
    return short ?? long
  }

  /// `key`, or `alternative` when `key` is absent.
  func requiredId(_ key: String, or alternative: String) throws(EventDecodingError) -> String {
    if object[key] == nil && object[alternative] != nil { return try requiredId(alternative) }
    guard object[key] != nil else { throw fail(key, "missing (or \(alternative))") }
    return try requiredId(key)
  }

  /// A workflow state id, normalised (`In_Progress` → `in-progress`).
  func state(_ key: String) throws(EventDecodingError) -> String? {
    guard let raw = try id(key) else { return nil }
    let s = Status.normalise(raw)
    if s.isEmpty { throw fail(key, "must not be empty") }
    return s
  }

  func requiredState(_ key: String) throws(EventDecodingError) -> String {
    guard object[key] != nil else { throw fail(key, "missing") }
    guard let s = try state(key) else { throw fail(key, Self.wrongType("a string", .null)) }
    return s
  }

  /// An array of strings, each checked as `kind`.
  func strings(_ key: String, _ kind: Kind, max: Int) throws(EventDecodingError) -> [String]? {
    guard let v = present(key) else { return nil }
    guard case .array(let items) = v else {
      throw fail(key, Self.wrongType("an array of strings", v))
    }
    if items.count > max { throw fail(key, "more than \(max) entries") }
    var out: [String] = []
    out.reserveCapacity(items.count)
    for (n, item) in items.enumerated() {
      guard case .string(let s) = item else {
        throw EventDecodingError(
          path: at(key) + "[\(n)]", problem: Self.wrongType("a string", item))
      }
      try check(s, kind, path: at(key) + "[\(n)]")
      out.append(s)
    }
    return out
  }

  func ids(_ key: String, max: Int) throws(EventDecodingError) -> [String]? {
    try strings(key, .id, max: max)
  }

  // MARK: Other scalars

  func bool(_ key: String) throws(EventDecodingError) -> Bool? {
    guard let v = present(key) else { return nil }
    guard case .bool(let b) = v else { throw fail(key, Self.wrongType("a boolean", v)) }
    return b
  }

  /// Story points: a finite number from 0 to `maxPoints`.
  func points(_ key: String) throws(EventDecodingError) -> Double? {
    guard let v = present(key) else { return nil }
    guard case .number(let x) = v else { throw fail(key, Self.wrongType("a number", v)) }
    try checkPoints(x, key)
    return x
  }

  func checkPoints(_ x: Double, _ key: String) throws(EventDecodingError) {
    guard x >= 0 else { throw fail(key, "must not be negative, found \(JSONNumberText.text(x))") }
    guard x <= limits.maxPoints else {
      throw fail(key, "greater than \(JSONNumberText.text(limits.maxPoints))")
    }
  }

  /// A T-shirt size or numeric string. A JSON number is accepted, held to the points cap and
  /// written as a plain decimal string; a string of plain decimal digits is held to the cap too.
  /// Any other string is a size (one the scale does not know leaves the feature unestimated).
  func estimate(_ key: String) throws(EventDecodingError) -> String? {
    if case .number(let x) = present(key) {
      try checkPoints(x, key)
      return JSONNumberText.plainDecimal(x)
    }
    guard let s = try string(key, .other) else { return nil }
    var t = Substring(s)
    while t.first == " " { t.removeFirst() }
    while t.last == " " { t.removeLast() }
    if EstimateScale.isPlainDecimal(String(t)), !(Double(t).map { $0 <= limits.maxPoints } ?? false) {
      throw fail(key, "\(Self.quoted(s)) is greater than \(JSONNumberText.text(limits.maxPoints)) points")
    }
    return s
  }

  /// A sequence number: an integer from 0 to 2^53 − 1.
  ///
  /// 2^53 − 1 is the largest whole number up to which a JSON number (a double) tells every
  /// integer apart: `9007199254740993` reads as 2^53, the same as `9007199254740992`, so 2^53
  /// and above are rejected rather than taken as some other number.
  func sequenceNumber(_ key: String) throws(EventDecodingError) -> Int64? {
    guard let v = present(key) else { return nil }
    guard case .number(let x) = v else { throw fail(key, Self.wrongType("an integer", v)) }
    guard x == x.rounded(.towardZero) else {
      throw fail(key, "expected an integer, found \(JSONNumberText.text(x))")
    }
    guard x >= 0 else { throw fail(key, "must not be negative, found \(JSONNumberText.text(x))") }
    guard x < 9_007_199_254_740_992 else {
      throw fail(key, "greater than 2^53 − 1 (9007199254740991): beyond it, numbers cannot be told apart")
    }
    return Int64(x)
  }

  /// An RFC 3339 timestamp.
  func instant(_ key: String) throws(EventDecodingError) -> Instant? {
    guard let s = try string(key, .other) else { return nil }
    // The String entry point runs the parser specialised inside WallboardCore.
    let parsed = Result { () throws(Instant.ParseError) in try Instant(rfc3339: s) }
    switch parsed {
    case .success(let t): return t
    case .failure(.malformed): throw fail(key, "\(Self.quoted(s)) is not an RFC 3339 time")
    case .failure(.outOfRange):
      throw fail(key, "\(Self.quoted(s)) is out of range (years 1970…9999, valid dates)")
    case .failure(.leapSecond):
      throw fail(key, "\(Self.quoted(s)) is a leap second (second 60), which the board does not count")
    }
  }

  /// A `YYYY-MM-DD` calendar date.
  func date(_ key: String) throws(EventDecodingError) -> CivilDate? {
    guard let s = try string(key, .other) else { return nil }
    return try Self.date(s, path: at(key))
  }

  func requiredDate(_ key: String) throws(EventDecodingError) -> CivilDate {
    guard object[key] != nil else { throw fail(key, "missing") }
    guard let d = try date(key) else { throw fail(key, Self.wrongType("a string", .null)) }
    return d
  }

  static func date(_ s: String, path: String) throws(EventDecodingError) -> CivilDate {
    guard let d = CivilDate(parsing: s) else {
      throw EventDecodingError(path: path, problem: "\(quoted(s)) is not a YYYY-MM-DD date")
    }
    return d
  }

  func dates(_ key: String, max: Int) throws(EventDecodingError) -> Set<CivilDate>? {
    guard let list = try strings(key, .other, max: max) else { return nil }
    var out = Set<CivilDate>()
    for (n, s) in list.enumerated() { out.insert(try Self.date(s, path: at(key) + "[\(n)]")) }
    return out
  }

  func weekdays(_ key: String) throws(EventDecodingError) -> Set<Weekday>? {
    guard let list = try strings(key, .other, max: 7 * 4) else { return nil }
    var out = Set<Weekday>()
    for (n, s) in list.enumerated() {
      guard let d = Weekday(name: s) else {
        throw EventDecodingError(
          path: at(key) + "[\(n)]", problem: "\(Self.quoted(s)) is not a weekday name")
      }
      out.insert(d)
    }
    return out
  }

  // MARK: Containers

  func requiredObject(_ key: String) throws(EventDecodingError) -> JSONObject {
    guard let v = object[key] else { throw fail(key, "missing") }
    guard case .object(let o) = v else { throw fail(key, Self.wrongType("an object", v)) }
    return o
  }

  /// The objects of an array, each as `Fields` with its own path.
  func objects(_ key: String, max: Int, required: Bool) throws(EventDecodingError) -> [Fields]? {
    guard let v = required ? object[key] : present(key) else {
      if required { throw fail(key, "missing") }
      return nil
    }
    guard case .array(let items) = v else {
      throw fail(key, Self.wrongType("an array of objects", v))
    }
    if items.count > max { throw fail(key, "more than \(max) entries") }
    var out: [Fields] = []
    out.reserveCapacity(items.count)
    for (n, item) in items.enumerated() {
      let p = at(key) + "[\(n)]"
      guard case .object(let o) = item else {
        throw EventDecodingError(path: p, problem: Self.wrongType("an object", item))
      }
      out.append(Fields(o, path: p, limits: limits))
    }
    return out
  }

  /// A string for a message: JSON-quoted, shortened past 64 bytes.
  static func quoted(_ s: String) -> String {
    let short = s.utf8.count > 64 ? String(s.prefix(60)) + "…" : s
    return JSONValue.string(short).serialized()
  }
}

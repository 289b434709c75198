internal import WallboardCore

/// One field of a struct the codec writes: its place in the bytes, its flag bit, the format
/// version it appeared in, and how it is written and read. Declared once, in the struct's table
/// (`Field.feature`, `Field.sprint`), which drives the encoder, the decoder of every format
/// version and the round-trip tests (`CodecTests` change each field alone).
///
/// A table lists its fields in byte order. A struct's encoding is its flags varint (bit `bit`
/// set when the field `isSet`), then every field without a bit, and every field whose bit is
/// set, in the table's order. A field with a bit and nothing to write (`Sprint.activation`) is
/// the bit alone.
struct Field<Value>: Sendable {
  /// Its name in a decoding error's path, and in the tests.
  let name: StaticString
  /// Its bit in the flags; nil: always written.
  let bit: Int?
  /// The first format version that holds it: a blob of an older version has no such bit.
  let since: UInt8
  /// Whether its bit is set (ignored for a field without a bit).
  let isSet: @Sendable (Value) -> Bool
  let write: @Sendable (inout ByteWriter, Value) -> Void
  /// Reads the field into the value being built (only called when the field is in the bytes).
  let read: @Sendable (inout ByteReader, inout Value) throws(CodecError) -> Void

  init(
    _ name: StaticString, bit: Int? = nil, since: UInt8 = 1, isSet: @escaping @Sendable (Value) -> Bool = { _ in true },
    write: @escaping @Sendable (inout ByteWriter, Value) -> Void,
    read: @escaping @Sendable (inout ByteReader, inout Value) throws(CodecError) -> Void
  ) {
    self.name = name
    self.bit = bit
    self.since = since
    self.isSet = isSet
    self.write = write
    self.read = read
  }
}

/// Encoding and decoding by a table of fields.
enum FieldTable {
  /// The flags bits a blob of `format` may set.
  static func allowed<V>(_ fields: [Field<V>], format: UInt8) -> UInt64 {
    var mask: UInt64 = 0
    for f in fields where f.since <= format {
      if let b = f.bit { mask |= 1 << UInt64(b) }
    }
    return mask
  }

  static func write<V>(_ fields: [Field<V>], _ value: V, into w: inout ByteWriter) {
    var flags: UInt64 = 0
    for f in fields {
      if let b = f.bit, f.isSet(value) { flags |= 1 << UInt64(b) }
    }
    w.varint(flags)
    for f in fields where f.bit.map({ flags & (1 << UInt64($0)) != 0 }) ?? true {
      f.write(&w, value)
    }
  }

  /// Reads the fields `r.format` holds into `value` (which starts as the struct's empty value:
  /// what an absent field is).
  static func read<V>(_ fields: [Field<V>], into value: inout V, from r: inout ByteReader) throws(CodecError) {
    let flags = try r.flags("flags", allowed: allowed(fields, format: r.format))
    for f in fields where f.since <= r.format {
      if let b = f.bit, flags & (1 << UInt64(b)) == 0 { continue }
      try f.read(&r, &value)
    }
  }
}

extension Field where Value == Feature {
  /// A feature: version 3 added `dependsOn`.
  static let feature: [Field<Feature>] = [
    Field("id", write: { $0.string($1.id) }, read: { (r, f) throws(CodecError) in f.id = try r.string("id") }),
    Field(
      "title", write: { $0.string($1.title) }, read: { (r, f) throws(CodecError) in f.title = try r.string("title") }),
    // As written, not normalised again.
    Field(
      "status", write: { $0.string($1.status) },
      read: { (r, f) throws(CodecError) in f.status = try r.string("status") }),
    Field(
      "labels", write: { $0.strings($1.labels) },
      read: { (r, f) throws(CodecError) in f.labels = try r.strings("labels") }),
    Field(
      "projectId", bit: 0, isSet: { $0.projectId != nil }, write: { $0.string($1.projectId!) },
      read: { (r, f) throws(CodecError) in f.projectId = try r.string("projectId") }),
    Field(
      "priority", bit: 1, isSet: { $0.priority != nil }, write: { $0.string($1.priority!) },
      read: { (r, f) throws(CodecError) in f.priority = try r.string("priority") }),
    Field(
      "kind", bit: 2, isSet: { $0.kind != nil }, write: { $0.string($1.kind!) },
      read: { (r, f) throws(CodecError) in f.kind = try r.string("kind") }),
    Field(
      "assignee", bit: 3, isSet: { $0.assignee != nil }, write: { $0.string($1.assignee!) },
      read: { (r, f) throws(CodecError) in f.assignee = try r.string("assignee") }),
    Field(
      "estimate", bit: 4, isSet: { $0.estimate != nil }, write: { $0.string($1.estimate!) },
      read: { (r, f) throws(CodecError) in f.estimate = try r.string("estimate") }),
    Field(
      "points", bit: 5, isSet: { $0.points != nil }, write: { $0.double($1.points!) },
      read: { (r, f) throws(CodecError) in f.points = try r.double("points") }),
    Field(
      "sprintId", bit: 6, isSet: { $0.sprintId != nil }, write: { $0.string($1.sprintId!) },
      read: { (r, f) throws(CodecError) in f.sprintId = try r.string("sprintId") }),
    Field(
      "createdAt", bit: 7, isSet: { $0.createdAt != nil }, write: { $0.instant($1.createdAt!) },
      read: { (r, f) throws(CodecError) in f.createdAt = try r.instant("createdAt") }),
    Field(
      "updatedAt", bit: 8, isSet: { $0.updatedAt != nil }, write: { $0.instant($1.updatedAt!) },
      read: { (r, f) throws(CodecError) in f.updatedAt = try r.instant("updatedAt") }),
    Field(
      "dependsOn", bit: 9, since: 3, isSet: { !$0.dependsOn.isEmpty }, write: { $0.strings($1.dependsOn) },
      read: { (r, f) throws(CodecError) in f.dependsOn = try r.strings("dependsOn") }),
  ]

  /// What a feature's absent fields are.
  static var emptyFeature: Feature {
    var f = Feature(id: "")
    f.status = ""
    return f
  }
}

extension Field where Value == Sprint {
  /// A sprint: unchanged since version 1. `activation` is its bit alone (set: `.dates`).
  static let sprint: [Field<Sprint>] = [
    Field("id", write: { $0.string($1.id) }, read: { (r, s) throws(CodecError) in s.id = try r.string("id") }),
    Field("name", write: { $0.string($1.name) }, read: { (r, s) throws(CodecError) in s.name = try r.string("name") }),
    Field(
      "startDate", write: { $0.date($1.startDate) },
      read: { (r, s) throws(CodecError) in s.startDate = try r.date("startDate") }),
    Field(
      "endDate", write: { $0.date($1.endDate) },
      read: { (r, s) throws(CodecError) in s.endDate = try r.date("endDate") }),
    Field(
      "featureIds", write: { $0.strings($1.featureIds) },
      read: { (r, s) throws(CodecError) in s.featureIds = try r.strings("featureIds") }),
    Field(
      "nonWorkingDays", write: { $0.weekdays($1.nonWorkingDays) },
      read: { (r, s) throws(CodecError) in s.nonWorkingDays = try r.weekdays("nonWorkingDays") }),
    Field(
      "holidays", write: { $0.dates($1.holidays) },
      read: { (r, s) throws(CodecError) in s.holidays = try r.dates("holidays") }),
    Field(
      "goal", bit: 0, isSet: { $0.goal != nil }, write: { $0.string($1.goal!) },
      read: { (r, s) throws(CodecError) in s.goal = try r.string("goal") }),
    Field(
      "timeZone", bit: 1, isSet: { $0.timeZone != nil }, write: { $0.string($1.timeZone!) },
      read: { (r, s) throws(CodecError) in s.timeZone = try r.string("timeZone") }),
    Field(
      "startedAt", bit: 2, isSet: { $0.startedAt != nil }, write: { $0.instant($1.startedAt!) },
      read: { (r, s) throws(CodecError) in s.startedAt = try r.instant("startedAt") }),
    Field(
      "closedAt", bit: 3, isSet: { $0.closedAt != nil }, write: { $0.instant($1.closedAt!) },
      read: { (r, s) throws(CodecError) in s.closedAt = try r.instant("closedAt") }),
    Field(
      "membershipLabel", bit: 4, isSet: { $0.membershipLabel != nil }, write: { $0.string($1.membershipLabel!) },
      read: { (r, s) throws(CodecError) in s.membershipLabel = try r.string("membershipLabel") }),
    Field(
      "activation", bit: 5, isSet: { $0.activation == .dates }, write: { _, _ in },
      read: { (_, s) throws(CodecError) in s.activation = .dates }),
  ]

  /// What a sprint's absent fields are.
  static var emptySprint: Sprint {
    let day = CivilDate(daysSinceEpoch: 0)
    return Sprint(id: "", name: "", startDate: day, endDate: day, activation: .events)
  }
}

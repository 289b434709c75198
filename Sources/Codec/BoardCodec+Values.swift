internal import WallboardCore

/// The codec's domain values: features and their patches, sprints and theirs, workflows, status
/// moves. Each struct leads with a flags varint saying which optional fields follow.
extension ByteWriter {
  // MARK: Feature

  mutating func feature(_ f: Feature) { FieldTable.write(Field.feature, f, into: &self) }

  /// Two bits for a field that may be absent, cleared or set (not generic: a generic one costs a
  /// metadata lookup a call).
  static func tri(_ v: String??, _ shift: UInt64) -> UInt64 {
    switch v {
    case .none: 0
    case .some(.none): 1 << shift
    case .some(.some): 2 << shift
    }
  }

  static func tri(_ v: Double??, _ shift: UInt64) -> UInt64 {
    switch v {
    case .none: 0
    case .some(.none): 1 << shift
    case .some(.some): 2 << shift
    }
  }

  mutating func patch(_ p: FeaturePatch) {
    var flags: UInt64 = 0
    if p.title != nil { flags |= 1 << 0 }
    if p.status != nil { flags |= 1 << 1 }
    if p.labels != nil { flags |= 1 << 2 }
    if p.createdAt != nil { flags |= 1 << 3 }
    if p.updatedAt != nil { flags |= 1 << 4 }
    flags |= Self.tri(p.projectId, 5) | Self.tri(p.priority, 7) | Self.tri(p.kind, 9)
    flags |= Self.tri(p.assignee, 11) | Self.tri(p.estimate, 13) | Self.tri(p.points, 15)
    flags |= Self.tri(p.sprintId, 17)
    if p.dependsOn != nil { flags |= 1 << 19 }
    varint(flags)
    string(p.id)
    if let v = p.title { string(v) }
    if let v = p.status { string(v) }
    if let v = p.labels { strings(v) }
    if let v = p.createdAt { instant(v) }
    if let v = p.updatedAt { instant(v) }
    if case .some(.some(let v)) = p.projectId { string(v) }
    if case .some(.some(let v)) = p.priority { string(v) }
    if case .some(.some(let v)) = p.kind { string(v) }
    if case .some(.some(let v)) = p.assignee { string(v) }
    if case .some(.some(let v)) = p.estimate { string(v) }
    if case .some(.some(let v)) = p.points { double(v) }
    if case .some(.some(let v)) = p.sprintId { string(v) }
    if let v = p.dependsOn { strings(v) }
  }

  // MARK: Sprint

  mutating func sprint(_ s: Sprint) { FieldTable.write(Field.sprint, s, into: &self) }

  mutating func sprintPatch(_ p: SprintPatch) {
    var flags: UInt64 = 0
    if p.name != nil { flags |= 1 << 0 }
    flags |= Self.tri(p.goal, 1)
    if p.startDate != nil { flags |= 1 << 3 }
    if p.endDate != nil { flags |= 1 << 4 }
    if p.featureIds != nil { flags |= 1 << 5 }
    if p.nonWorkingDays != nil { flags |= 1 << 6 }
    if p.holidays != nil { flags |= 1 << 7 }
    flags |= Self.tri(p.timeZone, 8)
    varint(flags)
    if let v = p.name { string(v) }
    if case .some(.some(let v)) = p.goal { string(v) }
    if let v = p.startDate { date(v) }
    if let v = p.endDate { date(v) }
    if let v = p.featureIds { strings(v) }
    if let v = p.nonWorkingDays { weekdays(v) }
    if let v = p.holidays { dates(v) }
    if case .some(.some(let v)) = p.timeZone { string(v) }
  }

  /// A set of weekdays as seven bits, Monday lowest.
  mutating func weekdays(_ set: Set<Weekday>) {
    var mask: UInt8 = 0
    for d in set { mask |= 1 << d.bit }
    byte(mask)
  }

  /// A set of dates, earliest first.
  mutating func dates(_ set: Set<CivilDate>) {
    count(set.count)
    for d in set.sorted() { date(d) }
  }

  // MARK: Workflow

  mutating func workflow(_ w: Workflow) {
    count(w.states.count)
    for s in w.states {
      string(s.id)
      string(s.label)
      byte((s.terminal ? 1 : 0) | (s.activeWork ? 2 : 0) | (s.done ? 4 : 0))
    }
    string(w.initialState)
    dictionary(w.aliases) { $0.string($1) }
  }

  mutating func statusMove(_ m: StatusMove) {
    instant(m.at)
    string(m.status)
  }
}

extension Weekday {
  /// Its bit in a set of weekdays: Monday 0 … Sunday 6.
  var bit: UInt8 {
    switch self {
    case .mon: 0
    case .tue: 1
    case .wed: 2
    case .thu: 3
    case .fri: 4
    case .sat: 5
    case .sun: 6
    }
  }
}

extension ByteReader {
  /// The fewest bytes a feature takes (flags, id, title, status, labels).
  static let minFeatureBytes = 5
  /// The fewest bytes a sprint takes (flags, id, name, dates, members, weekdays, holidays).
  static let minSprintBytes = 8
  /// The fewest bytes a workflow takes (one state of three bytes, the initial state, aliases).
  static let minWorkflowBytes = 6

  // MARK: Feature

  mutating func feature() throws(CodecError) -> Feature {
    var f = Field.emptyFeature
    try FieldTable.read(Field.feature, into: &f, from: &self)
    return f
  }

  /// Flags whose two-bit fields, whose low bits are `pairs`, are 0, 1 or 2 (3 means nothing).
  mutating func triFlags(_ field: StaticString, allowed: UInt64, pairs: UInt64) throws(CodecError) -> UInt64 {
    let start = offset
    let flags = try self.flags(field, allowed: allowed)
    let both = flags & (flags >> 1) & pairs
    guard both == 0 else {
      let s = both.trailingZeroBitCount
      throw fail(field, at: start, "bits \(s) and \(s + 1) are both set: a field is absent, cleared or set")
    }
    return flags
  }

  /// A string that may be absent (nil), cleared (`.some(nil)`) or set, by its two bits.
  mutating func triString(_ flags: UInt64, _ shift: UInt64, _ field: StaticString) throws(CodecError) -> String?? {
    switch (flags >> shift) & 3 {
    case 0: return nil
    case 1: return .some(nil)
    default: return .some(try string(field))
    }
  }

  /// A double that may be absent (nil), cleared (`.some(nil)`) or set, by its two bits.
  mutating func triDouble(_ flags: UInt64, _ shift: UInt64, _ field: StaticString) throws(CodecError) -> Double?? {
    switch (flags >> shift) & 3 {
    case 0: return nil
    case 1: return .some(nil)
    default: return .some(try double(field))
    }
  }

  mutating func patch() throws(CodecError) -> FeaturePatch {
    // Version 3 added `dependsOn` (bit 19).
    let flags = try triFlags("flags", allowed: (1 << (format >= 3 ? 20 : 19)) - 1, pairs: 0x2AAA0)
    // Every field read first, the patch built at the end: no half-built patch to copy or drop
    // when a read throws.
    let id = try string("id")
    let title = flags & (1 << 0) != 0 ? try string("title") : nil
    let status = flags & (1 << 1) != 0 ? try string("status") : nil
    let labels = flags & (1 << 2) != 0 ? try strings("labels") : nil
    let createdAt = flags & (1 << 3) != 0 ? try instant("createdAt") : nil
    let updatedAt = flags & (1 << 4) != 0 ? try instant("updatedAt") : nil
    let projectId = try triString(flags, 5, "projectId")
    let priority = try triString(flags, 7, "priority")
    let kind = try triString(flags, 9, "kind")
    let assignee = try triString(flags, 11, "assignee")
    let estimate = try triString(flags, 13, "estimate")
    let points = try triDouble(flags, 15, "points")
    let sprintId = try triString(flags, 17, "sprintId")
    let dependsOn = flags & (1 << 19) != 0 ? try strings("dependsOn") : nil
    var p = FeaturePatch(id: id)
    p.projectId = projectId
    p.title = title
    p.status = status
    p.priority = priority
    p.kind = kind
    p.assignee = assignee
    p.labels = labels
    p.estimate = estimate
    p.points = points
    p.sprintId = sprintId
    p.createdAt = createdAt
    p.updatedAt = updatedAt
    p.dependsOn = dependsOn
    return p
  }

  // MARK: Sprint

  mutating func sprint() throws(CodecError) -> Sprint {
    var s = Field.emptySprint
    try FieldTable.read(Field.sprint, into: &s, from: &self)
    return s
  }

  mutating func sprintPatch() throws(CodecError) -> SprintPatch {
    let flags = try triFlags("flags", allowed: 0x3FF, pairs: 0x102)
    var p = SprintPatch()
    if flags & (1 << 0) != 0 { p.name = try string("name") }
    p.goal = try triString(flags, 1, "goal")
    if flags & (1 << 3) != 0 { p.startDate = try date("startDate") }
    if flags & (1 << 4) != 0 { p.endDate = try date("endDate") }
    if flags & (1 << 5) != 0 { p.featureIds = try strings("featureIds") }
    if flags & (1 << 6) != 0 { p.nonWorkingDays = try weekdays("nonWorkingDays") }
    if flags & (1 << 7) != 0 { p.holidays = try dates("holidays") }
    p.timeZone = try triString(flags, 8, "timeZone")
    return p
  }

  mutating func weekdays(_ field: StaticString) throws(CodecError) -> Set<Weekday> {
    let start = offset
    let mask = try byte(field)
    guard mask < 0x80 else { throw fail(field, at: start, "bit 7 of a set of weekdays is set") }
    var set = Set<Weekday>()
    for d in Weekday.allCases where mask & (1 << d.bit) != 0 { set.insert(d) }
    return set
  }

  mutating func dates(_ field: StaticString) throws(CodecError) -> Set<CivilDate> {
    let n = try count(field, minBytesEach: 1)
    var set = Set<CivilDate>(minimumCapacity: min(n, Self.maxReserve))
    for i in 0..<n {
      let start = offset
      do throws(CodecError) {
        guard set.insert(try date("")).inserted else {
          throw CodecError(offset: start, path: "", problem: "the date is given twice")
        }
      } catch { throw error.within("[\(i)]").within(field.description) }
    }
    return set
  }

  // MARK: Workflow

  mutating func workflow() throws(CodecError) -> Workflow {
    let start = offset
    let states = try array("states", minBytesEach: 3) { (r) throws(CodecError) in try r.workflowState() }
    guard !states.isEmpty else { throw fail("states", at: start, "a workflow needs at least one state") }
    var w = Workflow(states: states)
    w.initialState = try string("initialState")
    w.aliases = try dictionary("aliases", minValueBytes: 1) { (r) throws(CodecError) in try r.string("") }
    return w
  }

  mutating func workflowState() throws(CodecError) -> WorkflowState {
    var s = WorkflowState(id: "")
    s.id = try string("id")
    s.label = try string("label")
    let start = offset
    let bits = try byte("flags")
    guard bits < 8 else { throw fail("flags", at: start, "unknown flags 0x\(String(bits, radix: 16))") }
    s.terminal = bits & 1 != 0
    s.activeWork = bits & 2 != 0
    s.done = bits & 4 != 0
    return s
  }

  mutating func statusMove() throws(CodecError) -> StatusMove {
    var m = StatusMove(at: try instant("at"), status: "")
    m.status = try string("status")
    return m
  }
}

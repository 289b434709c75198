internal import WallboardCore

/// The codec's whole board: settings first, then every field of `BoardState`, internal ones
/// included, in declaration order.
extension ByteWriter {
  mutating func state(_ s: BoardState) {
    settings(s.settings)
    keyedDictionary(s.features) { $0.feature($1) }
    dictionary(s.sprints) { $0.sprint($1) }
    strings(s.sprintOrder)
    dictionary(s.workflows) { $0.workflow($1) }
    bool(s.activeSprintId != nil)
    if let v = s.activeSprintId { string(v) }
    keyedDictionary(s.history) { w, h in
      w.count(h.versions.count)
      for v in h.versions { w.version(v) }
    }
    strings(s.statusOrder)
    strings(s.statusSeen.sorted())
    dictionary(s.explicitSprints) { $0.strings($1) }
    dictionary(s.labelSprints) { $0.strings($1) }
    keyedDictionary(s.hidden) { w, h in
      w.feature(h.feature)
      w.string(h.origin)
    }
    contributions(s.contributions)
    dictionary(s.origins) { $0.origin($1) }
    int(s.counters.applied)
    int(s.counters.duplicates)
    int(s.counters.rejected)
    int(s.counters.ignored)
    count(s.recentBuffer.count)
    for t in s.recentBuffer { transition(t) }
    bool(s.lastEventTime != nil)
    if let v = s.lastEventTime { instant(v) }
    dictionary(s.agentLocks) { $0.agentLocks($1) }
  }

  mutating func settings(_ s: BoardSettings) {
    workflow(s.workflow)
    dictionary(s.estimateScale.sizes) { $0.double($1) }
    int(s.limits.maxFeatures)
    int(s.limits.maxSprints)
    int(s.limits.maxVersionsPerFeature)
    int(s.limits.recentTransitions)
    int(s.limits.maxSprintDays)
    strings(s.filter.projects)
    strings(s.filter.labels)
    strings(s.filter.assignees)
  }

  mutating func version(_ v: FeatureVersion) {
    byte((v.points != nil ? 1 : 0) | (v.exists ? 2 : 0))
    instant(v.at)
    string(v.status)
    if let p = v.points { double(p) }
    strings(v.sprints)
  }

  mutating func contributions(_ c: Contributions) {
    keyedDictionary(c.features) { $0.string($1) }
    dictionary(c.sprints) { $0.string($1) }
    dictionary(c.workflows) { $0.string($1) }
    bool(c.activeSprint != nil)
    if let v = c.activeSprint { string(v) }
  }

  mutating func origin(_ o: OriginState) {
    var flags: UInt64 = 0
    if o.lastError != nil { flags |= 1 << 0 }
    if o.lastHeard != nil { flags |= 1 << 1 }
    if o.lastEventAt != nil { flags |= 1 << 2 }
    if o.connection != nil { flags |= 1 << 3 }
    if o.connectionSince != nil { flags |= 1 << 4 }
    if o.connectionDetail != nil { flags |= 1 << 5 }
    if o.lastChangeAt != nil { flags |= 1 << 6 }
    if o.lastGap != nil { flags |= 1 << 7 }
    if o.historyFrom != nil { flags |= 1 << 8 }
    if o.needsResync { flags |= 1 << 9 }
    if o.cursor.floor != nil { flags |= 1 << 10 }
    if o.cursor.restarted { flags |= 1 << 11 }
    if o.file != nil { flags |= 1 << 12 }
    if o.relayed != nil { flags |= 1 << 13 }
    varint(flags)
    int(o.events)
    int(o.rejected)
    int(o.duplicates)
    int(o.gaps)
    if let v = o.lastError { string(v) }
    if let v = o.lastHeard { instant(v) }
    if let v = o.lastEventAt { instant(v) }
    if let v = o.connection { byte(v.tag) }
    if let v = o.connectionSince { instant(v) }
    if let v = o.connectionDetail { string(v) }
    if let v = o.lastChangeAt { instant(v) }
    if let v = o.lastGap {
      int64(v.lowerBound)
      int64(v.upperBound)
    }
    if let v = o.historyFrom { instant(v) }
    dictionary(o.cursor.last) { $0.int64($1) }
    if let v = o.cursor.floor { int64(v) }
    if let v = o.file {
      filePosition(v)
      int(o.linesPastFile)
    }
    if let v = o.relayed { relayPosition(v) }
  }

  mutating func transition(_ t: Transition) {
    byte((t.from != nil ? 1 : 0) | (t.project != nil ? 2 : 0))
    string(t.featureId)
    string(t.title)
    if let v = t.project { string(v) }
    if let v = t.from { string(v) }
    string(t.to)
    instant(t.at)
  }
}

extension ByteReader {
  /// The largest limit a blob may set: the reducer doubles and multiplies limits, so they stay
  /// far from overflow.
  static let maxLimit = Int(Int32.max)
  /// The largest tally (a count of events, gaps…) a blob may hold, either sign: 2^53, which no
  /// board reaches, so that the reducer's `+= 1` stays far from overflow.
  static let maxTally = 1 << 53

  mutating func state() throws(CodecError) -> BoardState {
    let settings: BoardSettings
    do throws(CodecError) { settings = try self.settings() } catch { throw error.within("settings") }
    var s = BoardState(settings: settings)
    let probe = s
    let feature = { (r: inout ByteReader) throws(CodecError) -> Feature in try r.feature() }
    if format >= 2 {
      s.features = try keyedDictionary("features", minValueBytes: Self.minFeatureBytes, feature)
      if let (key, f) = s.features.first(where: { $0.key != $0.value.key }) {
        throw CodecError(
          offset: offset, path: "features[\(key.qualified)]", problem: "the key names another feature (\(f.key))")
      }
    } else {
      s.features = try Self.byOwnKey(dictionary("features", minValueBytes: Self.minFeatureBytes, feature), \.key)
    }
    s.sprints = try dictionary("sprints", minValueBytes: Self.minSprintBytes) { (r) throws(CodecError) in
      let start = r.offset
      let sprint = try r.sprint()
      if let problem = probe.sprintProblem(sprint) {
        throw CodecError(offset: start, path: "", problem: problem.description)
      }
      return sprint
    }
    s.sprintOrder = try strings("sprintOrder")
    s.workflows = try dictionary("workflows", minValueBytes: Self.minWorkflowBytes) { (r) throws(CodecError) in
      try r.workflow()
    }
    s.activeSprintId = try bool("hasActiveSprintId") ? try string("activeSprintId") : nil
    let history = { (r: inout ByteReader) throws(CodecError) -> FeatureHistory in
      FeatureHistory(
        versions: try r.array("versions", minBytesEach: 4) { (r) throws(CodecError) in try r.version() })
    }
    var historyById: [String: FeatureHistory] = [:]
    if format >= 2 {
      s.history = try keyedDictionary("history", minValueBytes: 1, history)
    } else {
      historyById = try dictionary("history", minValueBytes: 1, history)
    }
    s.statusOrder = try strings("statusOrder")
    s.statusSeen = try stringSet("statusSeen")
    s.explicitSprints = try dictionary("explicitSprints", minValueBytes: 1) { (r) throws(CodecError) in
      try r.strings("")
    }
    s.labelSprints = try dictionary("labelSprints", minValueBytes: 1) { (r) throws(CodecError) in
      try r.strings("")
    }
    let hidden = { (r: inout ByteReader) throws(CodecError) -> HiddenFeature in
      let f: Feature
      do throws(CodecError) { f = try r.feature() } catch { throw error.within("feature") }
      return HiddenFeature(feature: f, origin: try r.string("origin"))
    }
    if format >= 2 {
      s.hidden = try keyedDictionary("hidden", minValueBytes: Self.minFeatureBytes + 1, hidden)
      if let (key, h) = s.hidden.first(where: { $0.key != $0.value.feature.key }) {
        throw CodecError(
          offset: offset, path: "hidden[\(key.qualified)]", problem: "the key names another feature (\(h.feature.key))")
      }
    } else {
      s.hidden = try Self.byOwnKey(
        dictionary("hidden", minValueBytes: Self.minFeatureBytes + 1, hidden), \.feature.key)
    }
    var contributionsById: [String: String] = [:]
    do throws(CodecError) {
      (s.contributions, contributionsById) = try contributions()
    } catch { throw error.within("contributions") }
    s.origins = try dictionary("origins", minValueBytes: 5) { (r) throws(CodecError) in try r.origin() }
    do throws(CodecError) {
      s.counters.applied = try tally("applied")
      s.counters.duplicates = try tally("duplicates")
      s.counters.rejected = try tally("rejected")
      s.counters.ignored = try tally("ignored")
    } catch { throw error.within("counters") }
    s.recentBuffer = try array("recentBuffer", minBytesEach: 5) { (r) throws(CodecError) in try r.transition() }
    s.lastEventTime = try bool("hasLastEventTime") ? try instant("lastEventTime") : nil
    if format >= 6 {
      s.agentLocks = try dictionary("agentLocks", minValueBytes: 1) { (r) throws(CodecError) in
        try r.agentLocks("")
      }
    }
    if format < 2 {
      // Format 1 keyed by id alone, and ids were unique on the board: each takes the project of
      // the feature (shown or hidden) it keyed.
      var keys: [String: FeatureKey] = [:]
      for k in s.features.keys { keys[k.id] = k }
      for k in s.hidden.keys where keys[k.id] == nil { keys[k.id] = k }
      for (id, h) in historyById { s.history[keys[id] ?? FeatureKey(id: id)] = h }
      for (id, o) in contributionsById { s.contributions.features[keys[id] ?? FeatureKey(id: id)] = o }
      for i in s.recentBuffer.indices { s.recentBuffer[i].project = keys[s.recentBuffer[i].featureId]?.projectId }
    }
    for k in s.features.keys { s.projectsById.insert(k) }
    for k in s.hidden.keys { s.projectsById.insert(k) }
    return s
  }

  /// Format 1's dictionaries keyed by id, keyed by each value's own feature key instead.
  static func byOwnKey<V>(_ byId: [String: V], _ key: (V) -> FeatureKey) -> [FeatureKey: V] {
    var out: [FeatureKey: V] = [:]
    out.reserveCapacity(byId.count)
    for v in byId.values { out[key(v)] = v }
    return out
  }

  mutating func settings() throws(CodecError) -> BoardSettings {
    let workflow: Workflow
    do throws(CodecError) { workflow = try self.workflow() } catch { throw error.within("workflow") }
    let sizes = try dictionary("estimateScale", minValueBytes: 8) { (r) throws(CodecError) in
      let start = r.offset
      let points = try r.double("")
      guard Feature.pointsRange.contains(points) else {
        throw CodecError(offset: start, path: "", problem: "\(points) is not a number of points from 0 to 1000000")
      }
      return points
    }
    var limits = BoardSettings.Limits()
    do throws(CodecError) {
      limits.maxFeatures = try limit("maxFeatures")
      limits.maxSprints = try limit("maxSprints")
      limits.maxVersionsPerFeature = try limit("maxVersionsPerFeature")
      limits.recentTransitions = try limit("recentTransitions")
      limits.maxSprintDays = try limit("maxSprintDays")
    } catch { throw error.within("limits") }
    var filter = FeatureFilter()
    do throws(CodecError) {
      filter.projects = try strings("projects")
      filter.labels = try strings("labels")
      filter.assignees = try strings("assignees")
    } catch { throw error.within("filter") }
    return BoardSettings(
      workflow: workflow, estimateScale: EstimateScale(unchecked: sizes), limits: limits, filter: filter)
  }

  mutating func limit(_ field: StaticString) throws(CodecError) -> Int {
    let start = offset
    let n = try int(field)
    guard (0...Self.maxLimit).contains(n) else {
      throw fail(field, at: start, "\(n) is not a limit from 0 to \(Self.maxLimit)")
    }
    return n
  }

  mutating func tally(_ field: StaticString) throws(CodecError) -> Int {
    let start = offset
    let n = try int(field)
    guard (-Self.maxTally...Self.maxTally).contains(n) else {
      throw fail(field, at: start, "\(n) is not a tally within ±2^53")
    }
    return n
  }

  mutating func stringSet(_ field: StaticString) throws(CodecError) -> Set<String> {
    let n = try count(field, minBytesEach: 1)
    var set = Set<String>(minimumCapacity: min(n, Self.maxReserve))
    for i in 0..<n {
      let start = offset
      do throws(CodecError) {
        guard set.insert(try string("")).inserted else {
          throw CodecError(offset: start, path: "", problem: "the string is given twice")
        }
      } catch { throw error.within("[\(i)]").within(field.description) }
    }
    return set
  }

  mutating func version() throws(CodecError) -> FeatureVersion {
    let start = offset
    let bits = try byte("flags")
    guard bits < 4 else { throw fail("flags", at: start, "unknown flags 0x\(String(bits, radix: 16))") }
    let at = try instant("at")
    let status = try string("status")
    let points = bits & 1 != 0 ? try double("points") : nil
    return FeatureVersion(
      at: at, status: status, points: points, sprints: try strings("sprints"), exists: bits & 2 != 0)
  }

  /// The contributions, and (format 1) the features' contributors still keyed by id alone.
  mutating func contributions() throws(CodecError) -> (Contributions, [String: String]) {
    var c = Contributions()
    var byId: [String: String] = [:]
    let origin = { (r: inout ByteReader) throws(CodecError) -> String in try r.string("") }
    if format >= 2 {
      c.features = try keyedDictionary("features", minValueBytes: 1, origin)
    } else {
      byId = try dictionary("features", minValueBytes: 1, origin)
    }
    c.sprints = try dictionary("sprints", minValueBytes: 1) { (r) throws(CodecError) in try r.string("") }
    c.workflows = try dictionary("workflows", minValueBytes: 1) { (r) throws(CodecError) in try r.string("") }
    c.activeSprint = try bool("hasActiveSprint") ? try string("activeSprint") : nil
    return (c, byId)
  }

  mutating func origin() throws(CodecError) -> OriginState {
    let flags = try self.flags("flags", allowed: format >= 5 ? 0x3FFF : format >= 4 ? 0x1FFF : 0xFFF)
    var o = OriginState()
    o.events = try tally("events")
    o.rejected = try tally("rejected")
    o.duplicates = try tally("duplicates")
    o.gaps = try tally("gaps")
    if flags & (1 << 0) != 0 { o.lastError = try string("lastError") }
    if flags & (1 << 1) != 0 { o.lastHeard = try instant("lastHeard") }
    if flags & (1 << 2) != 0 { o.lastEventAt = try instant("lastEventAt") }
    if flags & (1 << 3) != 0 { o.connection = try connectionStatus("connection") }
    if flags & (1 << 4) != 0 { o.connectionSince = try instant("connectionSince") }
    if flags & (1 << 5) != 0 { o.connectionDetail = try string("connectionDetail") }
    if flags & (1 << 6) != 0 { o.lastChangeAt = try instant("lastChangeAt") }
    if flags & (1 << 7) != 0 {
      let start = offset
      let lower = try int64("lastGap")
      let upper = try int64("lastGap")
      guard lower <= upper else {
        throw fail("lastGap", at: start, "a gap from \(lower) to \(upper) ends before it starts")
      }
      o.lastGap = lower...upper
    }
    if flags & (1 << 8) != 0 { o.historyFrom = try instant("historyFrom") }
    o.needsResync = flags & (1 << 9) != 0
    let last = try dictionary("cursor.last", minValueBytes: 1) { (r) throws(CodecError) in try r.int64("") }
    let floor = flags & (1 << 10) != 0 ? try int64("cursor.floor") : nil
    o.cursor = SequenceCursor(last: last, floor: floor, restarted: flags & (1 << 11) != 0)
    if flags & (1 << 12) != 0 {
      do throws(CodecError) { o.file = try filePosition() } catch { throw error.within("file") }
      o.linesPastFile = try tally("linesPastFile")
    }
    if flags & (1 << 13) != 0 {
      do throws(CodecError) { o.relayed = try relayPosition() } catch { throw error.within("relayed") }
    }
    return o
  }

  mutating func transition() throws(CodecError) -> Transition {
    // Format 1 wrote a bool (0 or 1) where format 2 writes flags: bit 0 `from`, bit 1 `project`.
    let start = offset
    let bits = try byte("flags")
    guard bits < (format >= 2 ? 4 : 2) else {
      throw fail("flags", at: start, "unknown flags 0x\(String(bits, radix: 16))")
    }
    let featureId = try string("featureId")
    let title = try string("title")
    let project = bits & 2 != 0 ? try string("project") : nil
    let from = bits & 1 != 0 ? try string("from") : nil
    let to = try string("to")
    return Transition(
      featureId: featureId, project: project, title: title, from: from, to: to, at: try instant("at"))
  }
}

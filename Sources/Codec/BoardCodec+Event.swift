internal import WallboardCore

/// The codec's events: the envelope, then the body as a one-byte tag and its fields.
extension ByteWriter {
  mutating func event(_ e: Event) {
    var flags: UInt64 = 0
    if e.publisher != nil { flags |= 1 << 0 }
    if e.seq != nil { flags |= 1 << 1 }
    if e.eventType != nil { flags |= 1 << 2 }
    if e.receivedAt != e.time { flags |= 1 << 3 }
    varint(flags)
    string(e.origin)
    instant(e.time)
    if let v = e.publisher { string(v) }
    if let v = e.seq { int64(v) }
    if let v = e.eventType { string(v) }
    if e.receivedAt != e.time { instant(e.receivedAt) }
    body(e.body)
  }

  mutating func body(_ b: Event.Body) {
    switch b {
    case .featureCreated(let f):
      byte(0)
      feature(f)
    case .featureUpdated(let p):
      byte(1)
      patch(p)
    case .featureDeleted(let id, let project):
      byte(2)
      bool(project != nil)
      string(id)
      if let project { string(project) }
    case .workflowTransitioned(let id, let to, let from, let at, let project):
      byte(3)
      byte((from != nil ? 1 : 0) | (at != nil ? 2 : 0) | (project != nil ? 4 : 0))
      string(id)
      string(to)
      if let from { string(from) }
      if let at { instant(at) }
      if let project { string(project) }
    case .workflowDefined(let projectId, let w):
      byte(4)
      definition(WorkflowDefinition(projectId: projectId, workflow: w))
    case .sprintCreated(let s):
      byte(5)
      sprint(s)
    case .sprintStarted(let id, let startedAt, let p):
      byte(6)
      bool(startedAt != nil)
      string(id)
      if let startedAt { instant(startedAt) }
      sprintPatch(p)
    case .sprintScopeChanged(let id, let added, let removed):
      byte(7)
      string(id)
      strings(added)
      strings(removed)
    case .sprintClosed(let id, let closedAt):
      byte(8)
      bool(closedAt != nil)
      string(id)
      if let closedAt { instant(closedAt) }
    case .boardSnapshot(let s):
      byte(9)
      snapshot(s)
    case .heartbeat:
      byte(10)
    case .unknown(let topic):
      byte(11)
      string(topic)
    case .agentLocks(let locks):
      byte(12)
      agentLocks(locks)
    }
  }

  mutating func definition(_ d: WorkflowDefinition) {
    bool(d.projectId != nil)
    if let p = d.projectId { string(p) }
    workflow(d.workflow)
  }

  mutating func snapshot(_ s: BoardSnapshot) {
    var flags: UInt64 = 0
    if s.activeSprintId != nil { flags |= 1 << 0 }
    if s.seq != nil { flags |= 1 << 1 }
    varint(flags)
    count(s.features.count)
    for f in s.features { feature(f) }
    count(s.sprints.count)
    for x in s.sprints { sprint(x) }
    count(s.workflows.count)
    for d in s.workflows { definition(d) }
    if let v = s.activeSprintId { string(v) }
    if let v = s.seq { int64(v) }
    keyedDictionary(s.history) { w, moves in
      w.count(moves.count)
      for m in moves { w.statusMove(m) }
    }
  }
}

extension ByteReader {
  mutating func event() throws(CodecError) -> Event {
    let flags = try self.flags("flags", allowed: 0xF)
    let origin = try string("origin")
    let time = try instant("time")
    let publisher = flags & (1 << 0) != 0 ? try string("publisher") : nil
    let seq = flags & (1 << 1) != 0 ? try int64("seq") : nil
    let eventType = flags & (1 << 2) != 0 ? try string("eventType") : nil
    let receivedAt = flags & (1 << 3) != 0 ? try instant("receivedAt") : time
    // The body read straight into the event (a temporary would cost a copy of the whole event).
    return Event(
      origin: origin, publisher: publisher, seq: seq, time: time, receivedAt: receivedAt, eventType: eventType,
      body: try body())
  }

  /// An event's body; a failure's path starts at `body`.
  mutating func body() throws(CodecError) -> Event.Body {
    do throws(CodecError) { return try bodyFields() } catch { throw error.within("body") }
  }

  mutating func bodyFields() throws(CodecError) -> Event.Body {
    let start = offset
    switch try byte("tag") {
    case 0:
      do throws(CodecError) { return .featureCreated(try feature()) } catch { throw error.within("featureCreated") }
    case 1:
      do throws(CodecError) { return .featureUpdated(try patch()) } catch { throw error.within("featureUpdated") }
    case 2:
      do throws(CodecError) {
        // Format 1 had no project.
        let hasProject = format >= 2 ? try bool("hasProject") : false
        let id = try string("id")
        return .featureDeleted(id: id, project: hasProject ? try string("project") : nil)
      } catch { throw error.within("featureDeleted") }
    case 3:
      do throws(CodecError) {
        let at = offset
        let bits = try byte("flags")
        guard bits < (format >= 2 ? 8 : 4) else {
          throw fail("flags", at: at, "unknown flags 0x\(String(bits, radix: 16))")
        }
        let id = try string("featureId")
        let to = try string("to")
        let from = bits & 1 != 0 ? try string("from") : nil
        let when = bits & 2 != 0 ? try instant("at") : nil
        let project = bits & 4 != 0 ? try string("project") : nil
        return .workflowTransitioned(featureId: id, to: to, from: from, at: when, project: project)
      } catch { throw error.within("workflowTransitioned") }
    case 4:
      do throws(CodecError) {
        let d = try definition()
        return .workflowDefined(projectId: d.projectId, workflow: d.workflow)
      } catch { throw error.within("workflowDefined") }
    case 5:
      do throws(CodecError) { return .sprintCreated(try sprint()) } catch { throw error.within("sprintCreated") }
    case 6:
      do throws(CodecError) {
        let hasStart = try bool("hasStartedAt")
        let id = try string("id")
        let startedAt = hasStart ? try instant("startedAt") : nil
        let p: SprintPatch
        do throws(CodecError) { p = try sprintPatch() } catch { throw error.within("patch") }
        return .sprintStarted(id: id, startedAt: startedAt, patch: p)
      } catch { throw error.within("sprintStarted") }
    case 7:
      do throws(CodecError) {
        let id = try string("sprintId")
        let added = try strings("added")
        return .sprintScopeChanged(sprintId: id, added: added, removed: try strings("removed"))
      } catch { throw error.within("sprintScopeChanged") }
    case 8:
      do throws(CodecError) {
        let hasClose = try bool("hasClosedAt")
        let id = try string("id")
        return .sprintClosed(id: id, closedAt: hasClose ? try instant("closedAt") : nil)
      } catch { throw error.within("sprintClosed") }
    case 9:
      do throws(CodecError) { return .boardSnapshot(try snapshot()) } catch { throw error.within("boardSnapshot") }
    case 10:
      return .heartbeat
    case 11:
      do throws(CodecError) { return .unknown(topic: try string("topic")) } catch { throw error.within("unknown") }
    case 12 where format >= 6:
      do throws(CodecError) { return .agentLocks(try agentLocks("locks")) } catch { throw error.within("agentLocks") }
    case let tag:
      throw fail("tag", at: start, "unknown Event.Body tag \(tag)")
    }
  }

  mutating func definition() throws(CodecError) -> WorkflowDefinition {
    let projectId = try bool("hasProjectId") ? try string("projectId") : nil
    do throws(CodecError) { return WorkflowDefinition(projectId: projectId, workflow: try workflow()) } catch {
      throw error.within("workflow")
    }
  }

  mutating func snapshot() throws(CodecError) -> BoardSnapshot {
    let flags = try self.flags("flags", allowed: 0x3)
    var s = BoardSnapshot()
    s.features = try array("features", minBytesEach: Self.minFeatureBytes) { (r) throws(CodecError) in
      try r.feature()
    }
    s.sprints = try array("sprints", minBytesEach: Self.minSprintBytes) { (r) throws(CodecError) in try r.sprint() }
    s.workflows = try array("workflows", minBytesEach: 1 + Self.minWorkflowBytes) { (r) throws(CodecError) in
      try r.definition()
    }
    if flags & (1 << 0) != 0 { s.activeSprintId = try string("activeSprintId") }
    if flags & (1 << 1) != 0 { s.seq = try int64("seq") }
    let moves = { (r: inout ByteReader) throws(CodecError) -> [StatusMove] in
      try r.array("", minBytesEach: 2) { (r) throws(CodecError) in try r.statusMove() }
    }
    if format >= 2 {
      s.history = try keyedDictionary("history", minValueBytes: 1, moves)
    } else {
      // Format 1 keyed the past by id alone: it belongs to the snapshot's feature of that id.
      let byId = try dictionary("history", minValueBytes: 1, moves)
      var keys: [String: FeatureKey] = [:]
      for f in s.features where keys[f.id] == nil { keys[f.id] = f.key }
      for (id, m) in byId { s.history[keys[id] ?? FeatureKey(id: id)] = m }
    }
    return s
  }
}

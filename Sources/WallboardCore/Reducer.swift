/// The one transition function: every change to a `BoardState` goes through here.
///
/// Pure: no clocks, no I/O. The same inputs applied to equal states give equal states.
public enum Reducer {
  /// Applies one input to the state and says what it did with it.
  @discardableResult
  public static func reduce(into state: inout BoardState, _ input: BoardInput) -> Reduction {
    switch input {
    case .event(let e):
      state.countLine(of: e.origin)
      return reduce(into: &state, e)
    case .rejected(let origin, let at, let reason, let position):
      state.counters.rejected += 1
      state.countLine(of: origin)
      state.withOrigin(origin) { o in
        o.rejected += 1
        o.lastError = reason
        o.hear(at)
        // Its number arrived: it is no gap, whatever was wrong with the rest.
        if let position { o.take(position) }
      }
      return .rejected(reason)
    case .connection(let origin, let status, let at, let detail):
      state.withOrigin(origin) { o in
        if o.connection != status { o.connectionSince = at }
        o.connection = status
        o.connectionDetail = detail
        if status == .live {
          o.hear(at)
        } else {
          // Whatever comes next is a new stream: its first snapshot is followed even backwards.
          o.cursor.restart()
        }
      }
      return .applied
    case .fileRead(let origin, _, let position):
      state.withOrigin(origin) { o in
        o.file = position
        o.linesPastFile = 0
      }
      return .applied
    case .restored(let saved):
      state = saved
      return .applied
    case .relayed(let via, let position, let inner):
      precondition(inner.payload == inner, "a relayed input within a relayed input")
      let reduction = reduce(into: &state, inner)
      state.withOrigin(via) { $0.relayed = position }
      return reduction
    }
  }

  /// Applies one event to the state and says what it did with it.
  @discardableResult
  public static func reduce(into state: inout BoardState, _ e: Event) -> Reduction {
    let verdict = state.withOrigin(e.origin) { o -> Reduction? in
      o.hear(e.receivedAt)
      if case .boardSnapshot(let snap) = e.body {
        // A snapshot is the resync itself: it moves the cursors, unless it is older than what
        // this stream already applied.
        switch o.cursor.snapshot(seq: snap.seq ?? e.seq) {
        case .follow:
          o.needsResync = false
          return nil
        case .stale(let applied):
          let seq = snap.seq ?? e.seq ?? 0
          return .ignored(.staleSnapshot(seq: seq, applied: applied))
        }
      }
      guard let seq = e.seq else { return nil }
      return o.take(StreamPosition(publisher: e.publisher, seq: seq)) ? nil : .duplicate
    }
    switch verdict {
    case .duplicate?:
      state.counters.duplicates += 1
      return .duplicate
    case .ignored(let reason)?:
      state.counters.ignored += 1
      state.withOrigin(e.origin) { $0.lastError = reason?.description }
      return .ignored(reason)
    default:
      break
    }
    switch state.apply(e) {
    case .applied:
      state.counters.applied += 1
      state.withOrigin(e.origin) { o in
        o.events += 1
        if o.lastEventAt.map({ e.time > $0 }) ?? true { o.lastEventAt = e.time }
        if e.body != .heartbeat, o.lastChangeAt.map({ e.time > $0 }) ?? true { o.lastChangeAt = e.time }
      }
      if state.lastEventTime.map({ e.time > $0 }) ?? true { state.lastEventTime = e.time }
      return .applied
    case .ignored(let reason):
      state.counters.ignored += 1
      if let reason { state.withOrigin(e.origin) { $0.lastError = reason.description } }
      return .ignored(reason)
    }
  }
}

/// What the reducer did with one input, so that callers (counters, a journal) never guess.
public enum Reduction: Hashable, Sendable {
  /// The state took it (an event applied, a connection change recorded).
  case applied
  /// Its sequence number was not past the last one of its publisher: dropped.
  case duplicate
  /// Valid, but it changes nothing (an unknown topic, a stale snapshot, a feature limit…); why,
  /// when there is a reason to say.
  case ignored(Ignored?)
  /// Not a valid event: counted, with its reason.
  case rejected(String)
}

/// What applying an event's body did.
enum Outcome {
  case applied
  /// Counted as ignored; the reason, when there is one, becomes the source's last error.
  case ignored(Ignored?)
}

extension BoardState {
  /// Mutates one origin's record in place (one hash lookup).
  @discardableResult
  mutating func withOrigin<R>(_ name: String, _ body: (inout OriginState) -> R) -> R {
    body(&origins[name, default: OriginState()])
  }

  /// One more line read past the origin's file position, when it has one (a followed file).
  mutating func countLine(of origin: String) {
    if origins[origin]?.file != nil { origins[origin]?.linesPastFile += 1 }
  }
}

extension OriginState {
  mutating func hear(_ t: Instant) {
    if lastHeard.map({ t > $0 }) ?? true { lastHeard = t }
  }

  /// Takes one sequence number that arrived; `false` for a duplicate. A gap means the source
  /// needs a resync.
  @discardableResult
  mutating func take(_ p: StreamPosition) -> Bool {
    switch cursor.advance(p) {
    case .next:
      return true
    case .gap(let missing):
      gaps += 1
      lastGap = missing
      needsResync = true
      return true
    case .duplicate:
      duplicates += 1
      return false
    }
  }
}

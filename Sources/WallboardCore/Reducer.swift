/// The one transition function: every change to a `BoardState` goes through here.
///
/// Pure: no clocks, no I/O. The same inputs applied to equal states give equal states.
public enum Reducer {
  /// Applies one input to the state.
  public static func reduce(into state: inout BoardState, _ input: BoardInput) {
    switch input {
    case .event(let e):
      reduce(into: &state, e)
    case .rejected(let origin, let at, let reason):
      state.counters.rejected += 1
      state.withOrigin(origin) { o in
        o.rejected += 1
        o.lastError = reason
        o.hear(at)
      }
    case .connection(let origin, let status, let at, let detail):
      state.withOrigin(origin) { o in
        if o.connection != status { o.connectionSince = at }
        o.connection = status
        o.connectionDetail = detail
        if status == .live { o.hear(at) }
      }
    }
  }

  /// Applies one event to the state.
  public static func reduce(into state: inout BoardState, _ e: Event) {
    let fresh = state.withOrigin(e.origin) { o -> Bool in
      o.hear(e.receivedAt)
      // A snapshot is the resync itself: its sequence number is not checked for gaps here
      // (applying it moves the cursors, and an older one is refused there).
      if case .boardSnapshot = e.body { return true }
      guard let seq = e.seq else { return true }
      return o.advance(publisher: e.publisher ?? "", to: seq)
    }
    guard fresh else {
      state.counters.duplicates += 1
      return
    }
    switch state.apply(e) {
    case .applied:
      state.counters.applied += 1
      state.withOrigin(e.origin) { o in
        o.events += 1
        if o.lastEventAt.map({ e.time > $0 }) ?? true { o.lastEventAt = e.time }
      }
      if state.lastEventTime.map({ e.time > $0 }) ?? true { state.lastEventTime = e.time }
    case .ignored(let reason):
      state.counters.ignored += 1
      if let reason { state.withOrigin(e.origin) { $0.lastError = reason } }
    }
  }
}

/// What applying an event's body did.
enum Outcome {
  case applied
  /// Counted as ignored; the reason, when there is one, becomes the source's last error.
  case ignored(String?)
}

extension BoardState {
  /// Mutates one origin's record in place (one hash lookup).
  @discardableResult
  mutating func withOrigin<R>(_ name: String, _ body: (inout OriginState) -> R) -> R {
    body(&origins[name, default: OriginState()])
  }
}

extension OriginState {
  mutating func hear(_ t: Instant) {
    if lastHeard.map({ t > $0 }) ?? true { lastHeard = t }
  }

  /// Moves the publisher's sequence to `seq`; `false` for a duplicate (not past the last seen).
  /// A jump past the next number is a gap: the source needs a resync.
  mutating func advance(publisher: String, to seq: Int64) -> Bool {
    guard let last = sequences[publisher] ?? snapshotSeq else {
      sequences[publisher] = seq
      return true
    }
    if seq <= last {
      duplicates += 1
      return false
    }
    if seq > last + 1 {
      gaps += 1
      needsResync = true
    }
    sequences[publisher] = seq
    return true
  }
}

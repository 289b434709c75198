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
      state.origins[origin, default: OriginState()].rejected += 1
      state.origins[origin]!.lastError = reason
      state.origins[origin]!.lastHeard = max(state.origins[origin]!.lastHeard ?? at, at)
    case .connection(let origin, let status, let at, let detail):
      var o = state.origins[origin] ?? OriginState()
      if o.connection != status { o.connectionSince = at }
      o.connection = status
      o.connectionDetail = detail
      if status == .live { o.lastHeard = max(o.lastHeard ?? at, at) }
      state.origins[origin] = o
    }
  }

  /// Applies one event to the state.
  public static func reduce(into state: inout BoardState, _ e: Event) {
    state.origins[e.origin, default: OriginState()].lastHeard = max(
      state.origins[e.origin]?.lastHeard ?? e.receivedAt, e.receivedAt)

    if let seq = e.seq {
      let key = SeqKey(origin: e.origin, publisher: e.publisher ?? "")
      if let cursor = state.cursors[key] {
        if seq <= cursor.lastSeq {
          state.counters.duplicates += 1
          state.origins[e.origin]!.duplicates += 1
          return
        }
        if seq > cursor.lastSeq + 1 {
          state.cursors[key]!.needsResync = true
          state.origins[e.origin]!.gaps += 1
          state.origins[e.origin]!.needsResync = true
        }
        state.cursors[key]!.lastSeq = seq
      } else {
        state.cursors[key] = SeqCursor(lastSeq: seq, needsResync: false)
      }
    }

    var applier = Applier(state: state, event: e)
    state = BoardState(settings: state.settings)  // release the copy so the applier mutates uniquely
    let outcome = applier.apply()
    state = applier.state

    switch outcome {
    case .applied:
      state.counters.applied += 1
      state.origins[e.origin]!.events += 1
      state.origins[e.origin]!.lastEventAt = e.time
      if state.lastEventTime.map({ e.time > $0 }) ?? true { state.lastEventTime = e.time }
    case .ignored(let reason):
      state.counters.ignored += 1
      if let reason { state.origins[e.origin]!.lastError = reason }
    }
  }
}

enum Outcome {
  case applied
  /// Counted as ignored; the reason, when there is one, becomes the source's last error.
  case ignored(String?)
}

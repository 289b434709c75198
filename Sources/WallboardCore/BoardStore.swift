/// The one place inputs meet the board, wherever they come from (`run`, `snapshot`, `inspect`,
/// a replayed or restored journal): each goes through the reducer, what it did is tallied, and
/// the input, what the reducer did with it and the board's time are handed to the recorder (the
/// journal), which may ask for the whole board to keep as a snapshot.
///
/// With `asOf`, the board is built as of that moment: an event dated after it is set aside
/// (counted, never applied); connection changes and rejected lines still count, being about the
/// sources rather than the data. How much a source's inputs are held to the moment is its
/// `AsOf` rule.
public struct BoardStore: Sendable {
  public private(set) var state: BoardState
  /// The moment the board is built as of; nil: everything applies.
  public var asOf: Instant?
  public private(set) var tally = Tally()
  /// Where every input goes after the reducer took it; nil: nowhere.
  public var recorder: (any BoardRecorder)?
  /// When the board was last restored from a journal and no source has been live since: the
  /// time the saved board was last changed. Nil once a source is live or an event applied.
  public private(set) var restoredFrom: Instant?
  /// The board time of the latest input, never going back (the journal keeps rows in order).
  public private(set) var clock: Instant?
  /// The version of the board's content: changes whenever an input may have changed what the
  /// projections read (an event other than a heartbeat or a duplicate, a restored board), not
  /// for what only the sources' rows read (a connection change — a source's keep-alive —, a
  /// rejected line, a heartbeat). What the run loop's `ProjectionMemo` keys on, so that an idle
  /// board projects nothing again.
  public private(set) var version = 0

  public init(state: BoardState, asOf: Instant? = nil, recorder: (any BoardRecorder)? = nil) {
    self.state = state
    self.asOf = asOf
    self.recorder = recorder
  }

  public init(settings: BoardSettings, asOf: Instant? = nil, recorder: (any BoardRecorder)? = nil) {
    self.init(state: BoardState(settings: settings), asOf: asOf, recorder: recorder)
  }

  /// How many inputs the store took, by what the reducer did with them.
  public struct Tally: Hashable, Sendable {
    public var applied = 0
    public var duplicate = 0
    public var ignored = 0
    public var rejected = 0
    /// Events dated after `asOf`, set aside.
    public var afterAsOf = 0
    public init() {}
  }

  /// Applies one input; nil when it was set aside (an event after `asOf`).
  ///
  /// - Parameters:
  ///   - at: the board's time when it arrived (the run's clock); nil: the input's own time.
  ///   - asOfRule: how `asOf` holds this input (see `AsOf`).
  @discardableResult
  public mutating func apply(_ input: BoardInput, at: Instant? = nil, asOfRule: AsOf = .everyEvent) -> Reduction? {
    if let asOf, case .event(let e) = input.payload, e.time > asOf, asOfRule.setsAside(e.body) {
      tally.afterAsOf += 1
      return nil
    }
    // The board's time never goes back: the journal keeps its rows in time order. Without a
    // run's clock, an event moves it to its own time; anything else takes it as it stands, or
    // the epoch before any event (it belongs to the start).
    let now: Instant
    if let t = at ?? input.eventTime {
      now = clock.map { max($0, t) } ?? t
      clock = now
    } else {
      now = clock ?? Instant(millis: 0)
    }
    let reduction = Reducer.reduce(into: &state, input)
    switch input.payload {
    case .event(let e) where e.body != .heartbeat && reduction != .duplicate: version &+= 1
    case .restored: version &+= 1
    // Connections, rejected lines and a followed file's position: nothing the projections read.
    case .event, .connection, .rejected, .fileRead, .relayed: break
    }
    switch reduction {
    case .applied: tally.applied += 1
    case .duplicate: tally.duplicate += 1
    case .ignored: tally.ignored += 1
    case .rejected: tally.rejected += 1
    }
    switch input.payload {
    case .restored where input.isRelayed:
      // A published board a wall bootstraps from is what the board is now, not a memory.
      restoredFrom = nil
    case .restored(let saved):
      restoredFrom = saved.lastHeardTime ?? now
    case .connection(_, .live, _, _):
      restoredFrom = nil
    case .event(let e) where e.body != .heartbeat && reduction == .applied:
      restoredFrom = nil
    default:
      break
    }
    if let recorder, recorder.record(input, reduction, at: now) {
      recorder.save(state, at: now)
    }
    return reduction
  }

  /// Marks the board as restored from a journal (until a source is live): from the time it last
  /// heard anything.
  public mutating func markRestored() {
    restoredFrom = state.lastHeardTime ?? clock
  }

  /// Starts the tally again (after a journal was played in: what this run takes is counted).
  public mutating func resetTally() { tally = Tally() }

  /// Applies inputs in order.
  public mutating func apply(_ inputs: some Sequence<BoardInput>, at: Instant? = nil, asOfRule: AsOf = .everyEvent) {
    for i in inputs { apply(i, at: at, asOfRule: asOfRule) }
  }

  /// Which events dated after `asOf` a source's inputs set aside.
  public enum AsOf: Sendable {
    /// Every one: a file, whose every line is something that happened at its time.
    case everyEvent
    /// The changes, not a `board.snapshot` nor an `agents.locks`: a live source's snapshot is its
    /// view as it is read, dated then, with the history (an audit trail) the projections read as
    /// of the moment; its locks are the set it reads now, each lapsed or not at the moment.
    case changes
    /// None: the source cut itself to the moment (the simulation, a replayed journal).
    case none

    func setsAside(_ body: Event.Body) -> Bool {
      switch self {
      case .everyEvent: true
      case .changes:
        switch body {
        case .boardSnapshot, .agentLocks: false
        default: true
        }
      case .none: false
      }
    }
  }
}

/// Where a `BoardStore` hands every input it applied: the journal. A reference, shared by the
/// store's copies; `record` is called on the store's thread and must not wait for the disk.
public protocol BoardRecorder: AnyObject, Sendable {
  /// Takes one input and what the reducer did with it, at the board's time `at`. Returns true
  /// when it wants the whole board now (a snapshot): the store then calls `save`.
  func record(_ input: BoardInput, _ reduction: Reduction, at: Instant) -> Bool
  /// Takes the whole board as it stands after the inputs recorded so far.
  func save(_ state: BoardState, at: Instant)
}

extension BoardInput {
  /// When it happened: an event's time, a rejection's or connection change's, a restored
  /// board's last change.
  public var time: Instant {
    switch self {
    case .event(let e): e.time
    case .rejected(_, let at, _, _): at
    case .connection(_, _, let at, _): at
    case .fileRead(_, let at, _): at
    case .restored(let s): s.lastEventTime ?? s.lastHeardTime ?? Instant(millis: 0)
    case .relayed(_, _, let inner): inner.time
    }
  }

  /// An event's time; nil for the other inputs.
  var eventTime: Instant? {
    if case .event(let e) = payload { e.time } else { nil }
  }
}

extension BoardState {
  /// When the board last heard from any source (on the receiving clock), else the time of its
  /// latest event: what the age of a saved board is counted from.
  public var lastHeardTime: Instant? {
    origins.values.compactMap(\.lastHeard).max() ?? lastEventTime
  }
}

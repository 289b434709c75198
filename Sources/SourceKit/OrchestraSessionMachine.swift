public import Clock
public import WallboardCore
public import Wire

/// The Orchestra TCP source's logic as a value: it takes what happened (at an instant of the
/// one clock) and says what to do. No sockets, no sleeps, no clock of its own — the shell,
/// `OrchestraSource`, does the I/O and the waiting, and tests step it with plain instants.
///
/// One attempt: open the subscription stream (one `Subscribe` per topic), bootstrap with
/// `board_snapshot`, then follow deliveries, checking health every few seconds; a gap makes a
/// resync due (at most one per `resyncInterval`); nothing heard for `silenceLimit`, a failed
/// health check, or the stream ending drops the attempt, and the next comes after a backoff. A
/// stream that ends (closed or reset) before any acknowledgement, by a server that answers
/// health, publishes no events (upstream's orchestrator): its features are read through its
/// tools instead (`FeatureToolsReader`: a pass every `toolsInterval`, details only for what
/// changed), or, with no such tools, it is a health-only server: shown live and healthy, asked
/// for health. Either way the event stream is tried again at the longest backoff.
public struct OrchestraSessionMachine: SourceMachine {
  /// Timings.
  public struct Settings: Hashable, Sendable {
    public var healthInterval = 5.0
    public var backoffInitial = 1.0
    public var backoffMax = 30.0
    /// Live this long, and the backoff starts again from `backoffInitial`.
    public var stableAfter = 60.0
    /// Nothing heard for this long (no event, acknowledgement or health answer): the attempt
    /// is dropped and made again.
    public var silenceLimit = 30.0
    /// At most one resync (`board_snapshot` after a gap) per this many seconds.
    public var resyncInterval = 2.0
    /// A server without events: its features tools are read again this long after a pass.
    public var toolsInterval = 10.0
    public init() {}
  }

  /// What happened.
  public enum Input: Hashable, Sendable {
    /// Begin (the first attempt).
    case start
    /// The time passed; nothing else happened.
    case tick
    /// The subscription stream is open and its subscribes are sent.
    case opened
    /// The stream could not be opened, or ended (closed, reset, a protocol error): the reason.
    case streamEnded(String)
    /// A frame on the stream.
    case received(PluginResponse)
    /// The answer to `callSnapshot`, or why there was none.
    case snapshotAnswered(ToolResponse)
    case snapshotFailed(String)
    /// The answer to `checkHealth`: healthy (or degraded), or why not.
    case healthy
    case unhealthy(String)
    /// The answer to `callTool`, or why there was none (the call failed on the way).
    case toolAnswered(ToolResponse)
    case toolFailed(String)
    case stop
  }

  /// What to do.
  public enum Action: Hashable, Sendable {
    /// Connect the subscription stream and send one `Subscribe` per topic; answer `.opened` or
    /// `.streamEnded`.
    case openStream(topics: [String])
    case closeStream
    /// Call `board_snapshot` on a short connection; answer `.snapshotAnswered` or `.snapshotFailed`.
    case callSnapshot
    /// Ask health on a short connection; answer `.healthy` or `.unhealthy`.
    case checkHealth
    /// Call this tool on a short connection; answer `.toolAnswered` or `.toolFailed`.
    case callTool(ToolRequest)
    /// Hand this to the board.
    case deliver(BoardInput)
  }

  /// Where the session stands.
  public enum Phase: Hashable, Sendable {
    case idle
    /// Waiting for the stream to open.
    case opening
    /// Waiting for the bootstrap snapshot; frames that come meanwhile are held.
    case bootstrapping
    /// Following the stream.
    case streaming
    /// The stream ended before any acknowledgement: is the server one that answers only health?
    case probing(reason: String)
    /// A server that answers only health: asked every `healthInterval`, tried again at `retryAt`.
    case healthOnly
    /// A server without events, read through its features tools: a pass every
    /// `toolsInterval`, the event stream tried again at `retryAt`.
    case reading
    /// Waiting to try again at `retryAt`.
    case waiting
    case stopped
  }

  public static let healthOnlyDetail = "server healthy; no event stream available"
  public static let partialDetail = "no board_snapshot tool on the server: live events only"
  /// The detail of a source that follows the server's events (bootstrapped by its snapshot).
  public static let streamDetail = "following the server's event stream"
  /// The detail of a source that reads a server's features tools.
  public static func readingDetail(every seconds: Double) -> String {
    "no event stream on the server: reading its features tools every \(Int(seconds.rounded())) s"
  }

  public let origin: String
  public let settings: Settings
  public let topics: [String]
  public private(set) var phase: Phase = .idle
  /// When the next attempt is made, while waiting for it.
  public private(set) var retryAt: Monotonic?

  private var backoff: Backoff
  private let decoder = EventDecoder()
  private var attempt = 0
  private var lastError: String?
  private var cursor = SequenceCursor()
  private var held: [PluginResponse] = []
  private var acknowledged = false
  private var liveSince: Monotonic?
  private var partial = false
  private var lastHeard: Monotonic?
  private var nextHealth: Monotonic?
  private var healthPending = false
  private var snapshotPending = false
  private var resyncDue = false
  private var nextResyncAllowed: Monotonic?
  private var reader = FeatureToolsReader()
  /// When the next pass of the features tools begins, while reading.
  private var nextPass: Monotonic?
  private var toolPending = false
  /// The wall time of the input being taken: what delivered inputs are stamped with.
  private var stamp = Instant(millis: 0)

  public init(origin: String, settings: Settings = Settings(), topics: [String] = Event.topics, seed: UInt64) {
    self.origin = origin
    self.settings = settings
    self.topics = topics
    self.backoff = Backoff(initial: settings.backoffInitial, max: settings.backoffMax, seed: seed)
  }

  public static var start: Input { .start }
  public static var stop: Input { .stop }
  public static var tick: Input { .tick }
  public var isStopped: Bool { phase == .stopped }

  /// The latest instant by which the shell must feed `.tick` (or another input).
  public var nextWake: Monotonic? {
    [retryAt, nextHealth, lastHeard.map { $0.adding(seconds: settings.silenceLimit) }, resyncWake, nextPass]
      .compactMap { $0 }.min()
  }

  private var resyncWake: Monotonic? { resyncDue && !snapshotPending ? nextResyncAllowed : nil }

  /// Takes one input at `now` on the monotonic clock (every timer runs on it), stamping what
  /// it delivers with the wall time `stamp`; returns what to do, in order.
  public mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action] {
    self.stamp = stamp
    var out: [Action] = []
    if case .stop = input {
      if phase != .stopped {
        if phase != .idle && phase != .waiting && phase != .healthOnly && phase != .reading {
          out.append(.closeStream)
        }
        out.append(.deliver(.connection(origin: origin, status: .offline, at: stamp, detail: "stopped")))
        phase = .stopped
        retryAt = nil
      }
      return out
    }
    switch (phase, input) {
    case (.stopped, _):
      break
    case (.idle, .start):
      beginAttempt(at: now, &out)
    case (.waiting, .tick):
      if let r = retryAt, now >= r { beginAttempt(at: now, &out) }
    case (.opening, .opened):
      phase = .bootstrapping
      lastHeard = now
      nextHealth = now.adding(seconds: settings.healthInterval)
      snapshotPending = true
      out.append(.callSnapshot)
    case (.opening, .streamEnded(let why)):
      fail(why, at: now, &out)
    case (.bootstrapping, .received(let r)):
      lastHeard = now
      held.append(r)
    case (.bootstrapping, .snapshotAnswered(let t)):
      snapshotPending = false
      if t.success {
        takeSnapshot(t, at: now, &out)
      } else {
        partial = true
      }
      phase = .streaming
      let waiting = held
      held = []
      for r in waiting { receive(r, at: now, &out) }
    case (.bootstrapping, .snapshotFailed(let why)), (.streaming, .snapshotFailed(let why)):
      snapshotPending = false
      fail("board_snapshot: \(why)", at: now, &out)
    case (.streaming, .received(let r)):
      receive(r, at: now, &out)
    case (.streaming, .snapshotAnswered(let t)):
      // A resync's answer.
      snapshotPending = false
      if t.success { takeSnapshot(t, at: now, &out) }
    case (.bootstrapping, .streamEnded(let why)), (.streaming, .streamEnded(let why)):
      if !acknowledged && liveSince == nil {
        // Subscriptions refused (closed or reset before any acknowledgement): a server that
        // answers only health?
        phase = .probing(reason: why)
        healthPending = true
        out.append(.checkHealth)
      } else {
        fail(why, at: now, &out)
      }
    case (.probing, .healthy):
      // No events: does it have the features tools?
      healthPending = false
      out.append(.closeStream)
      phase = .reading
      lastHeard = nil
      nextHealth = nil
      retryAt = now.adding(seconds: backoff.longest())
      beginPass(&out)
    case (.reading, .toolAnswered(let t)):
      toolPending = false
      step(reader.take(t, at: stamp), at: now, &out)
    case (.reading, .toolFailed(let why)):
      toolPending = false
      fail(why, at: now, &out)
    case (.reading, .tick):
      if toolPending || reader.isReading {
        break
      } else if let r = retryAt, now >= r {
        nextPass = nil
        beginAttempt(at: now, &out)
      } else if let p = nextPass, now >= p {
        beginPass(&out)
      }
    case (.probing(let why), .unhealthy):
      healthPending = false
      fail(why, at: now, &out)
    case (.healthOnly, .tick):
      if let r = retryAt, now >= r {
        beginAttempt(at: now, &out)
      } else if let h = nextHealth, now >= h, !healthPending {
        healthPending = true
        nextHealth = now.adding(seconds: settings.healthInterval)
        out.append(.checkHealth)
      }
    case (.healthOnly, .healthy):
      healthPending = false
      out.append(.deliver(.connection(origin: origin, status: .live, at: stamp, detail: Self.healthOnlyDetail)))
    case (.healthOnly, .unhealthy):
      healthPending = false
      out.append(.deliver(.connection(origin: origin, status: .reconnecting, at: stamp, detail: "health check failed")))
    case (.streaming, .healthy), (.bootstrapping, .healthy):
      healthPending = false
      lastHeard = now
      if liveSince != nil {
        out.append(
          .deliver(
            .connection(
              origin: origin, status: .live, at: stamp, detail: partial ? Self.partialDetail : Self.streamDetail)))
      }
    case (.streaming, .unhealthy(let why)), (.bootstrapping, .unhealthy(let why)):
      // A server that stops answering health is not to be trusted, even while its stream socket
      // stays open (a half-open connection).
      healthPending = false
      fail("health check failed: \(why)", at: now, &out)
    case (.streaming, .tick), (.bootstrapping, .tick):
      break  // health, silence and resyncs: below
    default:
      // An answer to a question no longer asked (a late health answer after a failure): nothing.
      break
    }
    if phase == .streaming || phase == .bootstrapping { follow(at: now, &out) }
    return out
  }

  // MARK: Steps

  /// A pass of the features tools begins.
  private mutating func beginPass(_ out: inout [Action]) {
    nextPass = nil
    toolPending = true
    out.append(.callTool(reader.begin()))
  }

  /// What the reader says after an answer.
  private mutating func step(_ step: FeatureToolsReader.Step, at now: Monotonic, _ out: inout [Action]) {
    switch step {
    case .call(let request):
      toolPending = true
      out.append(.callTool(request))
    case .unavailable:
      // No tools either: a server that answers only health.
      out.append(.deliver(.connection(origin: origin, status: .live, at: stamp, detail: Self.healthOnlyDetail)))
      phase = .healthOnly
      lastError = Self.healthOnlyDetail
      nextHealth = now.adding(seconds: settings.healthInterval)
    case .finished(let snapshot, let problems):
      let detail = Self.readingDetail(every: settings.toolsInterval)
      if lastError != detail || liveSince == nil {
        liveSince = liveSince ?? now
        lastError = detail
        out.append(.deliver(.connection(origin: origin, status: .live, at: stamp, detail: detail)))
      }
      for p in problems { out.append(.deliver(.rejected(origin: origin, at: stamp, reason: p))) }
      if let snapshot {
        out.append(
          .deliver(
            .event(Event(origin: origin, seq: nil, time: stamp, receivedAt: stamp, body: .boardSnapshot(snapshot)))))
      }
      nextPass = now.adding(seconds: settings.toolsInterval)
    }
  }

  private mutating func beginAttempt(at now: Monotonic, _ out: inout [Action]) {
    // A server shown live without events stays so while its stream is tried again.
    if lastError != Self.healthOnlyDetail && lastError != Self.readingDetail(every: settings.toolsInterval) {
      let status: ConnectionStatus = attempt == 0 ? .connecting : attempt >= 5 ? .offline : .reconnecting
      out.append(.deliver(.connection(origin: origin, status: status, at: stamp, detail: lastError)))
    }
    retryAt = nil
    phase = .opening
    cursor = SequenceCursor()
    held = []
    acknowledged = false
    liveSince = nil
    partial = false
    lastHeard = nil
    nextHealth = nil
    resyncDue = false
    nextResyncAllowed = nil
    snapshotPending = false
    healthPending = false
    toolPending = false
    nextPass = nil
    out.append(.openStream(topics: topics))
  }

  /// Drops the attempt (its stream closed); the next comes after a backoff.
  private mutating func fail(_ why: String, at now: Monotonic, _ out: inout [Action]) {
    out.append(.closeStream)
    if let since = liveSince, now.seconds(since: since) >= settings.stableAfter { attempt = 0 }
    attempt += 1
    lastError = why
    let delay = backoff.delay(attempt: attempt)
    retryAt = now.adding(seconds: delay)
    phase = .waiting
    lastHeard = nil
    nextHealth = nil
    nextPass = nil
    resyncDue = false
    // A few quick retries show as reconnecting; a server that stays away is offline.
    let status: ConnectionStatus = attempt >= 5 ? .offline : .reconnecting
    out.append(.deliver(.connection(origin: origin, status: status, at: stamp, detail: why)))
  }

  /// Health, silence and due resyncs while the stream is followed.
  private mutating func follow(at now: Monotonic, _ out: inout [Action]) {
    if let heard = lastHeard, now.seconds(since: heard) > settings.silenceLimit {
      fail("nothing heard for \(Int(settings.silenceLimit)) s", at: now, &out)
      return
    }
    if phase == .streaming, resyncDue, !snapshotPending, nextResyncAllowed.map({ now >= $0 }) ?? true {
      resyncDue = false
      snapshotPending = true
      nextResyncAllowed = now.adding(seconds: settings.resyncInterval)
      out.append(.callSnapshot)
    }
    if let h = nextHealth, now >= h, !healthPending {
      healthPending = true
      nextHealth = now.adding(seconds: settings.healthInterval)
      out.append(.checkHealth)
    }
  }

  private mutating func goLive(at now: Monotonic, _ out: inout [Action]) {
    guard liveSince == nil else { return }
    liveSince = now
    lastError = nil
    out.append(
      .deliver(
        .connection(origin: origin, status: .live, at: stamp, detail: partial ? Self.partialDetail : Self.streamDetail))
    )
  }

  /// Applies a `board_snapshot` answer, unless it is older than what this stream applied.
  private mutating func takeSnapshot(_ t: ToolResponse, at now: Monotonic, _ out: inout [Action]) {
    do {
      let event = try OrchestraEvents.snapshotEvent(from: t, origin: origin, receivedAt: stamp, decoder: decoder)
      if case .boardSnapshot(let snap) = event.body, case .stale = cursor.snapshot(seq: snap.seq) { return }
      out.append(.deliver(.event(event)))
    } catch {
      out.append(.deliver(.rejected(origin: origin, at: stamp, reason: "board_snapshot: \(error)")))
    }
  }

  /// One frame of the stream: an acknowledgement, or an event to hand on.
  private mutating func receive(_ r: PluginResponse, at now: Monotonic, _ out: inout [Action]) {
    lastHeard = now
    guard case .eventDelivery(let d)? = r.response else { return }
    if d.isAcknowledgement {
      acknowledged = true
      goLive(at: now, &out)
      return
    }
    goLive(at: now, &out)
    let input: BoardInput
    let position: StreamPosition?
    do {
      let event = try OrchestraEvents.event(from: d, origin: origin, receivedAt: stamp, decoder: decoder)
      input = .event(event)
      position = event.seq.map { StreamPosition(publisher: event.publisher, seq: $0) }
    } catch {
      // A rejected payload whose number could be read still moves the cursor: it is no gap.
      input = .rejected(origin: origin, at: stamp, reason: "\(d.topic): \(error)", position: error.position)
      position = error.position
    }
    guard let position else { return out.append(.deliver(input)) }
    switch cursor.advance(position) {
    case .next:
      out.append(.deliver(input))
    case .gap:
      out.append(.deliver(input))
      resyncDue = true
    case .duplicate:
      // At or below the snapshot's number: already in it (held back while it was in flight).
      // Other duplicates go on to the reducer, which counts them.
      if let floor = cursor.floor, position.seq <= floor { return }
      out.append(.deliver(input))
    }
  }
}

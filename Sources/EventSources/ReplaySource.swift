public import Clock
internal import Journal
public import SourceKit
public import WallboardCore

/// `replay:PATH[,speed=X]`: a journal written by Wallboard, played back.
///
/// Read (`inspect`, `snapshot`): instantly, up to `--at` — the board as it stood at that moment
/// of the run that wrote it, from the latest snapshot before it. Followed (`run`): from the
/// journal's start at `speed` times its pace, quiet stretches cut to a few seconds as the
/// simulation does; its clock is the journal's, and what it delivers is received now (so the
/// sources it replays look live while it plays, and stale once it ends).
public final class ReplaySource: EventSource, MachineShell, @unchecked Sendable {
  public typealias Machine = PollMachine
  public let path: String
  public let origin: String
  public let speed: Double
  /// The board's settings, so that a snapshot built under others is not used.
  let settings: BoardSettings?
  public let isFinite = true
  public let appliesMoment = true
  /// The longest real wait between two inputs while followed.
  let maxGap = 4.0

  /// Guards the anchors (the board reads the replay's clock from its own thread), the driver
  /// and `deliver`.
  private let lock = Lock()
  private var anchorJournal: Instant?
  private var anchorReal: Monotonic
  private let clock: Clock
  private var driver: MachineDriver<PollMachine>?
  private var deliver: (@Sendable (BoardInput) -> Void)?
  /// The journal played, and how far; on the driver's thread only.
  private var file: JournalFile?
  private var played: JournalFile.Playback?

  public init(path: String, origin: String, speed: Double = 1, settings: BoardSettings? = nil, clock: Clock) {
    self.clock = clock
    self.anchorReal = clock.monotonic()
    self.path = path
    self.origin = origin
    self.speed = speed
    self.settings = settings
  }

  /// Plays the journal up to `moment` (its end when nil); returns the board time reached.
  public func read(
    through moment: Instant?, receivedAt: Instant, deadline: TimeLimit, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant? {
    do {
      let file = try JournalFile(path: path, mode: .read)
      let played = try file.play(through: moment, settings: settings) { input, _ in deliver(input) }
      return moment ?? played.at
    } catch {
      throw SourceError(source: origin, problem: error.description)
    }
  }

  /// The journal's clock while it plays: where the replay has reached (set from the journal's
  /// first moment when it starts).
  public var ownClock: (@Sendable () -> Instant)? { { [self] in journalNow() ?? clock.now() } }

  func journalNow() -> Instant? {
    lock.withLock { anchorJournal.map { $0.adding(seconds: clock.monotonic().seconds(since: anchorReal) * speed) } }
  }

  public func stop() { lock.withLock { driver }?.stop() }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) {
    // The clock starts at the journal's first moment, before anything is delivered: the board
    // stamps what it receives with it.
    let file: JournalFile
    do throws(JournalError) {
      file = try JournalFile(path: path, mode: .read)
      let base = try file.snapshots().first.flatMap { $0.gap ? $0.at : nil }
      var first = base
      if first == nil { first = try file.firstInputTime() }
      lock.withLock {
        anchorJournal = first
        anchorReal = clock.monotonic()
      }
    } catch {
      deliver(.connection(origin: origin, status: .offline, at: clock.now(), detail: error.description))
      return
    }
    self.file = file
    let driver = MachineDriver(PollMachine(), clock: clock, name: "wallboard \(origin)")
    lock.withLock {
      self.deliver = deliver
      self.driver = driver
    }
    deliver(.connection(origin: origin, status: .live, at: clock.now(), detail: "replaying \(path)"))
    driver.start(self)
  }

  private func say(_ input: BoardInput) { lock.withLock { deliver }?(input) }

  // MARK: The shell

  /// One look: what the journal holds up to the replay's clock now, as received now; at its
  /// end, says so and ends. Answers when the next input is due (a quiet stretch longer than
  /// `maxGap` is cut to it).
  public func perform(_ action: PollMachine.Action) -> [PollMachine.Input] {
    guard let file else { return [.looked(.ended)] }
    // No moment in the journal to pace by: all of it at once.
    let now = journalNow()
    do throws(JournalError) {
      let from: JournalFile.Start = played.map { .resuming($0) } ?? .beginning
      let deliver = { (input: BoardInput, _: Instant) in self.say(Self.received(input, now: self.clock.now())) }
      var p = try file.play(through: now, settings: settings, from: from, deliver: deliver)
      guard !p.reachedEnd else {
        // Barriers after the last input are crossed too.
        p = try file.play(through: nil, settings: settings, from: .resuming(p), deliver: deliver)
        return [.looked(end(inputs: p.inputs, skipped: p.skippedSummary))]
      }
      played = p
      guard let now, let next = try file.inputTime(after: p.lastRow) else { return [.looked(.read(next: 0.25))] }
      var wait = Double(next.millis - now.millis) / 1000 / speed
      if wait > maxGap {
        lock.withLock {
          anchorJournal = Instant(millis: next.millis - Int64(maxGap * speed * 1000))
          anchorReal = clock.monotonic()
        }
        wait = maxGap
      }
      return [.looked(.read(next: wait))]
    } catch {
      say(.connection(origin: origin, status: .offline, at: clock.now(), detail: error.description))
      return [.looked(.ended)]
    }
  }

  private func end(inputs: Int, skipped: String?) -> PollMachine.Look {
    say(
      .connection(
        origin: origin, status: .ended, at: clock.now(),
        detail: "replayed to its end (\(inputs) inputs" + (skipped.map { "; \($0)" } ?? "") + ")"))
    return .ended
  }

  /// Nothing to wait on but the replay's clock: the driver waits.
  public func await(until deadline: Monotonic) -> [PollMachine.Input]? { nil }

  public func interrupt(stopping: Bool) {}

  public func finish() { file = nil }

  /// `input` as received now: its receive time (not the time it tells of) moved to `now`.
  static func received(_ input: BoardInput, now: Instant) -> BoardInput {
    switch input {
    case .event(var e):
      e.receivedAt = now
      return .event(e)
    case .rejected(let o, _, let r, let p): return .rejected(origin: o, at: now, reason: r, position: p)
    case .connection(let o, let s, _, let d): return .connection(origin: o, status: s, at: now, detail: d)
    case .fileRead(let o, _, let p): return .fileRead(origin: o, at: now, through: p)
    case .restored: return input
    case .relayed(let via, let p, let inner): return .relayed(via: via, position: p, input: received(inner, now: now))
    }
  }
}

extension ReplaySource {
  /// `replay:PATH`, `replay:PATH,speed=X`.
  public struct Spec: SourceConfiguration {
    public var path: String
    public var speed = 1.0
    public var name: String { "replay:" + path + (speed == 1 ? "" : ",speed=\(formatNumber(speed))") }
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      ReplaySource(path: path, origin: "replay:" + path, speed: speed, settings: context.settings, clock: context.clock)
    }
  }

  struct Kind: SourceKind {
    var usage: String { "replay:PATH[,speed=X]" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      guard var path = try value(of: text, after: "replay:", needs: "the path of a journal") else { return nil }
      var spec = Spec(path: path)
      if let comma = path.lastIndex(of: ","), path[path.index(after: comma)...].hasPrefix("speed=") {
        let v = path[path.index(after: comma)...].dropFirst("speed=".count)
        // A plain decimal (no sign, exponent or hexadecimal), above 0 and at most a million.
        let plain = !v.isEmpty && v.utf8.count <= 16 && v.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard plain, let speed = Double(v), speed.isFinite, speed > 0, speed <= 1_000_000 else {
          throw SourceSpecError(text: text, problem: "speed must be a number above 0 and at most 1000000")
        }
        path = String(path[..<comma])
        guard !path.isEmpty else { throw SourceSpecError(text: text, problem: "replay: needs the path of a journal") }
        spec = Spec(path: path, speed: speed)
      }
      return spec
    }
  }
}

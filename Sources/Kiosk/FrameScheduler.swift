public import Raster

/// When the run loop draws a frame, how it reaches the screen, and when the loop wakes: a pure
/// state machine on one monotonic clock (seconds, any origin), told what changed.
///
/// A change (an input, a key, a reload, a page turn) is drawn as soon as the display's shortest
/// frame interval allows. Without one, a frame is drawn only when the one on the screen goes
/// stale — its clock's minute turns, an age or a countdown moves, a source turns stale — at the
/// deadline the loop gives (`shown(until:)`, worked out from what the frame shows), or when its
/// look changes; an idle board with nothing due is not drawn at all. What the screen shows
/// besides the board's pixels, its `Look` (the burn-in offset, the night state, the
/// background), decides the way a frame is presented: the board itself when it is shown as
/// drawn (or moved by a display that moves frames), otherwise a screen frame, turned, dimmed or
/// moved, kept so that a frame where little changed redoes only that. A changed look is
/// presented whole. The night's `blank` turns the output off (after a black frame) and draws
/// nothing until morning, when it comes back on and the frame is presented whole.
///
/// The loop sleeps until `wake(at:pageTurn:lookChange:)`: the next frame, the next page turn,
/// the look's next change, the next look at the display's events, or at the latest
/// `checkInterval` on, whichever is first; an input or a signal wakes it sooner. The
/// `checkInterval` wake is the net under the deadlines: the loop reads its clocks, finds the
/// frame still true and its look the same, and sleeps again — so that a wall clock stepped (an
/// NTP sync at a Pi's boot) or a board clock of its own (a simulation's) is seen within it.
public struct FrameScheduler: Sendable {
  /// What the screen shows besides the board's own pixels.
  public struct Look: Equatable, Sendable {
    public var offset: Offset
    public var night: NightSchedule.State
    public var background: RGBA

    public init(offset: Offset = Offset(), night: NightSchedule.State = .day, background: RGBA = RGBA(r: 0, g: 0, b: 0))
    {
      self.offset = offset
      self.night = night
      self.background = background
    }
  }

  /// A burn-in offset in pixels.
  public struct Offset: Equatable, Sendable {
    public var dx: Int
    public var dy: Int
    public init(dx: Int = 0, dy: Int = 0) {
      self.dx = dx
      self.dy = dy
    }
    public var isZero: Bool { dx == 0 && dy == 0 }
  }

  /// How a frame reaches the screen.
  public enum Path: Equatable, Sendable {
    /// The board itself, moved by the display where the look has an offset. `whole`: presented
    /// whole, else only its dirty rectangles.
    case board(whole: Bool)
    /// The screen frame (the board turned, dimmed, or moved for a display that cannot move it):
    /// `whole`, made anew and presented whole; else the kept one, with the dirty rectangles redone.
    case screen(whole: Bool)
    /// Nothing reaches the screen: its output is off.
    case none
  }

  /// What to do for one frame.
  public struct Plan: Equatable, Sendable {
    /// Whether to draw the board (false while the output is off).
    public var draw: Bool
    public var path: Path
    /// Turn the output on again (`true`: before presenting) or off (`false`: after presenting
    /// the black frame); nil: leave it.
    public var power: Bool?

    public init(draw: Bool, path: Path, power: Bool?) {
      self.draw = draw
      self.path = path
      self.power = power
    }
  }

  /// The shortest time between two frames (the display's).
  public let minimumInterval: Double
  /// The longest the loop sleeps: a look at its clocks and the look, which costs no frame when
  /// nothing is due.
  public let checkInterval: Double
  /// How often the display's events are looked at while idle, nil when it has none.
  public let pollInterval: Double?
  /// Whether the board is turned on the screen (`--rotate`): then it always goes through a
  /// screen frame.
  public let rotated: Bool
  /// Whether the display moves a frame itself.
  public let movesFrames: Bool

  /// When the last frame was planned; nil before the first.
  public private(set) var lastFrame: Double?
  /// Whether something changed since that frame.
  public private(set) var pending = true
  /// When the frame on the screen goes stale by itself (`shown(until:)`); nil: never.
  public private(set) var staleAt: Double?
  /// The look of the last frame presented; nil when the next must be presented whole.
  public private(set) var lastLook: Look?
  /// Whether the output is off for the night.
  public private(set) var poweredOff = false

  public init(
    minimumInterval: Double, checkInterval: Double = 1, pollInterval: Double? = nil, rotated: Bool = false,
    movesFrames: Bool = false
  ) {
    precondition(minimumInterval > 0 && checkInterval >= minimumInterval, "frame intervals out of order")
    precondition(pollInterval.map { $0 > 0 } ?? true, "a poll interval is positive")
    self.minimumInterval = minimumInterval
    self.checkInterval = checkInterval
    self.pollInterval = pollInterval
    self.rotated = rotated
    self.movesFrames = movesFrames
  }

  /// Something the board shows changed: draw it as soon as the frame rate allows.
  public mutating func changed() { pending = true }

  /// The screen lost what it showed (a resize, an uncovered window, a new canvas): the next
  /// frame is drawn and presented whole.
  public mutating func invalidate() {
    pending = true
    lastLook = nil
  }

  /// The frame on the screen goes stale by itself at `deadline` (its clock's next minute, an
  /// age's next step…), nil: never. Told after each frame, and again as the loop's clocks say.
  public mutating func shown(until deadline: Double?) { staleAt = deadline }

  /// Whether a frame is due at `t`, whose screen has `look`: something changed, the frame on
  /// the screen went stale, or the look is not the last frame's — once the frame rate allows.
  public func isDue(at t: Double, look: Look) -> Bool {
    guard let last = lastFrame else { return true }
    guard t - last >= minimumInterval else { return false }
    return pending || staleAt.map { t >= $0 } ?? false || look != lastLook
  }

  /// The frame at `t`, whose screen has `look`; nil when none is due. Planning it counts it as
  /// made: the next is timed from `t`, and it is never stale until the loop says when
  /// (`shown(until:)`).
  public mutating func plan(at t: Double, look: Look) -> Plan? {
    guard isDue(at: t, look: look) else { return nil }
    lastFrame = t
    pending = false
    staleAt = nil
    let wasBlank = lastLook?.night == .blank || poweredOff
    if look.night == .blank {
      if poweredOff { return Plan(draw: false, path: .none, power: nil) }
      if wasBlank, lastLook == look {
        // Blank, and the display could not turn off: the black frame stays as it is.
        return Plan(draw: false, path: .none, power: nil)
      }
      // A black frame first, then the output off.
      lastLook = look
      return Plan(draw: true, path: .screen(whole: true), power: false)
    }
    let powerOn: Bool? = poweredOff ? true : nil
    if poweredOff {
      poweredOff = false
      lastLook = nil
    }
    let whole = lastLook != look
    lastLook = look
    // The same look takes the same path as the frame before: a screen frame with an unchanged
    // look is the one kept from that frame, updated.
    if !rotated && look.night == .day && (look.offset.isZero || movesFrames) {
      return Plan(draw: true, path: .board(whole: whole), power: powerOn)
    }
    return Plan(draw: true, path: .screen(whole: whole), power: powerOn)
  }

  /// What the display did when told to turn its output off: `off` false when it could not (it
  /// then keeps showing the black frame).
  public mutating func powered(off: Bool) { poweredOff = off }

  /// When the loop should wake next, at or after `t`: the next frame (soon after a change, else
  /// when the frame on the screen goes stale), the next page turn, the look's next change (the
  /// burn-in move, the night's next minute), the next look at the display's events, or
  /// `checkInterval` on, whichever is first.
  public func wake(at t: Double, pageTurn: Double? = nil, lookChange: Double? = nil) -> Double {
    guard let last = lastFrame else { return t }
    var next = t + checkInterval
    if pending { next = min(next, last + minimumInterval) }
    if let staleAt { next = min(next, max(staleAt, last + minimumInterval)) }
    if let pageTurn { next = min(next, pageTurn) }
    if let lookChange { next = min(next, lookChange) }
    if let pollInterval { next = min(next, t + pollInterval) }
    return max(next, t)
  }
}

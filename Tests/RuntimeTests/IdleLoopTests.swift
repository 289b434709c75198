import Clock
import DisplayCore
import Kiosk
import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

@testable import Runtime

/// An idle board recomputes nothing until something it shows would read differently: the loop
/// stepped as its shell steps it (woken at the deadline it asks for), counting the views it
/// makes (each view is one frame model) and the frames the display is given.
@Suite("The idle run loop")
struct IdleLoopTests {
  /// The clock and the sources, where ages and states show.
  static let layout = "name = t\ndescription = idle\ngrid = 1 x 3\nheader 0 0 1 1\nconnections 0 1 1 2\n"

  /// A loop on an in-memory display, a board of one feature changed at `changed` and a source
  /// `connection`, its clock at `start`.
  struct Rig {
    let clock = TestClock(start: Instant(seconds: 1_780_000_000))  // 2026-05-28T20:26:40Z
    let display: MemoryDisplay
    var loop: LiveLoop
    /// How far the wall's clock is set from the test clock's (a stepped clock).
    var wallStep: Int64 = 0

    init(pixelShift: PixelShiftMode = .off, reconnectAt: Instant? = nil, width: Int = 320) throws {
      display = MemoryDisplay(width: width, height: width * 9 / 16, traits: DisplayTraits(fillsScreen: false))
      let renderer = PixelRenderer(
        scene: try LiveLoopTests.scene(IdleLoopTests.layout), writesText: false, clock: clock.clock)
      loop = LiveLoop(
        store: BoardStore(state: BoardState()), renderer: renderer, display: display, rotation: 0,
        settings: LiveSettings(zone: .utc, pixelShift: pixelShift), clock: clock.clock, start: clock.monotonic,
        reconnectAt: { reconnectAt.map { ["tcp:b": $0] } ?? [:] })
    }

    var now: LiveLoop.Moment {
      LiveLoop.Moment(wall: Instant(millis: clock.now.millis + wallStep), monotonic: clock.monotonic)
    }

    /// One turn now; the seconds until it asks to be woken.
    mutating func turn(_ inputs: [BoardInput] = []) throws -> Double {
      guard case .wake(let at) = try loop.turn(inputs: inputs, events: [], reload: nil, at: now) else {
        Issue.record("the loop quit")
        return 1
      }
      return at.seconds(since: clock.monotonic)
    }

    /// Turns as the shell would for `seconds`, from now: each wait as long as the turn asks
    /// (never past the end). The times of the turns that made a view, from the start.
    mutating func run(for seconds: Double) throws -> [Double] {
      let start = clock.monotonic
      var viewed: [Double] = []
      while true {
        let views = loop.views
        let wake = try turn()
        let t = clock.monotonic.seconds(since: start)
        if loop.views > views { viewed.append((t * 1000).rounded() / 1000) }
        let left = seconds - t
        guard left > 1e-6 else { return viewed }
        guard wake >= 1e-6 && wake <= 1 else {
          Issue.record("woken at most a second on, and not at once: \(wake) s at \(t)")
          return viewed
        }
        clock.advance(by: min(wake, left))
      }
    }

    /// The inputs of a board whose one source (`status`) changed a feature `ago` seconds before now
    /// and is heard now.
    func board(_ status: ConnectionStatus, changedAgo ago: Int64) -> [BoardInput] {
      let now = clock.now
      return [
        .connection(origin: "jsonl:a", status: status, at: now, detail: nil),
        .event(
          Event(
            origin: "jsonl:a", time: Instant(millis: now.millis - ago * 1000), receivedAt: now,
            body: .featureCreated(Make.feature("F-1")))),
      ]
    }
  }

  @Test func anIdleBoardMakesNoViewWithinAMinuteAndDrawsWhenTheMinuteTurns() throws {
    var rig = try Rig()
    rig.clock.advance(by: 20)  // 20:27:00
    // A finished source: its change 5 min ago, on the board's clock; nothing turns stale.
    _ = try rig.turn(rig.board(.ended, changedAgo: 300))
    #expect(rig.loop.views == 1 && rig.display.frames.count == 1)
    let viewed = try rig.run(for: 59.5)
    #expect(viewed.isEmpty, "no view, no model, no frame within the minute: \(viewed)")
    #expect(rig.loop.views == 1 && rig.display.frames.count == 1)
    // At 20:28:00 the clock and the age turn: one view, and a frame.
    let turned = try rig.run(for: 61)
    #expect(turned.first == 0.5, "\(turned)")
    #expect(rig.display.frames.count == 1 + turned.count)
    #expect(turned.count == 2, "20:28 and 20:29, nothing between: \(turned)")
  }

  @Test func aLiveSourceTurningStaleIsDrawnAtItsStaleAfter() throws {
    var rig = try Rig()
    _ = try rig.turn(rig.board(.live, changedAgo: 7200))
    #expect(rig.loop.views == 1)
    let viewed = try rig.run(for: 40)
    // 20:26:40 + 30 s (and a millisecond): stale; 20:27:00: the minute.
    #expect(viewed == [20, 30.001], "\(viewed)")
    let view = BoardView(state: rig.loop.store.state, at: rig.now.wall, now: rig.now.wall, zone: .utc)
    #expect(view.sources.map(\.status) == [.stale])
  }

  /// A source kept alive (a followed file's keep-alive every 5 s, a peer's heartbeat) changes no
  /// projection, so the content is not made again; its row and the banner still read the board
  /// as it stands, not as it stood when the content was made: live, not stale after 30 s.
  @Test func aSourceKeptAliveStaysLiveThoughTheContentIsKept() throws {
    var rig = try Rig()
    _ = try rig.turn(rig.board(.live, changedAgo: 7200))
    for second in 1...60 {
      rig.clock.advance(by: 1)
      let alive: [BoardInput] =
        second % 5 == 0 ? [.connection(origin: "jsonl:a", status: .live, at: rig.now.wall, detail: nil)] : []
      _ = try rig.turn(alive)
    }
    let view = rig.loop.view(at: rig.now)
    #expect(view.sources.map(\.status) == [.live], "a minute of keep-alives")
    #expect(view.banner == nil)
  }

  @Test func theRetryCountdownCountsEverySecond() throws {
    var rig = try Rig(reconnectAt: Instant(seconds: 1_780_000_005))
    _ = try rig.turn([.connection(origin: "tcp:b", status: .reconnecting, at: rig.clock.now, detail: "refused")])
    let viewed = try rig.run(for: 8)
    #expect(viewed == [1, 2, 3, 4, 5], "each second of \"retry in N s\", then none: \(viewed)")
    #expect(rig.display.frames.count == 6)
  }

  @Test(arguments: [3600, -3600, 29])
  func aSteppedWallClockIsDrawnWithinASecond(step: Int64) throws {
    var rig = try Rig()
    rig.clock.advance(by: 20)  // 20:27:00
    _ = try rig.turn(rig.board(.ended, changedAgo: 300))
    _ = try rig.run(for: 10.25)
    #expect(rig.loop.views == 1)
    rig.wallStep = step * 1000
    let viewed = try rig.run(for: 5)
    // A step of an hour either way moves the clock: drawn at the loop's next look (at most a
    // second on, as each wake is). 29 s on, 20:27:39: the same minute, nothing to draw.
    #expect(viewed == (step == 29 ? [] : [0]), "\(viewed)")
  }

  /// (The moves of 180 s fall on minutes, where the clock turns too; `FrameSchedulerTests` wakes
  /// for a look alone.)
  @Test func theBurnInMoveIsPresentedWholeAtItsTime() throws {
    // 640×360: moves of 3 and 1 pixels (at 320×180 some moves are none).
    var rig = try Rig(pixelShift: .on, width: 640)
    rig.clock.advance(by: 20)  // 20:27:00; a move every 180 s: at 20:27:00 and 20:30:00
    _ = try rig.turn(rig.board(.ended, changedAgo: 300))
    let frames = rig.display.frames.count
    let viewed = try rig.run(for: 180)
    #expect(viewed.count == 3, "20:28, 20:29, 20:30: \(viewed)")
    #expect(viewed.last == 180)
    #expect(rig.display.frames.count == frames + 3)
    #expect(rig.display.frames.last?.dirty == nil, "a moved frame is presented whole")
  }
}

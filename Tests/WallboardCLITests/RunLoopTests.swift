import DisplayCore
import Foundation
import Raster
import TestSupport
import Testing
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// `run` on the tests' in-memory display: what reaches the screen, and when.
@Suite(.serialized) struct RunLoopTests {
  /// A wall clock the test moves.
  final class TestClock: @unchecked Sendable {
    let lock = NSLock()
    var t: Instant
    /// A step the clock takes by itself, once, when it is read a real while on.
    var pending: (seconds: Double, at: ContinuousClock.Instant)?
    private var took = false
    /// Whether the step was taken.
    var stepped: Bool { lock.withLock { took } }
    init(_ t: Instant) { self.t = t }
    var now: Instant {
      lock.withLock {
        if let p = pending, ContinuousClock.now >= p.at {
          t = t.adding(seconds: p.seconds)
          pending = nil
          took = true
        }
        return t
      }
    }
    func set(_ new: Instant) { lock.withLock { t = new } }
    /// Sets the clock `seconds` on once `after` has passed (a clock stepped while the board idles).
    func step(by seconds: Double, after: Duration) {
      lock.withLock { pending = (seconds, ContinuousClock.now + after) }
    }
  }

  func app(_ clock: TestClock, display: MemoryDisplay) -> App {
    var app = App(
      console: Captured().console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path], now: { clock.now })
    app.openDisplay = { (_, _, _) throws(CLIError) in display }
    return app
  }

  var events: String { Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path }

  @Test func theFirstFrameIsWholeThenOnlyWhatChangedAndQKeyClosesTheDisplay() throws {
    let clock = TestClock(try Instant(rfc3339: "2026-11-05T18:00:50Z"))
    let display = MemoryDisplay(width: 640, height: 360, traits: DisplayTraits(fillsScreen: false))
    // The first frame comes before the source is read (no journal: an empty board); its board
    // follows within the frame interval, and then nothing is drawn: an idle board's minute has
    // not turned. A real second on (the small file long read), the wall's clock is set 20 s on:
    // the minute turns, which the loop sees at its next look at its clocks, while the source
    // (stamped with this clock when it was heard) is still live: one not heard for 30 s of the
    // board's clock is stale, and its banner is more to redraw.
    clock.step(by: 20, after: .seconds(1))
    var minute: Int?
    display.afterPresent = { d in
      if minute == nil, clock.stepped {
        minute = d.frames.count
        d.queued = [.quit]
      }
    }
    let code = app(clock, display: display).main([
      "run", "--no-journal", "--source", "jsonl:\(events)", "--tz", "UTC", "--pixel-shift", "off",
    ])
    #expect(code == 0)
    #expect(display.closed)
    #expect(display.frames[0].dirty == nil, "the first frame is presented whole")
    let turned = try #require(minute)
    #expect(display.frames.count == turned)
    let later = try #require(display.frames.last?.dirty)
    #expect(!later.isEmpty && later.count < 10, "then only the widgets that changed: \(later)")
    let area = later.reduce(0) { $0 + $1.width * $1.height }
    #expect(area < 640 * 360 / 2)
  }

  @Test func theNightBlankTurnsTheDisplayOffAndTheMorningOn() throws {
    let clock = TestClock(try Instant(rfc3339: "2026-11-05T21:59:59Z"))
    let display = MemoryDisplay(width: 320, height: 180, traits: DisplayTraits(fillsScreen: false))
    display.afterPresent = { d in
      if d.frames.count == 1 { clock.set(try! Instant(rfc3339: "2026-11-05T22:00:01Z")) }
      if d.frames.count == 2 {
        // The black frame is on screen; the output goes off after it.
        #expect(d.screen.pixels.allSatisfy { $0 == Canvas.pack(RGBA(r: 0, g: 0, b: 0)) })
        clock.set(try! Instant(rfc3339: "2026-11-06T06:30:00Z"))
      }
      if d.frames.count == 3 { d.queued = [.quit] }
    }
    let code = app(clock, display: display).main([
      "run", "--no-journal", "--source", "jsonl:\(events)", "--tz", "UTC", "--night", "mon-sun 22:00-06:00 blank",
    ])
    #expect(code == 0)
    #expect(display.power == [false, true])
    #expect(display.frames.count == 3)
    #expect(display.frames[2].dirty == nil, "the morning's frame is presented whole")
    #expect(display.isOn)
  }
}

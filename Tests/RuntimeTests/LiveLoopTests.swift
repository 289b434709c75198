import Clock
import DisplayCore
import Foundation
import Glyphs
import Kiosk
import Layout
import Projections
import Raster
import TestSupport
import Testing
import Themes
import WallboardCore
import Widgets

@testable import Runtime

/// The run loop stepped a turn at a time on a test clock: nothing waits, nothing real is read
/// but the bundled themes, fonts and a layout.
@Suite("The run loop, turn by turn")
struct LiveLoopTests {
  /// A scene of the layout `text`, in `theme`.
  static func scene(_ text: String, theme: String = "orchestra") throws -> Scene {
    let root = Paths.repoRoot.path
    let catalog = try ThemeCatalog.load(directory: root + "/assets/themes")
    let layout = try LayoutParser.parse(text, file: "test.layout", vocabulary: WidgetRegistry.vocabulary)
    let fonts = try TextRenderer(fontsDirectory: root + "/assets/fonts")
    return Scene(
      catalog: catalog, themeIndex: try #require(catalog.themes.firstIndex { $0.id == theme }), variantIndex: 0,
      renderer: BoardRenderer(layout: layout, painter: Painter(text: fonts)), scale: 1)
  }

  static let onePage = "name = t\ndescription = one\ngrid = 1 x 1\nprogress 0 0 1 1\n"
  static let twoPages = """
    name = t
    description = two pages
    grid = 1 x 1
    page a
      duration = 5
      progress 0 0 1 1
    page b
      duration = 5
      tallies 0 0 1 1

    """

  /// A loop on a 320×180 in-memory display, its clock and the display.
  struct Rig {
    let clock = TestClock(start: Instant(seconds: 1_780_000_000))  // 2026-05-28T20:26:40Z, a Thursday
    let display: MemoryDisplay
    var loop: LiveLoop

    init(
      layout: String = LiveLoopTests.onePage, night: [NightSchedule.Rule] = [], renderer: (any Renderer)? = nil,
      traits: DisplayTraits = DisplayTraits(fillsScreen: false)
    ) throws {
      display = MemoryDisplay(width: 320, height: 180, traits: traits)
      let drawing =
        try renderer ?? PixelRenderer(scene: LiveLoopTests.scene(layout), writesText: false, clock: clock.clock)
      loop = LiveLoop(
        store: BoardStore(state: BoardState()), renderer: drawing, display: display, rotation: 0,
        settings: LiveSettings(zone: .utc, night: night, pixelShift: .off), clock: clock.clock,
        start: clock.monotonic)
    }

    var now: LiveLoop.Moment { LiveLoop.Moment(wall: clock.now, monotonic: clock.monotonic) }

    /// One turn now; the seconds until it asks to be woken (nil: it quit).
    mutating func turn(
      _ inputs: [BoardInput] = [], events: [DisplayEvent] = [], reload: LiveLoop.Reload? = nil
    ) throws -> Double? {
      guard case .wake(let at) = try loop.turn(inputs: inputs, events: events, reload: reload, at: now) else {
        return nil
      }
      return at.seconds(since: clock.monotonic)
    }
  }

  static func feature(_ id: String, at: Instant) -> BoardInput {
    .event(Event(origin: "test", time: at, body: .featureCreated(Make.feature(id, status: "in-progress"))))
  }

  @Test func aFrameIsDueAtOnceThenAnInputWithinTheFrameRate() throws {
    var rig = try Rig()
    let wake = try #require(try rig.turn())
    #expect(rig.display.frames.count == 1)
    #expect(rig.display.frames[0].dirty == nil, "the first frame is presented whole")
    #expect(wake > 0 && wake <= 1, "woken for the next look at the clocks: \(wake)")
    // Nothing changed and nothing is due: no frame.
    _ = try rig.turn()
    #expect(rig.display.frames.count == 1)
    // An input: a frame once the frame rate allows, and only what changed.
    rig.clock.advance(by: 0.1)
    _ = try rig.turn([Self.feature("F-1", at: rig.clock.now)])
    #expect(rig.display.frames.count == 2)
    #expect(rig.loop.store.state.features.count == 1)
    let dirty = try #require(rig.display.frames[1].dirty)
    #expect(!dirty.isEmpty && dirty.allSatisfy { $0.width * $0.height < 320 * 180 })
    // A second later, nothing is due: the clock's minute has not turned (`IdleLoopTests`).
    rig.clock.advance(by: 1)
    _ = try rig.turn()
    #expect(rig.display.frames.count == 2)
    #expect(rig.loop.diagnostics.frameTime >= 0)
  }

  @Test func pagesTurnByTheirDurationsAndByKeys() throws {
    var rig = try Rig(layout: Self.twoPages)
    let wake = try #require(try rig.turn())
    #expect(rig.loop.timer.page == 0)
    #expect(wake <= 1)
    rig.clock.advance(by: 5)
    _ = try rig.turn()
    #expect(rig.loop.timer.page == 1, "the page turned after its 5 s")
    let frames = rig.display.frames.count
    #expect(rig.display.frames.last?.dirty == nil || frames >= 2)
    _ = try rig.turn(events: [.previousPage])
    #expect(rig.loop.timer.page == 0, "the key turns it back")
  }

  @Test func theNightBlanksAndTurnsTheOutputOffThenTheMorningOn() throws {
    // 20:26:40 UTC: blank from 20:27 to 20:30 every day.
    let rule = try NightSchedule.parse(rule: "mon-sun 20:27-20:30 blank")
    var rig = try Rig(night: [rule])
    _ = try rig.turn()
    #expect(rig.display.power.isEmpty)
    rig.clock.advance(by: 30)
    _ = try rig.turn()
    #expect(rig.display.power == [false], "the output goes off after its black frame")
    #expect(rig.display.screen.pixels.allSatisfy { $0 & 0xFF_FFFF == 0 }, "the last frame shown is black")
    let frames = rig.display.frames.count
    rig.clock.advance(by: 60)
    _ = try rig.turn()
    #expect(rig.display.frames.count == frames, "no frames while the output is off")
    rig.clock.advance(by: 3 * 60)
    _ = try rig.turn()
    #expect(rig.display.power == [false, true], "the morning turns it on before its first frame")
    #expect(rig.display.frames.count == frames + 1)
  }

  @Test func aReloadIsDrawnWholeAndAFailedOneIsSaidOnTheBoard() throws {
    var rig = try Rig()
    _ = try rig.turn()
    let before = rig.display.screen.pixels[0]
    rig.clock.advance(by: 0.5)
    let fresh = try Self.scene(Self.twoPages, theme: "deep-ocean")
    let settings = LiveSettings(zone: .utc, pixelShift: .off, diagnostics: true)
    _ = try rig.turn(reload: .reloaded(fresh, settings: settings, themeChanged: true, variantChanged: false))
    #expect(rig.display.frames.count == 2)
    #expect(rig.loop.timer.durations == [5, 5], "the new layout's pages")
    #expect(rig.loop.diagnostics.enabled, "the config turned the panel on")
    #expect(rig.display.screen.pixels[0] != before, "drawn in the new theme")
    rig.clock.advance(by: 0.5)
    _ = try rig.turn(reload: .failed(LiveLoop.ReloadFailure(reason: "test.layout:4: unknown widget")))
    #expect(rig.loop.diagnostics.reloadMessage == "Reload failed: test.layout:4: unknown widget")
    #expect(rig.loop.diagnostics.lines.last == "Reload failed: test.layout:4: unknown widget")
    #expect(rig.display.frames.count == 3)
  }

  @Test func reloadedSprintsAreTheDeclaredSourcesSnapshot() throws {
    var rig = try Rig()
    _ = try rig.turn()
    let sprint = Make.sprint("S1", start: "2026-05-25", end: "2026-06-05")
    let settings = LiveSettings(zone: .utc, pixelShift: .off, sprints: [sprint])
    _ = try rig.turn(
      reload: .reloaded(try Self.scene(Self.onePage), settings: settings, themeChanged: false, variantChanged: false))
    #expect(rig.loop.store.state.sprints.keys.sorted() == ["S1"])
    #expect(rig.loop.settings.sprints == [sprint])
  }

  @Test func theQuitKeyEndsTheLoopBeforeAnythingIsDrawn() throws {
    var rig = try Rig()
    #expect(try rig.turn(events: [.quit]) == nil)
    #expect(rig.display.frames.isEmpty)
  }

  @Test func aResizeGivesANewCanvasAndAWholeFrame() throws {
    var rig = try Rig()
    _ = try rig.turn()
    rig.display.size = (480, 270)
    rig.clock.advance(by: 0.1)
    _ = try rig.turn(events: [.resized(480, 270)])
    #expect(rig.loop.presenter.board.width == 480)
    #expect(rig.display.frames.last?.dirty == nil)
  }

  @Test func theTextBoardIsPresentedAsTextEveryFrame() throws {
    final class Lines: Display {
      var texts: [String] = []
      var size: (width: Int, height: Int) { (0, 0) }
      var traits: DisplayTraits { DisplayTraits(fillsScreen: false, drawsPixels: false) }
      func present(_ frame: DisplayFrame) throws(DisplayError) { texts.append(frame.text()) }
    }
    let clock = TestClock(start: Instant(seconds: 1_780_000_000))
    let display = Lines()
    var loop = LiveLoop(
      store: BoardStore(state: BoardState()), renderer: TextBoardRenderer(), display: display, rotation: 0,
      settings: LiveSettings(zone: .utc), clock: clock.clock, start: clock.monotonic)
    let at = LiveLoop.Moment(wall: clock.now, monotonic: clock.monotonic)
    _ = try loop.turn(inputs: [Self.feature("F-7", at: clock.now)], events: [], reload: nil, at: at)
    #expect(display.texts.count == 1)
    #expect(display.texts[0].contains("F-7"), "\(display.texts[0])")
  }

  @Test func aFailingDisplayEndsTheTurnWithItsError() throws {
    let rig = try Rig()
    final class Broken: Display {
      var size: (width: Int, height: Int) { (64, 36) }
      var traits: DisplayTraits { DisplayTraits(fillsScreen: false) }
      func present(_ frame: DisplayFrame) throws(DisplayError) { throw DisplayError("the screen went away") }
    }
    var loop = LiveLoop(
      store: BoardStore(state: BoardState()), renderer: rig.loop.renderer, display: Broken(), rotation: 0,
      settings: LiveSettings(zone: .utc), clock: rig.clock.clock, start: rig.clock.monotonic)
    #expect(throws: DisplayError("the screen went away")) {
      _ = try loop.turn(inputs: [], events: [], reload: nil, at: rig.now)
    }
  }
}

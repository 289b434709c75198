import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

@Suite("The board renderer")
struct RendererTests {
  @Test func redrawsOnlyWhatChanged() throws {
    var renderer = BoardRenderer(layout: try Fixtures.bundled("wall"), painter: Painter(text: Fixtures.text()))
    let style = Fixtures.style("orchestra", height: 1080)
    var canvas = Canvas(width: 1920, height: 1080, background: style.theme.bg)
    let frame = Fixtures.frame()
    let first = renderer.render(frame, style: style, into: &canvas)
    #expect(first.contains(canvas.bounds), "the first frame is drawn in full")
    let before = canvas.pixels
    #expect(renderer.render(frame, style: style, into: &canvas).isEmpty, "nothing changed, nothing drawn")
    #expect(canvas.pixels == before)

    // One more status change: tallies, progress, recent and the burndown change; the header
    // and connections do not.
    var state = Fixtures.state
    Reducer.reduce(
      into: &state, .connection(origin: "orchestra://build-server:50101", status: .live, at: Fixtures.at, detail: nil))
    let id = state.features.values.first { $0.status == "in-review" || $0.status == "in-progress" }!.id
    Reducer.reduce(
      into: &state, Event(origin: "sim", time: Fixtures.at, body: .featureUpdated(FeaturePatch(id: id, status: "done")))
    )
    let next = FrameModel(state: state, at: Fixtures.at, now: Fixtures.at, zone: .utc, unit: .auto)
    let dirty = renderer.render(next, style: style, into: &canvas)
    #expect(!dirty.isEmpty)
    #expect(dirty.count < 6)
    #expect(!dirty.contains(canvas.bounds))
  }

  @Test func themeChangeRedrawsEverything() throws {
    var renderer = BoardRenderer(layout: try Fixtures.bundled("glance"), painter: Painter(text: Fixtures.text()))
    var canvas = Canvas(width: 800, height: 480)
    renderer.render(Fixtures.frame(), style: Fixtures.style("orchestra", height: 480), into: &canvas)
    let dirty = renderer.render(Fixtures.frame(), style: Fixtures.style("github-light", height: 480), into: &canvas)
    #expect(dirty.contains(canvas.bounds))
    #expect(canvas.pixel(1, 1) == Fixtures.catalog.theme(id: "github-light")!.bg)
  }

  @Test func aRestoredBoardSaysSoInTheBannerBeforeAnyConnectionTrouble() throws {
    let state = Fixtures.frame(banner: true)
    #expect(state.banner?.hasPrefix("Not connected") == true)
    var restored = Fixtures.state
    Reducer.reduce(
      into: &restored,
      .connection(origin: "orchestra://build-server:50101", status: .live, at: Fixtures.at, detail: nil))
    let today = FrameModel(
      state: restored, at: Fixtures.at, now: Fixtures.at, zone: .utc, unit: .auto,
      restoredFrom: Make.t("2026-11-11T14:02:00Z"))
    #expect(today.banner == "Last known board — showing data from 14:02")
    let older = FrameModel(
      state: restored, at: Fixtures.at, now: Fixtures.at, zone: .utc, unit: .auto,
      restoredFrom: Make.t("2026-11-09T08:30:00Z"))
    #expect(older.banner == "Last known board — showing data from 9 Nov 08:30")
  }

  @Test func bannerComesAndGoes() throws {
    var renderer = BoardRenderer(layout: try Fixtures.bundled("wall"), painter: Painter(text: Fixtures.text()))
    let style = Fixtures.style("orchestra", height: 1080)
    var canvas = Canvas(width: 1920, height: 1080, background: style.theme.bg)
    #expect(Fixtures.frame(banner: true).banner == "Not connected — showing data from 14:02")
    renderer.render(Fixtures.frame(banner: true), style: style, into: &canvas)
    #expect(canvas.pixel(2, 1078) == Fixtures.catalog.semantic.warning.opaque)
    renderer.render(Fixtures.frame(banner: false), style: style, into: &canvas)
    #expect(canvas.pixel(2, 1078) == style.theme.bg)
  }

  @Test func variantsChangeSpacingAndRadii() throws {
    var canvases: [String: Canvas] = [:]
    for name in ["default", "compact", "modern"] {
      var renderer = BoardRenderer(layout: try Fixtures.single("tallies"), painter: Painter(text: Fixtures.text()))
      var style = Fixtures.style("orchestra", height: 1080)
      style.variant = Fixtures.catalog.variant(named: name)!
      var canvas = Canvas(width: 600, height: 500, background: style.theme.bg)
      renderer.render(Fixtures.frame(), style: style, into: &canvas)
      canvases[name] = canvas
    }
    #expect(canvases["default"]!.pixels != canvases["compact"]!.pixels)
    #expect(canvases["default"]!.pixels != canvases["modern"]!.pixels)
    #expect(Fixtures.style("orchestra", height: 1080).padding == 18)
  }
}

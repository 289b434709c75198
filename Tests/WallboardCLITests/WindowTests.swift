import Clock
import EventSources
import Foundation
import Glyphs
import Layout
import Raster
@_spi(Testing) import SDLDisplay
import SourceKit
import TestSupport
import Testing
import Themes
import WallboardCore
import Widgets

/// The board in a real SDL window (the dummy video driver), read back from the window.
@Suite("The board in a window", .serialized)
struct WindowTests {
  @Test func boardReadsBackFromTheWindow() throws {
    setenv("SDL_VIDEODRIVER", "dummy", 1)
    let root = Paths.repoRoot
    let catalog = try ThemeCatalog.load(directory: root.appendingPathComponent("assets/themes").path)
    let text = try TextRenderer(fontsDirectory: root.appendingPathComponent("assets/fonts").path)
    let layoutURL = root.appendingPathComponent("Layouts/wall.layout")
    let layout = try LayoutParserShim.parse(layoutURL)
    var renderer = BoardRenderer(layout: layout, painter: Painter(text: text))
    let at = Make.t("2026-11-11T15:00:00Z")
    var state = BoardState()
    for i in SimSource.inputs(team: SimulatedTeam(seed: 1), origin: "sim", through: at) {
      Reducer.reduce(into: &state, i)
    }
    let window = try SDLWindow(title: "Wallboard test", size: (960, 540), clock: .system)
    let size = window.pixelSize
    let style = Style(
      theme: catalog.theme(id: "orchestra")!, catalog: catalog, variant: catalog.variant(named: "default")!,
      unit: Double(size.height) / 1080, frameHeight: Double(size.height))
    var canvas = Canvas(width: size.width, height: size.height, background: style.theme.bg)
    let dirty = renderer.render(
      FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto), style: style, into: &canvas)
    try window.present(canvas, rects: dirty)
    let back = try window.readPixels()
    #expect(back.width == canvas.width && back.height == canvas.height)
    var differing = 0
    for y in 0..<canvas.height {
      for x in 0..<canvas.width where back.pixel(x, y) != canvas.pixel(x, y) { differing += 1 }
    }
    #expect(differing == 0)
    // And it is a board, not a blank: the accent-coloured burndown line is there.
    let accent = style.theme.accent
    var accentPixels = 0
    for y in 0..<back.height { for x in 0..<back.width where back.pixel(x, y) == accent.opaque { accentPixels += 1 } }
    #expect(accentPixels > 100)
  }
}

enum LayoutParserShim {
  static func parse(_ url: URL) throws -> LayoutFile {
    try LayoutParser.parse(
      String(contentsOf: url, encoding: .utf8), file: url.path, vocabulary: WidgetRegistry.vocabulary)
  }
}

import Raster
import TestSupport
import Testing
import Themes
import Widgets

/// The reading-distance rules of design-tokens.md, checked on everything the widgets draw.
@Suite("Legibility")
struct LegibilityTests {
  static func records(
    layout: String, theme: String, width: Int, height: Int, banner: Bool = true
  ) throws -> [Painter.Record] {
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var renderer = BoardRenderer(layout: try Fixtures.bundled(layout), painter: painter)
    let style = Fixtures.style(theme, height: height)
    var canvas = Canvas(width: width, height: height, background: style.theme.bg)
    for page in renderer.layout.pages.indices {
      renderer.show(page: page)
      renderer.render(Fixtures.filledFrame(banner: banner), style: style, into: &canvas)
    }
    return renderer.painter.records
  }

  @Test(arguments: Fixtures.catalog.themes.map(\.id))
  func contrastAndSizeInEveryTheme(theme: String) throws {
    for layout in ["wall", "tv"] {
      let records = try Self.records(layout: layout, theme: theme, width: 1920, height: 1080)
      #expect(records.count > 20)
      for r in records {
        let ratio = RGBA.contrastRatio(r.color, r.background)
        #expect(ratio >= 4.5, "\(theme) \(layout): \"\(r.text)\" at \(ratio):1")
        #expect(r.size >= 0.016 * 1080, "\(theme) \(layout): \"\(r.text)\" is \(r.size) px")
        if r.role == .key {
          #expect(r.size >= 0.04 * 1080, "\(theme) \(layout): key number \"\(r.text)\" is \(r.size) px")
        }
      }
      #expect(records.contains { $0.role == .key })
    }
  }

  @Test(arguments: ["wall", "glance", "tv", "portrait"])
  func nothingOverflowsAt800x480(layout: String) throws {
    let (w, h) = layout == "portrait" ? (480, 800) : (800, 480)
    let records = try Self.records(layout: layout, theme: "orchestra", width: w, height: h)
    for r in records {
      #expect(r.width <= r.box.width + 0.5, "\(layout): \"\(r.text)\" is \(r.width) wide in a box of \(r.box.width)")
      #expect(
        r.size <= r.box.height * 1.25 + 0.5, "\(layout): \"\(r.text)\" at \(r.size) px in a box \(r.box.height) high")
      #expect(r.size >= 0.016 * Double(h), "\(layout): \"\(r.text)\" is \(r.size) px")
    }
  }
}

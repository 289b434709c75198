import Foundation
import Layout
import Raster
import TestSupport
import Testing
import Widgets

/// Every widget at two sizes in three themes (one light), and every bundled layout at three
/// frame sizes, against goldens stored in `Goldens/`.
@Suite("Golden images")
struct GoldenTests {
  static let widgets: [(String, String)] = [
    ("header", ""), ("burndown", ""), ("burndown", "mode=burnup"), ("tallies", ""), ("progress", ""),
    ("connections", ""), ("recent", ""), ("numbers", ""),
  ]
  static let themes = ["orchestra", "github-light", "dracula"]
  /// (width, height, frame height that sets the unit)
  static let sizes = [(480, 300, 720), (960, 600, 1080)]

  @Test(arguments: widgets)
  func widget(kind: String, options: String) throws {
    let text = Fixtures.text()
    for theme in Self.themes {
      for (w, h, frameHeight) in Self.sizes {
        var renderer = BoardRenderer(layout: try Fixtures.single(kind, options: options), painter: Painter(text: text))
        let style = Fixtures.style(theme, height: frameHeight)
        var canvas = Canvas(width: w, height: h, background: style.theme.bg)
        renderer.render(Fixtures.frame(), style: style, into: &canvas)
        let suffix = options.isEmpty ? "" : "-" + options.replacingOccurrences(of: "=", with: "-")
        Golden.check(canvas, named: "widget-\(kind)\(suffix)-\(theme)-\(w)x\(h)", directory: Fixtures.goldens)
      }
    }
  }

  @Test(arguments: ["wall", "glance", "tv", "portrait"])
  func layout(name: String) throws {
    let text = Fixtures.text()
    for (w, h, factor) in [(800, 480, 1), (1920, 1080, 4), (3840, 2160, 8)] {
      let (fw, fh) = name == "portrait" ? (h, w) : (w, h)
      var renderer = BoardRenderer(layout: try Fixtures.bundled(name), painter: Painter(text: text))
      let style = Fixtures.style("orchestra", height: fh)
      var canvas = Canvas(width: fw, height: fh, background: style.theme.bg)
      renderer.render(Fixtures.filledFrame(banner: true), style: style, into: &canvas)
      Golden.check(canvas.downscaled(by: factor), named: "layout-\(name)-\(fw)x\(fh)", directory: Fixtures.goldens)
      // The page of the work in progress (aging, attention, agents), where the layout has one.
      if let work = renderer.layout.pages.firstIndex(where: { $0.name == "work" }) {
        renderer.show(page: work)
        renderer.render(Fixtures.filledFrame(banner: true), style: style, into: &canvas)
        Golden.check(
          canvas.downscaled(by: factor), named: "layout-\(name)-work-\(fw)x\(fh)", directory: Fixtures.goldens)
      }
    }
  }
}

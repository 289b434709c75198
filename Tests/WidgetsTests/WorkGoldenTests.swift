import Foundation
import Layout
import Raster
import TestSupport
import Testing
import Widgets

/// The issue-26 widgets — attention, aging, agents, and the burndown with its forecast cone — in
/// a dark, a light and a green-on-black theme at the cells they get on an 800×480, a 1920×1080
/// and a 3840×2160 screen (the last drawn at full size and stored at half), against goldens.
@Suite("Golden images of the work widgets")
struct WorkGoldenTests {
  static let widgets = ["attention", "aging", "agents", "burndown"]
  static let themes = ["orchestra", "github-light", "matrix"]
  /// (width, height, frame height that sets the unit, the factor the golden is stored at)
  static let sizes = [(400, 240, 480, 1), (800, 480, 1080, 1), (1600, 960, 2160, 2)]

  @Test(arguments: widgets)
  func widget(kind: String) throws {
    let text = Fixtures.text()
    for theme in Self.themes {
      for (w, h, frameHeight, factor) in Self.sizes {
        var renderer = BoardRenderer(layout: try Fixtures.single(kind), painter: Painter(text: text))
        let style = Fixtures.style(theme, height: frameHeight)
        var canvas = Canvas(width: w, height: h, background: style.theme.bg)
        renderer.render(Fixtures.filledFrame(), style: style, into: &canvas)
        let name = kind == "burndown" ? "burndown-forecast" : kind
        Golden.check(
          factor == 1 ? canvas : canvas.downscaled(by: factor),
          named: "widget-\(name)-\(theme)-\(w / factor)x\(h / factor)-of-\(frameHeight)", directory: Fixtures.goldens)
      }
    }
  }
}

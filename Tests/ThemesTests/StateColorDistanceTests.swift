import Foundation
import Raster
import Testing
import Themes

/// Issue 20, item 14: two states of one workflow never look alike in any theme (`solarized-light`
/// drew To do and In progress in near-identical blues). Distances are Euclidean in OKLab, where
/// equal distances look about equally different; the bar is 0.07, just under the distance between
/// the closest two of design-tokens.md's own colours in one workflow (ready-for-docs and in-docs,
/// 0.071).
@Suite("State colours are told apart")
struct StateColorDistanceTests {
  static let threshold = 0.07

  /// The built-in workflows' states (WallboardCore's `Workflow.seed` and `Workflow.upstream`).
  static let workflows: [(name: String, states: [String])] = [
    (
      "seed",
      [
        "backlog", "todo", "in-progress", "ready-for-testing", "in-testing", "ready-for-docs", "in-docs",
        "documented", "in-review", "done", "blocked", "rejected", "cancelled",
      ]
    ),
    ("upstream", ["todo", "in-progress", "in-testing", "in-docs", "in-review", "needs-edits", "done"]),
  ]

  /// OKLab (Björn Ottosson, 2020) of an sRGB colour.
  static func oklab(_ c: RGBA) -> (l: Double, a: Double, b: Double) {
    func linear(_ v: UInt8) -> Double {
      let x = Double(v) / 255
      return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }
    let (r, g, b) = (linear(c.r), linear(c.g), linear(c.b))
    let l = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
    let m = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
    let s = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
    return (
      0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s,
      1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s,
      0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s
    )
  }

  static func distance(_ x: RGBA, _ y: RGBA) -> Double {
    let (p, q) = (oklab(x), oklab(y))
    return ((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b)).squareRoot()
  }

  @Test("OKLab of known colours")
  func oklabOfKnownColours() {
    let white = Self.oklab(RGBA(r: 255, g: 255, b: 255))
    #expect(abs(white.l - 1) < 1e-4 && abs(white.a) < 1e-4 && abs(white.b) < 1e-4)
    // Ottosson's published value for sRGB red: (0.627955, 0.224863, 0.125846).
    let red = Self.oklab(RGBA(r: 255, g: 0, b: 0))
    #expect(abs(red.l - 0.627_955) < 1e-4 && abs(red.a - 0.224_863) < 1e-4 && abs(red.b - 0.125_846) < 1e-4)
    #expect(Self.distance(RGBA(hex: "#14b8a6")!, RGBA(hex: "#06b6d4")!) > Self.threshold)
  }

  @Test("every two states of a workflow are at least 0.07 apart in every theme")
  func everyPairIsDistinct() throws {
    let catalog = try Fixtures.loadCatalog()
    for theme in catalog.themes {
      for workflow in Self.workflows {
        for (i, x) in workflow.states.enumerated() {
          for y in workflow.states[(i + 1)...] {
            // The table gives some states one colour on purpose (backlog and cancelled, documented
            // and done, blocked and rejected): those are one meaning, drawn alike.
            let (sx, sy) = (catalog.stateColors.listed[x], catalog.stateColors.listed[y])
            if sx == sy, catalog.stateColors.perTheme[theme.id]?[x] == catalog.stateColors.perTheme[theme.id]?[y] {
              continue
            }
            let (cx, cy) = (catalog.color(forState: x, theme: theme), catalog.color(forState: y, theme: theme))
            let d = Self.distance(cx, cy)
            #expect(
              d >= Self.threshold,
              "\(theme.id), \(workflow.name) workflow: \(x) \(cx.hex) and \(y) \(cy.hex) are \(d) apart")
          }
        }
      }
    }
  }

  @Test("solarized-light's In progress is its syntax palette's purple, far from To do")
  func solarizedLight() throws {
    let catalog = try Fixtures.loadCatalog()
    let theme = try #require(catalog.theme(id: "solarized-light"))
    let inProgress = catalog.color(forState: "in-progress", theme: theme)
    #expect(inProgress == catalog.palette(for: theme).purple)
    #expect(Self.distance(inProgress, catalog.color(forState: "todo", theme: theme)) > 0.1)
  }
}

import Clock
import Foundation
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

@testable import Runtime
@testable import WallboardCLI

/// The diagnostics panel (and a reload error in it) never covers the header's clock or the
/// "Not connected" banner: in every bundled layout and page, at 800x480, 1080p and 4K, in every
/// rotation, with the banner and without. Where the clock and the banner are is read from what
/// the board drew (the painter's records), not from the code that places the panel.
@Suite("Overlays keep clear of the clock and the banner")
struct OverlayTests {
  static var layouts: [String] {
    let dir = Paths.repoRoot.appendingPathComponent("Layouts")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    return names.filter { $0.hasSuffix(".layout") }.map { String($0.dropLast(7)) }.sorted()
  }
  static let screens = [(800, 480), (1920, 1080), (3840, 2160)]
  static let rotations = [0, 90, 180, 270]
  static let bannerText = "Not connected — showing data from 14:02"

  @Test func theBundledLayoutsAreFound() {
    #expect(Set(["glance", "portrait", "tv", "wall"]).isSubset(of: Self.layouts), "\(Self.layouts)")
  }

  /// Placement on its own: below what it avoids, then on the left, never into the banner.
  @Test func placementGoesDownTheRightThenTheLeft() {
    let bounds = Rect(x: 0, y: 0, width: 400, height: 300)
    let clock = Rect(x: 250, y: 10, width: 140, height: 80)
    let banner = Rect(x: 0, y: 260, width: 400, height: 40)
    let below = Diagnostics.place(width: 100, height: 50, in: bounds, avoiding: [clock, banner], margin: 10)
    #expect(below == Rect(x: 290, y: 100, width: 100, height: 50))
    let left = Diagnostics.place(width: 100, height: 200, in: bounds, avoiding: [clock, banner], margin: 10)
    #expect(left == Rect(x: 10, y: 10, width: 100, height: 200))
    let wide = Diagnostics.place(width: 300, height: 200, in: bounds, avoiding: [clock, banner], margin: 10)
    #expect(wide == nil, "no place is clear of both")
    #expect(Diagnostics.place(width: 100, height: 50, in: bounds, avoiding: [], margin: 10)?.minY == 10)
  }

  /// The panel draws nothing outside the rectangle it reports (the run loop presents only that).
  @Test func thePanelCoversOnlyItsRectangle() throws {
    var scene = try Scene.load(Options(), resources: Resources(root: Paths.repoRoot.path))
    let at = Make.t("2026-11-11T15:00:00Z")
    var canvas = Canvas(width: 960, height: 540, background: scene.theme.bg)
    _ = scene.draw(FrameModel(state: BoardState(), at: at, now: at, zone: .utc, unit: .auto), into: &canvas)
    let before = canvas
    var diagnostics = Diagnostics(enabled: true, clock: TestClock().clock)
    diagnostics.reloadMessage = "Reload failed: mine.layout:4: unknown widget \"clock\""
    let panel = diagnostics.draw(on: &canvas, scene: &scene, bannerShown: false)
    #expect(!panel.isEmpty)
    var outside = 0
    for y in 0..<canvas.height {
      for x in 0..<canvas.width where canvas.pixel(x, y) != before.pixel(x, y) {
        if x < panel.x || x >= panel.maxX || y < panel.y || y >= panel.maxY { outside += 1 }
      }
    }
    #expect(outside == 0, "\(outside) pixels changed outside \(panel)")
  }

  @Test(arguments: layouts)
  func thePanelAvoidsTheClockAndTheBanner(_ layout: String) throws {
    var options = Options()
    options.layout = layout
    var scene = try Scene.load(options, resources: Resources(root: Paths.repoRoot.path))
    var diagnostics = Diagnostics(enabled: true, clock: TestClock().clock)
    diagnostics.reloadMessage =
      "Reload failed: /etc/wallboard/wallboard.conf:12: --theme: \"neon\" is not one of orchestra, dracula, "
      + "github-dark, github-light, monokai-pro, nord, one-dark, solarized-dark, solarized-light"
    var checked = Set<[Int]>()
    for (width, height) in Self.screens {
      for rotation in Self.rotations {
        let size = Screen(width: width, height: height, rotation: rotation).canvasSize
        // 0 and 180, 90 and 270 draw the same canvas.
        guard checked.insert([size.width, size.height]).inserted else { continue }
        for banner in [nil, Self.bannerText] {
          for page in scene.renderer.layout.pages.indices {
            let what =
              "\(layout) page \(page) on \(width)x\(height) turned \(rotation)°\(banner == nil ? "" : " with the banner")"
            try check(what, &scene, diagnostics, width: size.width, height: size.height, page: page, banner: banner)
          }
        }
      }
    }
  }

  /// Draws one frame with the panel and checks where it went.
  func check(
    _ what: String, _ scene: inout Scene, _ diagnostics: Diagnostics, width: Int, height: Int, page: Int,
    banner: String?
  ) throws {
    let at = Make.t("2026-11-11T15:00:00Z")
    var frame = FrameModel(state: BoardState(), at: at, now: at, zone: .utc, unit: .auto)
    frame.banner = banner
    var canvas = Canvas(width: width, height: height, background: scene.theme.bg)
    scene.renderer.show(page: page)
    scene.renderer.invalidate()
    scene.renderer.painter.records = []
    scene.renderer.painter.recording = true
    defer { scene.renderer.painter.recording = false }
    _ = scene.draw(frame, into: &canvas)
    let drawn = scene.renderer.painter.records
    let panel = Self.panel(diagnostics, on: &canvas, scene: &scene, banner: banner)

    #expect(!panel.isEmpty, "\(what): the panel found no place")
    let clock = drawn.filter { $0.text == frame.header.clock || $0.text == frame.header.day }
    let hasHeader = scene.renderer.layout.pages[page].widgets.contains { $0.kind == "header" }
    #expect(clock.count == (hasHeader ? 2 : 0), "\(what): \(clock.map(\.text))")
    for r in clock {
      #expect(!Self.overlap(panel, r.box), "\(what): the panel \(panel) covers \"\(r.text)\" at \(r.box)")
    }
    if banner != nil {
      // (Fitted with an ellipsis on a narrow canvas.)
      let strip = try #require(drawn.first { $0.text.hasPrefix("Not connected") }, "\(what): no banner").box
      // The banner runs the whole width: the panel must end above it.
      #expect(
        panel.y + panel.height <= Int(strip.minY.rounded(.down)),
        "\(what): the panel \(panel) reaches the banner at y \(strip.minY)")
    }
    #expect(panel.x >= 0 && panel.y >= 0 && panel.maxX <= width && panel.maxY <= height, "\(what): \(panel)")
  }

  /// Draws the panel the way the run loop does; returns its rectangle.
  static func panel(_ d: Diagnostics, on canvas: inout Canvas, scene: inout Scene, banner: String?) -> IRect {
    d.draw(on: &canvas, scene: &scene, bannerShown: banner != nil)
  }

  static func overlap(_ a: IRect, _ b: Rect) -> Bool {
    Double(a.x) < b.maxX && b.minX < Double(a.maxX) && Double(a.y) < b.maxY && b.minY < Double(a.maxY)
  }
}

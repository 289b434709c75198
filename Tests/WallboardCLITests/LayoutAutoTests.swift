import Foundation
import TestSupport
import Testing
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// `--layout auto` picks the layout for the screen's shape; a layout that cannot show its text
/// on the screen is refused, naming one that fits.
@Suite("Layouts for the screen")
struct LayoutAutoTests {
  static func snapshot(_ args: [String]) throws -> (code: Int32, err: String, png: Data?) {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: out) }
    let r = Captured.run(
      ["snapshot", "--source", "sim", "--at", "2026-11-11T15:00:00Z", "--tz", "UTC", "--out", out.path] + args)
    return (r.code, r.err, try? Data(contentsOf: out))
  }

  @Test func theWallOnAPortraitScreenIsRefusedWithASuggestion() throws {
    let r = try Self.snapshot(["--layout", "wall", "--size", "1080x1920"])
    #expect(r.code == 2)
    #expect(r.err.contains("layout wall cannot show its text on a 1080x1920 screen"), "\(r.err)")
    #expect(r.err.contains("try --layout portrait"), "\(r.err)")
    #expect(r.png == nil)
  }

  @Test func aTurnedScreenIsJudgedByItsTurnedShape() throws {
    let r = try Self.snapshot(["--layout", "wall", "--size", "1920x1080", "--rotate", "90"])
    #expect(r.code == 2, "\(r.err)")
    #expect(r.err.contains("on a 1080x1920 screen"), "\(r.err)")
  }

  @Test(arguments: [("1080x1920", "portrait"), ("1920x1080", "wall"), ("800x480", "wall"), ("1200x1600", "portrait")])
  func autoPicksByShape(size: String, layout: String) throws {
    let auto = try Self.snapshot(["--layout", "auto", "--size", size])
    let named = try Self.snapshot(["--layout", layout, "--size", size])
    #expect(auto.code == 0, "\(auto.err)")
    #expect(auto.png != nil && auto.png == named.png)
  }

  @Test(arguments: ["wall", "tv", "glance"])
  func aLandscapeLayoutFitsTheLandscapeScreens(layout: String) throws {
    for size in ["1920x1080", "1280x720", "800x480", "3840x2160"] {
      #expect(try Self.snapshot(["--layout", layout, "--size", size]).code == 0, "\(layout) \(size)")
    }
  }

  @Test func withAutoEveryBundledLayoutIsWatchedForReload() throws {
    var options = try ArgumentParser.parse([])
    options.commandLine = []
    let resources = Resources(root: Paths.repoRoot.path)
    #expect(ReloadWatch.watched(options, resources: resources).contains(resources.layouts))
    options.layout = "tv"
    #expect(ReloadWatch.watched(options, resources: resources).contains(resources.layouts + "/tv.layout"))
  }
}

import Clock
import Displays
import Foundation
import Raster
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// Issue 9, item 7: `--size 16384x16384` was accepted and took 2.6 GB. Frames are capped at
/// 7680 a side and 7680 × 4320 pixels in all; beyond, a usage error that says the cap.
@Suite("The frame cap")
struct FrameCapTests {
  @Test(arguments: [
    ["--size", "16384x16384"], ["--size", "7681x16"], ["--size", "16x7681"], ["--size", "7680x4321"],
    ["--size", "6000x6000"], ["--size", "9223372036854775807x9223372036854775807"], ["--size", "1920x1080x"],
    ["--fb-geometry", "16384x16384x32"], ["--fb-geometry", "7680x4321x32"], ["--fb-geometry", "7681x1x16"],
  ])
  func sizesOverTheCapAreUsageErrors(_ args: [String]) {
    let r = Captured.run(["snapshot", "--out", "/nonexistent/never-written.png"] + args)
    #expect(r.code == 2, "\(args): \(r.err)")
    #expect(r.err.contains(args[0]) && r.err.contains("7680"), "\(r.err)")
  }

  @Test(arguments: [("7680x4320", 7680, 4320), ("4320x7680", 4320, 7680), ("16x16", 16, 16), ("7680x16", 7680, 16)])
  func sizesWithinTheCapAreAccepted(_ text: String, _ w: Int, _ h: Int) throws {
    let o = try ArgumentParser.parse(["--size", text, "--fb-geometry", text + "x32"])
    #expect(o.size?.width == w && o.size?.height == h)
    #expect(o.fbGeometry?.width == w && o.fbGeometry?.height == h)
  }

  /// For `term`, `--size` counts cells, each two canvas pixels high at least.
  @Test func tooManyCellsForTheTerminalIsAUsageError() throws {
    var o = try ArgumentParser.parse(["--display", "term", "--size", "7680x4000"])
    o.display = TerminalKind.Terminal()
    #expect(throws: CLIError.self) {
      _ = try o.openDisplay(environment: [:], console: Captured().console, clock: .system)
    }
  }
}

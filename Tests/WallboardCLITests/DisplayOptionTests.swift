import Displays
import Testing

@testable import Runtime
@testable import WallboardCLI

/// `--display` and `--mode` on the command line: what is taken, and what is refused before
/// anything starts.
@Suite struct DisplayOptionTests {
  @Test func theKernelDisplaysAreNamedAndModesParsed() throws {
    #expect(try ArgumentParser.parse(["run", "--display", "drm"]).display.name == "drm")
    #expect(try ArgumentParser.parse(["run", "--display", "drm:/dev/dri/card1"]).display.name == "drm:/dev/dri/card1")
    #expect(try ArgumentParser.parse(["run", "--display", "console"]).display.name == "console")
    let o = try ArgumentParser.parse(["run", "--display", "drm", "--mode", "1920x1080@60"])
    #expect(o.mode?.description == "1920x1080@60")
    for bad in ["drm:", "fb:", "kms"] {
      #expect(throws: CLIError.self) { try ArgumentParser.parse(["run", "--display", bad]) }
    }
  }

  @Test func aBadModeIsAUsageErrorThatSaysTheForm() {
    let r = Captured.run(["run", "--display", "drm", "--mode", "1920x1080@0"])
    #expect(r.code == 2)
    #expect(r.err.contains("--mode: \"1920x1080@0\" is not WxH or WxH@HZ"), "\(r.err)")
  }

  @Test(arguments: ["fb", "sdl", "term", "text", "png:/tmp/board.png"])
  func modeWithADisplayThatIsNeverDRMIsRefusedBeforeItStarts(_ display: String) {
    let r = Captured.run(["run", "--display", display, "--mode", "640x480", "--no-journal"])
    #expect(r.code == 2)
    #expect(r.err.hasPrefix("wallboard: --mode is for --display drm"), "\(r.err)")
  }
}

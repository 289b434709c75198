import Foundation
import Kiosk
import TestSupport
import Testing
import WallboardCLI

/// Issue 9, item 14: `theme dracula\r\nlayout tv\r\n` was read as one line, so the board was
/// asked for the theme "dracula\nlayout tv".
@Suite("Config files with CRLF")
struct ConfigCRLFTests {
  @Test func aCRLFConfigIsReadLineByLine() throws {
    let o = try ArgumentParser.applyConfig("theme dracula\r\nlayout tv\r\n", file: "k.conf", under: [])
    #expect(o.theme == "dracula")
    #expect(o.layout == "tv")
    let mixed = try ArgumentParser.applyConfig(
      "# kiosk\r\ntheme = nord\nunit count\r\n\r\nnight mon-fri 19:00-07:30 dim=20\r\ntz UTC", file: "k.conf", under: []
    )
    let rule = try NightSchedule.parse(rule: "mon-fri 19:00-07:30 dim=20")
    #expect(mixed.theme == "nord" && mixed.unit == .count && mixed.night == [rule])
    #expect(mixed.timeZone?.identifier == "UTC")
  }

  @Test func errorsInACRLFConfigNameTheirLine() {
    do {
      _ = try ArgumentParser.applyConfig("theme dracula\r\n\r\nunit hours\r\n", file: "k.conf", under: [])
      Issue.record("expected an error")
    } catch {
      #expect(error.description.contains("k.conf:3: --unit: \"hours\""), "\(error.description)")
    }
  }

  /// The reproduction, through the command.
  @Test func snapshotWithACRLFConfig() throws {
    let dir = try TempDir()
    let config = dir.url.appendingPathComponent("wallboard.conf")
    try "theme dracula\r\nlayout tv\r\nsize 320x200\r\n".write(to: config, atomically: true, encoding: .utf8)
    let r = Captured.run(["snapshot", "--config", config.path, "--out", dir.url.appendingPathComponent("b.png").path])
    #expect(r.code == 0, "\(r.err)")
  }
}

import Displays
import Foundation
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// `--display auto` says which display it took and why (issue 20, item 13).
@Suite("What auto chooses, and why")
struct AutoDisplayTests {
  typealias F = AutoDisplay.Findings

  @Test func eachFindingLeadsToItsDisplayAndSaysWhy() {
    #expect(
      AutoDisplay.choose(F(displayServer: "DISPLAY=:0", consoleDevice: "/dev/dri/card0", stdoutIsTerminal: true))
        == AutoDisplay(choice: "sdl", reason: "DISPLAY=:0 names a display server"))
    #expect(
      AutoDisplay.choose(F(displayServer: nil, consoleDevice: "/dev/dri/card0", stdoutIsTerminal: true))
        == AutoDisplay(choice: "console", reason: "no display server; /dev/dri/card0 can be written"))
    let term = AutoDisplay.choose(F(displayServer: nil, consoleDevice: nil, stdoutIsTerminal: true))
    #expect(
      term.line
        == "wallboard: display term (no display server, no DRM device or writable framebuffer; standard output is a terminal)"
    )
    #expect(
      AutoDisplay.choose(F(displayServer: nil, consoleDevice: nil, stdoutIsTerminal: false))
        == AutoDisplay(
          choice: "text",
          reason: "no display server, no DRM device or writable framebuffer; standard output is not a terminal"))
    #expect(
      AutoDisplay.choose(F(displayServer: "DISPLAY=:9", consoleDevice: nil, stdoutIsTerminal: false), serverFailed: "x")
        .reason.hasPrefix("DISPLAY=:9 could not be used, no DRM device"))
  }

  /// The process says it on stderr, once, for the display it opened (here, with no display
  /// server and standard output a pipe: the text board, unless this machine has a console
  /// device the board may write).
  @Test func runSaysOnStderrWhichDisplayItTook() throws {
    let p = Process()
    p.executableURL = Paths.binary
    p.arguments = ["run", "--display", "auto", "--source", "sim", "--tz", "UTC", "--no-journal"]
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    _ = out.read(seconds: 20) { $0.contains("Progress:") || $0.count > 4096 }
    p.terminate()
    Deadline.wait(for: p, timeout: 30)
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 10), as: UTF8.self)
    let lines = message.split(separator: "\n").filter { $0.hasPrefix("wallboard: display ") }
    #expect(lines.count == 1, "\(message)")
    #expect(lines.first?.contains("(no display server") == true, "\(message)")
  }
}

import Foundation
import TestSupport
import Testing

/// The board and the window manager started at the same moment, as an `.xinitrc` does: SDL's
/// show used to wait for a map that the starting window manager had dropped, leaving an unmapped
/// window, a black screen and a board deaf to SIGTERM (9 of 12 starts under Xvfb and openbox).
@Suite("The board and a window manager started together", .serialized)
struct WindowManagerRaceTests {
  @Test(arguments: 1...6)
  func everyStartEndsMappedFullScreenAndDrawn(_ start: Int) throws {
    let x = try XServer(width: 1024, height: 600)
    defer { x.stop() }
    let board = try BoardProcess(
      ["run", "--display", "sdl", "--source", "sim", "--tz", "UTC", "--no-journal"], environment: x.environment)
    defer { board.stop() }
    try x.startWindowManager()
    let mapped = try x.waitForWindow(named: "Wallboard", timeout: 15) { $0.viewable }
    #expect(mapped.held, "start \(start): \(mapped.last.map(String.init(describing:)) ?? "no window"); \(board.errors)")
    let full = try x.waitForWindow(named: "Wallboard", timeout: 5) {
      $0.viewable && $0.x == 0 && $0.y == 0 && $0.width == 1024 && $0.height == 600
    }
    // About one start in six the window manager that starts with the board adopts the window
    // as an ordinary one (framed, 1024x600+1+20): the board sees it and asks for full screen again.
    #expect(full.held, "start \(start): \(full.last.map(String.init(describing:)) ?? "no window"); \(board.errors)")
    // Drawn: the screen is not black (the board's background and text are lighter). The first
    // frame may follow the map by a moment: look again for up to 10 s.
    var brightness = 0.0
    var grab = ""
    for _ in 0..<20 {
      let mean = try Command.run(
        URL(fileURLWithPath: "/usr/bin/env"),
        [
          Python.interpreter, "-c",
          "import os; from PIL import ImageGrab, ImageStat; "
            + "print(ImageStat.Stat(ImageGrab.grab(xdisplay=os.environ['DISPLAY']).convert('L')).mean[0])",
        ], environment: x.environment, timeout: 30)
      grab = mean.out + mean.err
      brightness = Double(mean.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      if brightness > 5 { break }
      usleep(500_000)
    }
    #expect(brightness > 5, "start \(start): the screen stayed black (\(grab)); \(board.errors)")
    board.terminate()
    #expect(board.waitForExit(timeout: 1), "SIGTERM: still running after 1 s")
    #expect(board.status == 0)
  }

  /// SIGTERM in the window's first moments, before any map could have been seen, ends the
  /// board promptly with status 0.
  @Test(arguments: [0.0, 0.05, 0.2, 0.5])
  func sigtermBeforeTheMapExitsPromptly(_ after: Double) throws {
    let x = try XServer(width: 800, height: 600)
    defer { x.stop() }
    let board = try BoardProcess(
      ["run", "--display", "sdl", "--source", "sim", "--tz", "UTC", "--no-journal"], environment: x.environment)
    defer { board.stop() }
    try x.startWindowManager()
    Thread.sleep(forTimeInterval: after)
    // The window exists (the board is past SDL's window creation) before the signal goes.
    _ = try x.waitForWindow(named: "Wallboard", timeout: 10) { _ in true }
    board.terminate()
    #expect(board.waitForExit(timeout: 1.5), "SIGTERM \(after) s after the start: still running")
    #expect(board.status == 0, "\(board.errors)")
  }
}

import Foundation
import TestSupport
import Testing

/// The real executable in an SDL window on an X server of the test's own (Xvfb), read back with
/// `xwininfo`: full screen with or without a window manager, `f` toggling, and a clear error when
/// there is no display server.
@Suite("Fullscreen on X", .serialized)
struct FullscreenTests {
  /// A screen size, and whether a window manager runs on it.
  struct Screen: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var windowManager: Bool
    var testDescription: String { "\(width)x\(height) \(windowManager ? "with openbox" : "with no window manager")" }
  }

  @Test(arguments: [
    Screen(width: 1280, height: 720, windowManager: false),
    Screen(width: 1024, height: 600, windowManager: false),
    Screen(width: 1280, height: 720, windowManager: true),
  ])
  func theBoardFillsTheScreenAndFTogglesIt(_ screen: Screen) throws {
    let x = try XServer(width: screen.width, height: screen.height)
    defer { x.stop() }
    if screen.windowManager { try x.startWindowManager() }
    let board = try BoardProcess(
      ["run", "--display", "sdl", "--source", "sim", "--tz", "UTC"], environment: x.environment)
    defer { board.stop() }

    func fillsTheScreen(_ w: XServer.Window) -> Bool {
      w.viewable && w.x == 0 && w.y == 0 && w.width == screen.width && w.height == screen.height
    }
    let full = try x.waitForWindow(named: "Wallboard", until: fillsTheScreen)
    #expect(full.held, "the window is \(full.last.map(String.init(describing:)) ?? "not there"); \(board.errors)")
    guard full.held, let window = full.last else { return }

    // `f`: a window of two thirds of the screen; `f` again: the whole screen once more. The same
    // X window throughout (SDL recreates it for an OpenGL framebuffer unless told not to).
    try x.type("f", into: window)
    let windowed = try x.waitForWindow(named: "Wallboard") {
      $0.viewable && $0.width == screen.width * 2 / 3 && $0.height == screen.height * 2 / 3
    }
    #expect(windowed.held, "after f the window is \(windowed.last.map(String.init(describing:)) ?? "gone")")
    try x.type("f", into: window)
    let again = try x.waitForWindow(named: "Wallboard", until: fillsTheScreen)
    #expect(again.held, "after f twice the window is \(again.last.map(String.init(describing:)) ?? "gone")")
    #expect(again.last?.id == window.id)
    #expect(board.isRunning, "\(board.errors)")
  }

  /// No `DISPLAY` at all, or one naming a server that is not there: SDL would fall back to its
  /// invisible offscreen driver; the board says so and exits instead.
  @Test(arguments: [nil, XServer.unusedDisplay()])
  func sdlWithNoDisplayServerIsAClearError(_ display: String?) throws {
    var environment = ["PATH": "/usr/bin:/bin"]
    if let display { environment["DISPLAY"] = display }
    let board = try BoardProcess(["run", "--display", "sdl", "--source", "sim"], environment: environment)
    defer { board.stop() }
    let exited = board.waitForExit(timeout: 20)
    #expect(exited, "the board is still running, invisibly")
    guard exited else { return }
    #expect(board.status == 1)
    #expect(board.errors.contains("wallboard: no display server for --display sdl"), "\(board.errors)")
    #expect(board.errors.contains("--display fb"), "the message says what to do instead: \(board.errors)")
  }
}

/// The `wallboard` executable running in the background, its standard error kept in a file.
final class BoardProcess {
  private let process = Process()
  private let errorFile: URL

  init(_ arguments: [String], environment: [String: String]) throws {
    errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    process.executableURL = KioskRunTests.binary
    process.arguments = arguments
    process.environment = environment.merging(["WALLBOARD_HOME": Paths.repoRoot.path]) { a, _ in a }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
  }

  deinit { stop() }

  var isRunning: Bool { process.isRunning }
  var status: Int32 { process.terminationStatus }
  /// What it wrote to standard error so far.
  var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

  /// Waits up to `timeout` seconds for the process to end; whether it did.
  func waitForExit(timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    return !process.isRunning
  }

  /// Sends SIGTERM (no more); for a test that checks how the board takes it.
  func terminate() { process.terminate() }

  /// Stops it (SIGTERM, SIGKILL after 2 s, never an endless wait) and removes its error file.
  func stop() {
    Command.stop(process)
    try? FileManager.default.removeItem(at: errorFile)
  }
}

import Clock
import Foundation
import PNG
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

@testable import Runtime
@testable import WallboardCLI

/// `snapshot --size S --rotate R` is what `run` shows on a screen of size S: the same size, and
/// the same pixels as the run loop's way from a drawn board to the screen.
@Suite("A screen of size S under rotation R")
struct ScreenTests {
  static let sizes = [(1080, 1920), (800, 480)].map { Size(width: $0.0, height: $0.1) }
  static let rotations = [0, 90, 180, 270]
  static let at = "2026-11-11T15:00:00Z"

  struct Size: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var testDescription: String { "\(width)x\(height)" }
  }

  /// A snapshot of the simulated team at `at`, read back.
  static func snapshot(_ size: Size, rotate: Int, layout: String = "auto") throws -> Canvas {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-screen-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: out) }
    let r = Captured.run([
      "snapshot", "--source", "sim:seed=1", "--at", at, "--tz", "UTC", "--layout", layout,
      "--size", "\(size.width)x\(size.height)", "--rotate", "\(rotate)", "--out", out.path,
    ])
    try #require(r.code == 0, "\(r.err)")
    return try PNG.read(path: out.path)
  }

  @Test(arguments: sizes, rotations)
  func aSnapshotHasTheScreensSizeAndWhatTheRunLoopWouldShow(_ size: Size, _ rotate: Int) throws {
    let png = try Self.snapshot(size, rotate: rotate)
    #expect(png.width == size.width && png.height == size.height, "\(png.width)x\(png.height)")

    // What `run` presents on that screen: the board drawn on the screen's canvas, then turned.
    var options = try ArgumentParser.parse(["--source", "sim:seed=1", "--at", Self.at, "--tz", "UTC"])
    options.commandLine = []
    let screen = Screen(width: size.width, height: size.height, rotation: rotate)
    var scene = try Scene.load(options, resources: Resources(root: Paths.repoRoot.path), board: screen.canvasSize)
    let load = try FiniteLoad.load(options, now: Make.t("2026-11-20T00:00:00Z"), clock: .system)
    let frame = FrameModel(
      state: load.state, at: load.at, now: Make.t("2026-11-20T00:00:00Z"), zone: .utc, unit: .auto)
    var board = Canvas(width: screen.canvasSize.width, height: screen.canvasSize.height, background: scene.theme.bg)
    _ = scene.draw(frame, into: &board)
    let shown = screen.frame(for: board, background: scene.theme.bg)
    #expect(shown.width == size.width && shown.height == size.height)
    // (Compared first: #expect would print both million-pixel arrays when they differ.)
    let same = shown.pixels == png.pixels
    #expect(same, "the snapshot differs from what the run loop would present")
  }

  /// A board turned a quarter is the upright board of the other shape, turned: rotation turns the
  /// board, it does not lay it out again for the screen's shape.
  @Test(arguments: [90, 270])
  func aQuarterTurnIsTheOtherShapeTurned(_ rotate: Int) throws {
    let portrait = try Self.snapshot(Size(width: 1080, height: 1920), rotate: rotate)
    let landscape = try Self.snapshot(Size(width: 1920, height: 1080), rotate: 0)
    let same = landscape.rotated(degrees: rotate).pixels == portrait.pixels
    #expect(same, "\(portrait.width)x\(portrait.height) is not the \(landscape.width)x\(landscape.height) board turned")
  }

  @Test(arguments: sizes, rotations)
  func theCanvasIsTheScreenTurnedBack(_ size: Size, _ rotate: Int) {
    let screen = Screen(width: size.width, height: size.height, rotation: rotate)
    let canvas = Canvas(width: screen.canvasSize.width, height: screen.canvasSize.height)
    #expect(canvas.rotated(degrees: rotate).width == size.width)
    #expect(canvas.rotated(degrees: rotate).height == size.height)
  }

  /// The real `run` on a `png:` display of size S rotated by R writes an S-sized PNG.
  @Test(arguments: [0, 90])
  func runWritesTheScreensSize(_ rotate: Int) throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-run-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: out) }
    let board = try BoardProcess(
      ["run", "--display", "png:\(out.path)", "--size", "1080x1920", "--rotate", "\(rotate)", "--source", "sim"],
      environment: ["PATH": "/usr/bin:/bin"])
    defer { board.stop() }
    var png: Canvas?
    let deadline = Date().addingTimeInterval(30)
    while png == nil && Date() < deadline && board.isRunning {
      png = try? PNG.read(path: out.path)
      if png == nil { Thread.sleep(forTimeInterval: 0.05) }
    }
    let shown = try #require(png, "no PNG from run: \(board.errors)")
    #expect(shown.width == 1080 && shown.height == 1920, "\(shown.width)x\(shown.height)")
  }
}

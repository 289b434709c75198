import Clock
import Foundation
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

@testable import Runtime
@testable import WallboardCLI

/// Hot reload: a changed layout appears in the next frame; a broken one keeps the old and says why.
@Suite("Hot reload")
struct ReloadTests {
  /// A layout file of one progress widget, its scene and a reload watch on it.
  static func watchedLayout() throws -> (dir: TempDir, file: URL, scene: Scene, watch: ReloadWatch) {
    let dir = try TempDir("wallboard-reload")
    let file = dir.url.appendingPathComponent("mine.layout")
    try "name = mine\ndescription = one\ngrid = 1 x 1\nprogress 0 0 1 1\n".write(
      to: file, atomically: true, encoding: .utf8)
    var options = Options()
    options.layout = file.path
    let resources = Resources(root: Paths.repoRoot.path)
    return (
      dir, file, try Scene.load(options, resources: resources),
      ReloadWatch(options: options, resources: resources, clock: .system)
    )
  }

  @Test func changedLayoutAppearsAndBrokenOneIsRefused() throws {
    var (dir, file, scene, watch) = try Self.watchedLayout()
    _ = dir
    #expect(scene.renderer.layout.pages[0].widgets.map(\.kind) == ["progress"])

    let at = Make.t("2026-11-06T12:00:00Z")
    let frame = FrameModel(state: BoardState(), at: at, now: at, zone: .utc, unit: .auto)
    var canvas = Canvas(width: 640, height: 360)
    _ = scene.draw(frame, into: &canvas)

    try "name = mine\ndescription = two\ngrid = 1 x 1\ntallies 0 0 1 1\n".write(
      to: file, atomically: true, encoding: .utf8)
    #expect(watch.check(&scene, force: true) == "")
    #expect(scene.renderer.layout.pages[0].widgets.map(\.kind) == ["tallies"])
    let before = canvas.pixels
    let dirty = scene.draw(frame, into: &canvas)
    #expect(dirty.contains(canvas.bounds), "the next frame is drawn in full, with the new layout")
    #expect(canvas.pixels != before)

    try "name = mine\ndescription = broken\ngrid = 1 x 1\nclock 0 0 1 1\n".write(
      to: file, atomically: true, encoding: .utf8)
    let message = watch.check(&scene, force: true)
    #expect(message?.contains("mine.layout:4: unknown widget \"clock\"") == true, "\(message ?? "nil")")
    #expect(scene.renderer.layout.pages[0].widgets.map(\.kind) == ["tallies"], "the old layout is kept")
  }

  @Test func aSavedLayoutIsReloadedWithoutASignal() throws {
    var (dir, file, scene, watch) = try Self.watchedLayout()
    _ = dir
    #expect(watch.check(&scene) == nil, "nothing changed")
    // Saved as editors do: a new file renamed over the old.
    try "name = mine\ndescription = two\ngrid = 1 x 1\ntallies 0 0 1 1\n".write(
      to: file, atomically: true, encoding: .utf8)
    let end = Date().addingTimeInterval(5)
    var message: String?
    while message == nil && Date() < end {
      message = watch.check(&scene)
      if message == nil { Thread.sleep(forTimeInterval: 0.02) }
    }
    #expect(message == "")
    #expect(scene.renderer.layout.pages[0].widgets.map(\.kind) == ["tallies"])
    // Written in place this time, and broken: seen too, and refused.
    let h = try FileHandle(forWritingTo: file)
    try h.truncate(atOffset: 0)
    h.write(Data("name = mine\ndescription = broken\ngrid = 1 x 1\nclock 0 0 1 1\n".utf8))
    try h.close()
    message = nil
    while message == nil && Date() < end.addingTimeInterval(5) {
      message = watch.check(&scene)
      if message == nil { Thread.sleep(forTimeInterval: 0.02) }
    }
    #expect(message?.contains("mine.layout:4: unknown widget \"clock\"") == true, "\(message ?? "nil")")
  }

  /// A config file, the options `run` would start with under it, and a watch on it.
  struct Configured {
    let file: URL
    let resources = Resources(root: Paths.repoRoot.path)
    var scene: Scene
    var watch: ReloadWatch

    init(_ text: String) throws {
      file = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-\(UUID().uuidString).conf")
      try text.write(to: file, atomically: true, encoding: .utf8)
      let args = ["run", "--config", file.path]
      var options = try ArgumentParser.applyConfig(text, file: file.path, under: args)
      options.commandLine = args
      scene = try Scene.load(options, resources: resources)
      watch = ReloadWatch(options: options, resources: resources, clock: .system)
    }

    /// Saves `text` as the config and reloads; returns what the reload said.
    mutating func save(_ text: String) throws -> String? {
      try text.write(to: file, atomically: true, encoding: .utf8)
      return watch.check(&scene, force: true)
    }
  }

  @Test func aChangedThemeInTheConfigIsApplied() throws {
    var c = try Configured("theme orchestra\nlayout wall\n")
    defer { try? FileManager.default.removeItem(at: c.file) }
    #expect(c.scene.theme.id == "orchestra")
    #expect(try c.save("theme dracula\nlayout wall\n") == "")
    #expect(c.scene.theme.id == "dracula")
    #expect(c.watch.latest.theme == "dracula")

    // The next frame is drawn in the new theme.
    let at = Make.t("2026-11-06T12:00:00Z")
    var canvas = Canvas(width: 640, height: 360)
    _ = c.scene.draw(FrameModel(state: BoardState(), at: at, now: at, zone: .utc, unit: .auto), into: &canvas)
    let dracula = try #require(c.scene.catalog.theme(id: "dracula"))
    #expect(canvas.pixel(1, 1) == dracula.bg.opaque)
  }

  @Test func aThemeChosenWithAKeyStaysUntilTheConfigChangesTheTheme() throws {
    var c = try Configured("theme orchestra\nvariant default\n")
    defer { try? FileManager.default.removeItem(at: c.file) }
    c.scene.cycleTheme(1)
    let chosen = c.scene.theme.id
    #expect(chosen != "orchestra")
    // Another option changes: the key's choice stays.
    #expect(try c.save("theme orchestra\nvariant compact\n") == "")
    #expect(c.scene.theme.id == chosen)
    #expect(c.scene.variant.name == "compact")
    // The theme changes in the file: the file wins.
    #expect(try c.save("theme github-light\nvariant compact\n") == "")
    #expect(c.scene.theme.id == "github-light")
    // And a variant chosen with a key gives way to a changed variant the same way.
    c.scene.cycleVariant()
    let keyVariant = c.scene.variant.name
    let target = try #require(["default", "modern"].first { $0 != keyVariant })
    #expect(try c.save("theme github-light\nvariant \(target)\n") == "")
    #expect(c.scene.variant.name == target)
  }

  @Test func aThemeOnTheCommandLineWinsOverTheConfig() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-\(UUID().uuidString).conf")
    defer { try? FileManager.default.removeItem(at: file) }
    try "theme orchestra\n".write(to: file, atomically: true, encoding: .utf8)
    let args = ["run", "--theme", "monokai-pro", "--config", file.path]
    var options = try ArgumentParser.applyConfig("theme orchestra\n", file: file.path, under: args)
    options.commandLine = args
    let resources = Resources(root: Paths.repoRoot.path)
    var scene = try Scene.load(options, resources: resources)
    var watch = ReloadWatch(options: options, resources: resources, clock: .system)
    try "theme dracula\n".write(to: file, atomically: true, encoding: .utf8)
    #expect(watch.check(&scene, force: true) == "")
    #expect(scene.theme.id == "monokai-pro")
  }

  @Test func theTimeZoneUnitAndBurnInProtectionFollowTheConfig() throws {
    var c = try Configured("tz UTC\nunit points\npixel-shift off\n")
    defer { try? FileManager.default.removeItem(at: c.file) }
    #expect(try c.save("tz Europe/Berlin\nunit count\npixel-shift on\ndiagnostics\n") == "")
    let live = LiveSettings(c.watch.latest)
    #expect(live.zone.identifier == "Europe/Berlin")
    #expect(live.unit == .count)
    #expect(live.pixelShift == .on)
    #expect(live.diagnostics)
  }

  @Test func aReloadErrorIsDrawnOnTheBoard() throws {
    var scene = try Scene.load(Options(), resources: Resources(root: Paths.repoRoot.path))
    var canvas = Canvas(width: 960, height: 540, background: scene.theme.bg)
    var diagnostics = Diagnostics(enabled: false, clock: .system)
    #expect(diagnostics.lines.isEmpty)
    diagnostics.reloadMessage = "Reload failed: mine.layout:4: unknown widget \"clock\""
    scene.renderer.painter.recording = true
    let rect = diagnostics.draw(on: &canvas, scene: &scene, bannerShown: false)
    #expect(!rect.isEmpty)
    #expect(scene.renderer.painter.records.contains { $0.text.hasPrefix("Reload failed: mine.layout:4") })
  }
}

/// Issue 9, item 3: a layout whose numbers overflowed `c + w` stopped `snapshot`, and a running
/// board that reloaded it; now it is a bad-input error naming the line, and a reload keeps the
/// old layout and says why.
@Suite("Layouts with huge numbers")
struct HugeLayoutNumberTests {
  static let text = "name = x\ndescription = y\ngrid = 12 x 8\nheader 9223372036854775807 0 1 1\n"

  @Test func snapshotRefusesTheLayout() throws {
    let dir = try TempDir()
    let layout = dir.url.appendingPathComponent("big.layout")
    try Self.text.write(to: layout, atomically: true, encoding: .utf8)
    let r = Captured.run([
      "snapshot", "--layout", layout.path, "--size", "800x480", "--out", dir.url.appendingPathComponent("x.png").path,
    ])
    #expect(r.code == 3, "\(r.err)")
    #expect(r.err.contains("\(layout.path):4: header:"), "\(r.err)")
  }

  @Test func aReloadKeepsTheOldLayoutAndSaysWhy() throws {
    var (dir, file, scene, watch) = try ReloadTests.watchedLayout()
    _ = dir
    try Self.text.write(to: file, atomically: true, encoding: .utf8)
    let message = watch.check(&scene, force: true)
    #expect(message?.contains("mine.layout:4: header:") == true, "\(message ?? "nil")")
    #expect(scene.renderer.layout.pages[0].widgets.map(\.kind) == ["progress"], "the old layout is kept")
  }
}

import DisplayCore
import Foundation
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// `run` draws its first frame with the shown theme alone and reads the other themes after it:
/// the theme keys still go through every theme in `ORDER`'s order, and a broken theme file still
/// ends the run with the message it gave at start.
@Suite(.serialized) struct LazyThemesRunTests {
  /// A Wallboard home whose themes are a copy of the shipped ones (fonts and layouts linked).
  static func home() throws -> TempDir {
    let home = try TempDir("wallboard-lazy-themes")
    let fm = FileManager.default
    try fm.createDirectory(at: home.url.appendingPathComponent("assets"), withIntermediateDirectories: true)
    try fm.copyItem(
      atPath: Paths.repoRoot.path + "/assets/themes", toPath: home.url.path + "/assets/themes")
    try fm.createSymbolicLink(
      atPath: home.url.path + "/assets/fonts", withDestinationPath: Paths.repoRoot.path + "/assets/fonts")
    try fm.createSymbolicLink(atPath: home.url.path + "/Layouts", withDestinationPath: Paths.repoRoot.path + "/Layouts")
    return home
  }

  /// Breaks `<id>.theme` in `home`: its syntax palette is one `palettes.tokens` lacks.
  static func breakTheme(_ id: String, in home: TempDir) throws {
    let file = home.url.appendingPathComponent("assets/themes/\(id).theme")
    let text = try String(contentsOf: file, encoding: .utf8)
    let broken = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("syntax") ? "syntax = nowhere" : String($0) }.joined(separator: "\n")
    try broken.write(to: file, atomically: true, encoding: .utf8)
  }

  /// Whether a frame was presented, read by the stop request.
  final class Presented: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = false
    func set() { lock.withLock { seen = true } }
    func get() -> Bool { lock.withLock { seen } }
  }

  /// Runs the simulation on a memory display until its first frame was presented; the display
  /// and what the run said.
  static func run(home: TempDir, theme: String) -> (code: Int32, display: MemoryDisplay, c: Captured) {
    let display = MemoryDisplay(width: 320, height: 180, traits: DisplayTraits(fillsScreen: false))
    let presented = Presented()
    display.afterPresent = { _ in presented.set() }
    let c = Captured()
    let stop = StopRequest(arm: {}, requested: { presented.get() ? SIGTERM : nil }, takeHangup: { false })
    var app = App(console: c.console, environment: ["WALLBOARD_HOME": home.url.path], stop: stop)
    app.openDisplay = { (_, _, _) throws(CLIError) in display }
    let code = app.main([
      "run", "--no-journal", "--tz", "UTC", "--pixel-shift", "off", "--source", "sim", "--theme", theme,
    ])
    return (code, display, c)
  }

  /// What `wallboard themes`, which reads every theme, says of `home`'s themes.
  static func themesError(home: TempDir) -> (code: Int32, err: String) {
    let c = Captured()
    let app = App(console: c.console, environment: ["WALLBOARD_HOME": home.url.path])
    return (app.main(["themes"]), c.err)
  }

  @Test func aBrokenOtherThemeEndsTheRunAsAtStartAfterTheFirstFrame() throws {
    let home = try Self.home()
    try Self.breakTheme("dracula", in: home)
    let (code, display, c) = Self.run(home: home, theme: "orchestra")
    let themes = Self.themesError(home: home)
    #expect(themes.code == 3)
    #expect(code == themes.code, "\(c.err)")
    #expect(c.err.hasSuffix(themes.err), "run: \(c.err)\nthemes: \(themes.err)")
    #expect(themes.err.contains("dracula.theme"), "\(themes.err)")
    #expect(display.frames.count == 1, "the first frame is shown before the other themes are read")
  }

  @Test func aBrokenShownThemeEndsTheRunBeforeAnyFrame() throws {
    let home = try Self.home()
    try Self.breakTheme("dracula", in: home)
    let (code, display, c) = Self.run(home: home, theme: "dracula")
    let themes = Self.themesError(home: home)
    #expect(code == themes.code, "\(c.err)")
    #expect(c.err.hasSuffix(themes.err), "run: \(c.err)\nthemes: \(themes.err)")
    #expect(display.frames.isEmpty)
  }

  @Test func intactThemesRunAsBefore() throws {
    let home = try Self.home()
    let (code, display, c) = Self.run(home: home, theme: "dracula")
    #expect(code == 0, "\(c.err)")
    #expect(display.frames.count >= 1)
  }

  /// The ids a scene shows as `step` is pressed `count` times.
  static func cycled(_ scene: Scene, step: Int, count: Int) -> [String] {
    var scene = scene
    var ids: [String] = []
    for _ in 0..<count {
      scene.cycleTheme(step)
      ids.append(scene.theme.id)
    }
    return ids
  }

  @Test(arguments: [1, -1])
  func theKeysGoThroughTheThemesInOrderOnceHandedOver(step: Int) throws {
    let resources = Resources(root: Paths.repoRoot.path)
    var options = Options()
    options.theme = "dracula"
    let eager = try Scene.load(options, resources: resources)
    let handoff = CatalogHandoff()
    let lazy = try Scene.load(options, resources: resources, wholeCatalog: handoff)
    #expect(lazy.catalog.themes.map(\.id) == ["dracula"], "the shown theme alone until handed over")
    #expect(lazy.theme == eager.theme)
    handoff.catalog = eager.catalog
    let count = eager.catalog.themes.count + 2
    #expect(Self.cycled(lazy, step: step, count: count) == Self.cycled(eager, step: step, count: count))
    var variants = lazy
    variants.cycleVariant()
    var eagerVariants = eager
    eagerVariants.cycleVariant()
    #expect(variants.variant == eagerVariants.variant)
    #expect(variants.theme == eager.theme)
  }
}

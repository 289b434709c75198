internal import Foundation
internal import Glyphs
internal import Layout
internal import Projections
internal import Raster
internal import Themes
internal import WallboardCore
internal import Widgets

/// Everything needed to draw the board: themes, the layout, fonts and the renderer, with the
/// user's current theme and variant (which keys can change while running).
struct Scene {
  let catalog: ThemeCatalog
  var themeIndex: Int
  var variantIndex: Int
  var renderer: BoardRenderer
  let scale: Double
  /// The board's size the layout was chosen and checked for, when known.
  var board: (width: Int, height: Int)? = nil

  /// Loads themes, fonts and the layout the options name. With the `board` size (the canvas,
  /// turned as the screen is), `--layout auto` (the default) picks the bundled layout for its
  /// shape (`LayoutIndex.automatic`), and a layout named that cannot show its text there is
  /// refused, with one that fits suggested; without it, `auto` is `wall` and nothing is checked.
  static func load(
    _ o: Options, resources: Resources, board: (width: Int, height: Int)? = nil
  ) throws(CLIError) -> Scene {
    let catalog: ThemeCatalog
    do { catalog = try ThemeCatalog.load(directory: resources.themes) } catch { throw .badInput(error.description) }
    guard let themeIndex = catalog.themes.firstIndex(where: { $0.id == o.theme }) else {
      let ids = catalog.themes.map(\.id)
      throw .usage(
        "--theme: \"\(o.theme)\" is not one of \(ids.joined(separator: ", "))"
          + Suggestion.clause(for: o.theme, among: ids))
    }
    guard let variantIndex = catalog.variants.firstIndex(where: { $0.name == o.variant }) else {
      let names = catalog.variants.map(\.name)
      throw .usage(
        "--variant: \"\(o.variant)\" is not one of \(names.joined(separator: ", "))"
          + Suggestion.clause(for: o.variant, among: names))
    }
    let name =
      o.layout == LayoutIndex.automaticName
      ? LayoutIndex.automatic(width: board?.width ?? 16, height: board?.height ?? 9) : o.layout
    let path = try layoutPath(name, resources: resources)
    let layout = try loadLayout(path)
    let text: TextRenderer
    do { text = try TextRenderer(fontsDirectory: resources.fonts) } catch { throw .runtime("\(error)") }
    let scene = Scene(
      catalog: catalog, themeIndex: themeIndex, variantIndex: variantIndex,
      renderer: BoardRenderer(layout: layout, painter: Painter(text: text)), scale: o.scale, board: board)
    // The layout `auto` chose is shown whatever the screen: `auto` always draws something.
    if let board, o.layout != LayoutIndex.automaticName {
      do {
        try LayoutIndex.check(
          layout, scene: scene, width: board.width, height: board.height, directory: resources.layouts)
      } catch {
        throw .usage("--layout: \(error.description)")
      }
    }
    return scene
  }

  /// A bundled layout's file, or the path given.
  static func layoutPath(_ nameOrPath: String, resources: Resources) throws(CLIError) -> String {
    if nameOrPath.contains("/") || nameOrPath.hasSuffix(".layout") { return nameOrPath }
    let path = resources.layouts + "/" + nameOrPath + ".layout"
    guard FileManager.default.fileExists(atPath: path) else {
      let names =
        (try? FileManager.default.contentsOfDirectory(atPath: resources.layouts))?
        .filter { $0.hasSuffix(".layout") }.map { String($0.dropLast(7)) }.sorted() ?? []
      throw .usage(
        "--layout: \"\(nameOrPath)\" is not a bundled layout (\(names.joined(separator: ", "))) or a path"
          + Suggestion.clause(for: nameOrPath, among: [LayoutIndex.automaticName] + names))
    }
    return path
  }

  /// Reads and validates a layout file.
  static func loadLayout(_ path: String) throws(CLIError) -> LayoutFile {
    let text = try TextFile.read(path, what: "layout file")
    do {
      return try LayoutParser.parse(text, file: path, vocabulary: WidgetRegistry.vocabulary)
    } catch {
      throw .badInput(error.description)
    }
  }

  var theme: Theme { catalog.themes[themeIndex] }
  var variant: Variant { catalog.variants[variantIndex] }

  func style(height: Int) -> Style {
    Style(
      theme: theme, catalog: catalog, variant: variant, unit: Double(height) / 1080 * scale,
      frameHeight: Double(height))
  }

  /// What an overlay must not cover on a `width`×`height` board: the header's clock, the banner.
  func keepClear(width: Int, height: Int, bannerShown: Bool) -> [Rect] {
    renderer.keepClear(
      width: width, height: height, bannerShown: bannerShown, style: style(height: height), scale: scale)
  }

  /// Draws the board; returns the rectangles that changed.
  mutating func draw(_ frame: FrameModel, into canvas: inout Canvas) -> [IRect] {
    renderer.render(frame, style: style(height: canvas.height), scale: scale, into: &canvas)
  }

  /// Takes the layout, themes and scale of a freshly loaded scene. Its theme and variant are
  /// taken when the options it was loaded from changed them (`themeChanged`, `variantChanged`);
  /// otherwise the ones the user chose with keys stay, while they still exist. The next frame is
  /// drawn in full.
  mutating func replace(with fresh: Scene, themeChanged: Bool, variantChanged: Bool) {
    let themeID = themeChanged ? fresh.theme.id : theme.id
    let variantName = variantChanged ? fresh.variant.name : variant.name
    self = Scene(
      catalog: fresh.catalog,
      themeIndex: fresh.catalog.themes.firstIndex { $0.id == themeID } ?? fresh.themeIndex,
      variantIndex: fresh.catalog.variants.firstIndex { $0.name == variantName } ?? fresh.variantIndex,
      renderer: renderer, scale: fresh.scale, board: fresh.board)
    renderer.setLayout(fresh.renderer.layout)
  }

  mutating func cycleTheme(_ step: Int) {
    themeIndex = (themeIndex + step + catalog.themes.count) % catalog.themes.count
  }

  mutating func cycleVariant() { variantIndex = (variantIndex + 1) % catalog.variants.count }
}

internal import Glyphs
internal import Layout
internal import Posix
internal import Runtime
internal import Themes
internal import Widgets

/// Loading the scene the options name: the command line's side of `Scene`, whose mistakes are
/// the options' (usage) or the files' (bad input).
extension Scene {
  /// Loads themes, fonts and the layout the options name. With the `board` size (the canvas,
  /// turned as the screen is), `--layout auto` (the default) picks the bundled layout for its
  /// shape (`LayoutIndex.automatic`), and a layout named that cannot show its text there is
  /// refused, with one that fits suggested; without it, `auto` is `wall` and nothing is checked.
  ///
  /// With a `wholeCatalog` handoff, only the shown theme's file is read and checked with the
  /// palettes and variants (`ThemeCatalog.load(directory:only:)`); the caller loads the whole
  /// catalog later and hands it over. A theme `ORDER` does not list is refused as without it.
  static func load(
    _ o: Options, resources: Resources, board: (width: Int, height: Int)? = nil,
    wholeCatalog: CatalogHandoff? = nil
  ) throws(CLIError) -> Scene {
    let catalog: ThemeCatalog
    do {
      if wholeCatalog != nil, let shown = try ThemeCatalog.load(directory: resources.themes, only: o.theme) {
        catalog = shown
      } else {
        catalog = try ThemeCatalog.load(directory: resources.themes)
      }
    } catch { throw .badInput(error.description) }
    guard let themeIndex = catalog.themes.firstIndex(where: { $0.id == o.theme }) else {
      let ids = catalog.themes.map(\.id)
      throw .usage(
        "--theme: \"\(o.theme)\" is not one of \(ids.joined(separator: ", "))"
          + Suggestion.clause(for: o.theme, among: ids))
    }
    guard let variantIndex = catalog.variants.firstIndex(where: { $0.name == o.variant.rawValue }) else {
      let names = catalog.variants.map(\.name)
      throw .usage(
        "--variant: \"\(o.variant.rawValue)\" is not one of \(names.joined(separator: ", "))"
          + Suggestion.clause(for: o.variant.rawValue, among: names))
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
      renderer: BoardRenderer(layout: layout, painter: Painter(text: text)), scale: o.scale, board: board,
      wholeCatalog: wholeCatalog)
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
    guard FileSystem.exists(path) else {
      let names =
        FileSystem.names(in: resources.layouts)?
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

}

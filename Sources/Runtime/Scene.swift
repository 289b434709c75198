internal import Glyphs
internal import Layout
public import Raster
public import Themes
public import Widgets

/// Everything needed to draw the board: themes, the layout, fonts and the renderer, with the
/// user's current theme and variant (which keys can change while running).
///
/// A scene may start with a catalog of its shown theme alone (`run` draws its first frame with
/// it, sooner); the whole catalog is then handed over in `wholeCatalog` and taken before a key
/// changes the theme or the variant.
public struct Scene {
  public private(set) var catalog: ThemeCatalog
  public var themeIndex: Int
  public var variantIndex: Int
  public var renderer: BoardRenderer
  public let scale: Double
  /// The board's size the layout was chosen and checked for, when known.
  public var board: (width: Int, height: Int)? = nil
  /// Where the whole catalog arrives when `catalog` holds the shown theme alone; nil once taken.
  public private(set) var wholeCatalog: CatalogHandoff?

  public init(
    catalog: ThemeCatalog, themeIndex: Int, variantIndex: Int, renderer: BoardRenderer, scale: Double,
    board: (width: Int, height: Int)? = nil, wholeCatalog: CatalogHandoff? = nil
  ) {
    self.catalog = catalog
    self.themeIndex = themeIndex
    self.variantIndex = variantIndex
    self.renderer = renderer
    self.scale = scale
    self.board = board
    self.wholeCatalog = wholeCatalog
  }

  public var theme: Theme { catalog.themes[themeIndex] }
  public var variant: Variant { catalog.variants[variantIndex] }

  public func style(height: Int) -> Style {
    Style(
      theme: theme, catalog: catalog, variant: variant, unit: Double(height) / 1080 * scale,
      frameHeight: Double(height))
  }

  /// What an overlay must not cover on a `width`×`height` board: the header's clock, the banner.
  public func keepClear(width: Int, height: Int, bannerShown: Bool) -> [Rect] {
    renderer.keepClear(
      width: width, height: height, bannerShown: bannerShown, style: style(height: height), scale: scale)
  }

  /// Draws the board; returns the rectangles that changed.
  public mutating func draw(_ frame: FrameModel, into canvas: inout Canvas) -> [IRect] {
    renderer.render(frame, style: style(height: canvas.height), scale: scale, into: &canvas)
  }

  /// Takes the layout, themes and scale of a freshly loaded scene. Its theme and variant are
  /// taken when the options it was loaded from changed them (`themeChanged`, `variantChanged`);
  /// otherwise the ones the user chose with keys stay, while they still exist. The next frame is
  /// drawn in full.
  public mutating func replace(with fresh: Scene, themeChanged: Bool, variantChanged: Bool) {
    let themeID = themeChanged ? fresh.theme.id : theme.id
    let variantName = variantChanged ? fresh.variant.name : variant.name
    self = Scene(
      catalog: fresh.catalog,
      themeIndex: fresh.catalog.themes.firstIndex { $0.id == themeID } ?? fresh.themeIndex,
      variantIndex: fresh.catalog.variants.firstIndex { $0.name == variantName } ?? fresh.variantIndex,
      renderer: renderer, scale: fresh.scale, board: fresh.board)
    renderer.setLayout(fresh.renderer.layout)
  }

  /// The next (`step` 1) or previous (−1) theme of the catalog's order.
  public mutating func cycleTheme(_ step: Int) {
    takeWholeCatalog()
    themeIndex = (themeIndex + step + catalog.themes.count) % catalog.themes.count
  }

  /// The next variant, in file order.
  public mutating func cycleVariant() {
    takeWholeCatalog()
    variantIndex = (variantIndex + 1) % catalog.variants.count
  }

  /// Takes the whole catalog once it was handed over, keeping the theme and variant shown.
  private mutating func takeWholeCatalog() {
    guard let whole = wholeCatalog?.catalog else { return }
    let (themeID, variantName) = (theme.id, variant.name)
    catalog = whole
    themeIndex = whole.themes.firstIndex { $0.id == themeID } ?? 0
    variantIndex = whole.variants.firstIndex { $0.name == variantName } ?? 0
    wholeCatalog = nil
  }
}

/// The whole theme catalog of a scene that started with its shown theme alone, set once it is
/// loaded (`run` does so after its first frame). Used on the run loop's thread only.
public final class CatalogHandoff {
  /// The whole catalog, once loaded.
  public var catalog: ThemeCatalog?

  public init() {}
}

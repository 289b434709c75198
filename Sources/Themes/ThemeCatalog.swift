public import Raster

/// Every theme, in listing order, with the colours and variants they share.
public struct ThemeCatalog: Sendable {
  /// The theme used when none is chosen.
  public static let defaultThemeID = "orchestra"

  /// In the order `ORDER` lists them (the order `wallboard themes` prints).
  public let themes: [Theme]
  /// The syntax palettes by name.
  public let palettes: [String: SyntaxPalette]
  public let semantic: SemanticColors
  public let stateColors: StateColors
  /// In file order.
  public let variants: [Variant]

  /// A catalog from parsed parts. Ids must be unique and every theme's palette present.
  public init(themes: [Theme], tokens: PaletteTokens, variants: [Variant]) {
    precondition(Set(themes.map(\.id)).count == themes.count, "theme ids must be unique")
    for theme in themes {
      precondition(
        tokens.palettes[theme.syntax] != nil,
        "theme \(theme.id) uses syntax palette \(theme.syntax), which the tokens do not define")
    }
    self.themes = themes
    palettes = tokens.palettes
    semantic = tokens.semantic
    stateColors = tokens.states
    self.variants = variants
  }

  /// The theme with this id, or nil.
  public func theme(id: String) -> Theme? { themes.first { $0.id == id } }

  /// The variant with this name (`default`, `compact`, `modern`), or nil.
  public func variant(named name: String) -> Variant? { variants.first { $0.name == name } }

  /// The syntax palette a theme of this catalog uses.
  public func palette(for theme: Theme) -> SyntaxPalette {
    guard let palette = palettes[theme.syntax] else {
      preconditionFailure(
        "theme \(theme.id) uses syntax palette \(theme.syntax), which is not loaded")
    }
    return palette
  }

  /// The colour of a workflow state in a theme (see `StateColors.color(forState:theme:)`).
  public func color(forState state: String, theme: Theme) -> RGBA {
    stateColors.color(forState: state, theme: theme)
  }

  /// The theme's `fg` or `fgBright`, whichever contrasts more with `bg` (design-tokens.md:
  /// text is `fg` or `fgBright`). A translucent `bg` is composited onto the theme's `bg` first.
  public static func readableText(on bg: RGBA, theme: Theme) -> RGBA {
    theme.readableText(on: bg)
  }
}

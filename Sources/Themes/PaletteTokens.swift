/// The contents of `palettes.tokens`: syntax palettes, semantic colours, state colours.
public struct PaletteTokens: Hashable, Sendable {
  /// The syntax palettes by name.
  public var palettes: [String: SyntaxPalette]
  public var semantic: SemanticColors
  /// The state table; its `palettes` are `palettes`.
  public var states: StateColors

  public init(palettes: [String: SyntaxPalette], semantic: SemanticColors, states: StateColors) {
    self.palettes = palettes
    self.semantic = semantic
    self.states = states
  }
}

public import Raster

/// A syntax palette: nine named colours for chart series and for states without a colour.
public struct SyntaxPalette: Hashable, Sendable {
  /// The names of a palette's colours, in order; keys in `palettes.tokens`.
  public static let colorNames = [
    "blue", "cyan", "green", "yellow", "orange", "red", "purple", "teal", "error",
  ]

  /// The palette's name (`dark`, `light`, `matrix`), as a theme's `syntax` names it.
  public var name: String
  /// The colours in `colorNames` order.
  public var colors: [RGBA]

  /// A palette from its nine colours in `colorNames` order.
  public init(name: String, colors: [RGBA]) {
    precondition(
      colors.count == Self.colorNames.count,
      "a syntax palette has \(Self.colorNames.count) colours, not \(colors.count)")
    self.name = name
    self.colors = colors
  }

  /// The colour with this name (`blue` … `error`), or nil.
  public subscript(colorName: String) -> RGBA? {
    Self.colorNames.firstIndex(of: colorName).map { colors[$0] }
  }

  /// The colours for series and unnamed states: `blue` … `teal` (everything but `error`).
  public var seriesColors: ArraySlice<RGBA> { colors.dropLast() }

  public var blue: RGBA { colors[0] }
  public var cyan: RGBA { colors[1] }
  public var green: RGBA { colors[2] }
  public var yellow: RGBA { colors[3] }
  public var orange: RGBA { colors[4] }
  public var red: RGBA { colors[5] }
  public var purple: RGBA { colors[6] }
  public var teal: RGBA { colors[7] }
  public var error: RGBA { colors[8] }
}

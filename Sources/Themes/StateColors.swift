public import Raster

/// Workflow state → colour, per design-tokens.md's state table.
public struct StateColors: Hashable, Sendable {
  /// Where a listed state's colour comes from.
  public enum Source: Hashable, Sendable {
    /// The same colour in every theme.
    case color(RGBA)
    /// A token of the theme in use (`in-progress` is the theme's `accent`).
    case themeToken(ThemeToken)
    /// A colour of the theme's own syntax palette, by name (`purple`).
    case syntaxColor(String)
  }

  /// The listed states, by normalised state id (`in-progress`).
  public var listed: [String: Source]
  /// Where one theme's colour for a state differs from `listed`: theme id → state id → source
  /// (`state.in-progress.solarized-light = syntax.purple`, where the accent would look like `todo`).
  /// A theme that is not loaded simply never asks.
  public var perTheme: [String: [String: Source]]
  /// The syntax palettes by name, for states that are not listed.
  public var palettes: [String: SyntaxPalette]

  public init(
    listed: [String: Source], perTheme: [String: [String: Source]] = [:], palettes: [String: SyntaxPalette]
  ) {
    self.listed = listed
    self.perTheme = perTheme
    self.palettes = palettes
  }

  /// The colour of a state (a normalised id like `in-progress`) in a theme.
  ///
  /// A state that is not listed takes one of the theme's syntax palette's `seriesColors`,
  /// chosen by the 64-bit FNV-1a hash of the id's UTF-8 bytes: the same colour for the same
  /// name in every run and on every machine. The theme's palette must be in `palettes`.
  /// A state this theme gives a colour of its own (`perTheme`) takes that one.
  public func color(forState state: String, theme: Theme) -> RGBA {
    func palette() -> SyntaxPalette {
      guard let palette = palettes[theme.syntax] else {
        preconditionFailure(
          "theme \(theme.id) names syntax palette \(theme.syntax), which is not loaded")
      }
      return palette
    }
    switch perTheme[theme.id]?[state] ?? listed[state] {
    case .color(let color)?: return color
    case .themeToken(let token)?: return theme[token]
    case .syntaxColor(let name)?:
      guard let color = palette()[name] else {
        preconditionFailure("syntax palette \(theme.syntax) has no colour \(name)")
      }
      return color
    case nil:
      let series = palette().seriesColors
      let offset = Int(Self.fnv1a(state) % UInt64(series.count))
      return series[series.startIndex + offset]
    }
  }

  /// 64-bit FNV-1a of the UTF-8 bytes; unlike `Hasher`, not seeded per process.
  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }
}

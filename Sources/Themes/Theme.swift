public import Raster

/// One theme: identity, light or dark, its colour tokens and the syntax palette it uses.
public struct Theme: Hashable, Sendable {
  /// Lowercase id, also the file name (`nord` → `nord.theme`) and the `--theme` value.
  public var id: String
  /// What people read.
  public var label: String
  /// The family the theme belongs to (`Material`, `Popular`, …).
  public var group: String
  /// A light theme (dark text on a light background).
  public var isLight: Bool

  /// The main background; always opaque.
  public var bg: RGBA
  public var bgAlt: RGBA
  public var bgContrast: RGBA
  public var bgActive: RGBA
  /// Selection highlight; usually translucent.
  public var bgSelection: RGBA
  /// Body text.
  public var fg: RGBA
  /// Decoration only; never for text that carries information.
  public var fgDim: RGBA
  public var fgMuted: RGBA
  /// Emphasised text.
  public var fgBright: RGBA
  public var border: RGBA
  /// The theme's accent, also the colour of `in-progress`.
  public var accent: RGBA

  /// The name of the syntax palette this theme uses (`dark`, `light`, `matrix`).
  public var syntax: String

  /// A theme from its colours; `colors` must hold every `ThemeToken`.
  public init(
    id: String, label: String, group: String, isLight: Bool, syntax: String,
    colors: [ThemeToken: RGBA]
  ) {
    func color(_ token: ThemeToken) -> RGBA {
      guard let value = colors[token] else { preconditionFailure("theme \(id) has no \(token)") }
      return value
    }
    self.id = id
    self.label = label
    self.group = group
    self.isLight = isLight
    self.syntax = syntax
    bg = color(.bg)
    bgAlt = color(.bgAlt)
    bgContrast = color(.bgContrast)
    bgActive = color(.bgActive)
    bgSelection = color(.bgSelection)
    fg = color(.fg)
    fgDim = color(.fgDim)
    fgMuted = color(.fgMuted)
    fgBright = color(.fgBright)
    border = color(.border)
    accent = color(.accent)
  }

  /// The colour of one token.
  public subscript(token: ThemeToken) -> RGBA {
    get {
      switch token {
      case .bg: bg
      case .bgAlt: bgAlt
      case .bgContrast: bgContrast
      case .bgActive: bgActive
      case .bgSelection: bgSelection
      case .fg: fg
      case .fgDim: fgDim
      case .fgMuted: fgMuted
      case .fgBright: fgBright
      case .border: border
      case .accent: accent
      }
    }
    set {
      switch token {
      case .bg: bg = newValue
      case .bgAlt: bgAlt = newValue
      case .bgContrast: bgContrast = newValue
      case .bgActive: bgActive = newValue
      case .bgSelection: bgSelection = newValue
      case .fg: fg = newValue
      case .fgDim: fgDim = newValue
      case .fgMuted: fgMuted = newValue
      case .fgBright: fgBright = newValue
      case .border: border = newValue
      case .accent: accent = newValue
      }
    }
  }

  /// `fg` or `fgBright`, whichever contrasts more with `background` (`fg` on a tie).
  ///
  /// A translucent background is first composited onto the theme's `bg`.
  public func readableText(on background: RGBA) -> RGBA {
    let backdrop = background.a == 255 ? background : background.over(bg)
    let plain = RGBA.contrastRatio(fg, backdrop)
    let bright = RGBA.contrastRatio(fgBright, backdrop)
    return bright > plain ? fgBright : fg
  }
}

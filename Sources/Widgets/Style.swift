public import Raster
public import Themes

/// Everything a widget needs to know about how to draw: theme, colours, variant and scale.
public struct Style: Sendable {
  public var theme: Theme
  public var catalog: ThemeCatalog
  public var variant: Variant
  /// Pixels per design unit (1 unit = 1/1080 of the frame height, times `--scale`).
  public var unit: Double
  /// The frame's height in pixels (legibility rules are fractions of it).
  public var frameHeight: Double

  public init(theme: Theme, catalog: ThemeCatalog, variant: Variant, unit: Double, frameHeight: Double) {
    self.theme = theme
    self.catalog = catalog
    self.variant = variant
    self.unit = unit
    self.frameHeight = frameHeight
  }

  /// `v` design units in pixels.
  public func u(_ v: Double) -> Double { v * unit }

  /// Text sizes in design units. The smallest is above 1.6 % of 1080; key numbers above 4 %.
  public enum TextSize: Double, Sendable {
    case small = 19
    case body = 22
    case title = 28
    case large = 36
    case key = 56
    case huge = 96
  }

  public func size(_ s: TextSize) -> Double { s.rawValue * unit }

  /// The smallest a key number may be: a little over 4 % of the frame height.
  public var minimumKeySize: Double { frameHeight * 0.041 }

  /// The smallest information text may be: a little over 1.6 % of the frame height.
  public var minimumInfoSize: Double { frameHeight * 0.0165 }

  /// A key-number size that fits `height` where it can, but never below the minimum.
  public func keySize(fitting height: Double, preferred: Double? = nil) -> Double {
    Swift.max(minimumKeySize, Swift.min(preferred ?? size(.key), height))
  }

  /// The colour for information text on `background`: `fg` or `fgBright`, whichever reads better.
  public func text(on background: RGBA) -> RGBA { ThemeCatalog.readableText(on: background, theme: theme) }

  /// Text that reads on `background` in a semantic colour when that colour is legible there,
  /// else the plain text colour (colour is never the only cue).
  public func stateColor(_ state: String) -> RGBA { catalog.color(forState: state, theme: theme) }

  public var semantic: SemanticColors { catalog.semantic }

  /// Card corner radius: the variant's medium radius.
  public var radius: Double { u(variant.radiusMd) }

  /// Padding inside a card: 18 units in the default variant, scaled by the variant's top-bar
  /// height (compact is tighter, modern roomier).
  public var padding: Double { u(18 * variant.topBarHeight / 44) }
}

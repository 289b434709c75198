/// A component variant (`default`, `compact`, `modern`): bar heights and corner radii, in
/// points at the design size.
public struct Variant: Hashable, Sendable {
  /// The metric names, as keys `<variant>.<metric>` in `variants.tokens`.
  public static let metricNames = [
    "topBarHeight", "statusBarHeight", "radiusSm", "radiusMd", "radiusLg",
  ]
  /// What a metric may be: 0…400 points, like a layout's gap and margin — a file cannot make
  /// the board's lengths, and the numbers computed from them, unbounded.
  public static let lengthRange = 0.0...400

  public var name: String
  public var topBarHeight: Double
  public var statusBarHeight: Double
  /// Small, medium and large corner radius.
  public var radiusSm: Double
  public var radiusMd: Double
  public var radiusLg: Double

  public init(
    name: String, topBarHeight: Double, statusBarHeight: Double, radiusSm: Double,
    radiusMd: Double, radiusLg: Double
  ) {
    self.name = name
    self.topBarHeight = topBarHeight
    self.statusBarHeight = statusBarHeight
    self.radiusSm = radiusSm
    self.radiusMd = radiusMd
    self.radiusLg = radiusLg
  }
}

/// The component variants `--variant` names, each a section of `variants.tokens`.
public enum VariantName: String, CaseIterable, Hashable, Sendable {
  case `default`, compact, modern
}

/// A component variant (`default`, `compact`, `modern`): bar heights and corner radii, in
/// points at the design size.
public struct Variant: Hashable, Sendable {
  /// The metric names, as keys `<variant>.<metric>` in `variants.tokens`.
  public static let metricNames = [
    "topBarHeight", "statusBarHeight", "radiusSm", "radiusMd", "radiusLg",
  ]

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

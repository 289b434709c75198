public import Raster

/// The semantic colours, the same in every theme.
public struct SemanticColors: Hashable, Sendable {
  /// The names, as keys `semantic.<name>` in `palettes.tokens`.
  public static let names = ["success", "warning", "error", "info"]

  public var success: RGBA
  public var warning: RGBA
  public var error: RGBA
  public var info: RGBA

  public init(success: RGBA, warning: RGBA, error: RGBA, info: RGBA) {
    self.success = success
    self.warning = warning
    self.error = error
    self.info = info
  }

  /// The colour with this name (`success`, `warning`, `error`, `info`), or nil.
  public subscript(name: String) -> RGBA? {
    switch name {
    case "success": success
    case "warning": warning
    case "error": error
    case "info": info
    default: nil
    }
  }
}

import Clock

@testable import Runtime
@testable import WallboardCLI

extension ReloadWatch {
  /// What `check(force:)` reloaded, applied to `scene` the way the run loop applies it (through
  /// `PixelRenderer`): "" after a good reload, the message after a failed one, nil when nothing
  /// was reloaded.
  mutating func check(_ scene: inout Scene, force: Bool = false) -> String? {
    switch check(force: force) {
    case nil: return nil
    case .failed(let failure): return failure.line
    case .reloaded(let fresh, _, let themeChanged, let variantChanged):
      var renderer = PixelRenderer(scene: scene, writesText: false, clock: .system)
      renderer.apply(.reload(fresh, themeChanged: themeChanged, variantChanged: variantChanged))
      scene = renderer.scene
      return ""
    }
  }
}

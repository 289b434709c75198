public import DisplayCore
internal import Raster

extension SDLWindow: Display {
  /// The drawable area in pixels.
  public var size: (width: Int, height: Int) { pixelSize }

  /// A window fills a screen when it was opened fullscreen; SDL has no descriptor to wait on,
  /// so its events are looked at ten times a second (a key is taken within a tenth of a second).
  public var traits: DisplayTraits { DisplayTraits(fillsScreen: openedFullscreen, eventPollInterval: 0.1) }

  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    do {
      if try presentLent(frame.canvas, rects: frame.dirty) { return }
      if let dirty = frame.dirty { try present(frame.canvas, rects: dirty) } else { try present(frame.canvas) }
    } catch {
      throw DisplayError("cannot present the frame: \(error)")
    }
  }

  /// The board's keys: q and Escape quit, t and Shift-t change the theme, v the variant, the
  /// arrows the page, f fullscreen, d the diagnostics panel.
  public func events() -> [DisplayEvent] {
    pollEvents().compactMap { e -> DisplayEvent? in
      switch e {
      case .quit: return .quit
      case .key(.q, _), .key(.escape, _): return .quit
      case .key(.t, let shift): return shift ? .previousTheme : .nextTheme
      case .key(.v, _): return .nextVariant
      case .key(.left, _): return .previousPage
      case .key(.right, _): return .nextPage
      case .key(.f, _): return .toggleFullscreen
      case .key(.d, _): return .toggleDiagnostics
      case .resized(let width, let height): return .resized(width, height)
      case .exposed: return .redraw
      default: return nil
      }
    }
  }

  public func toggleFullscreen() { try? setFullscreen(!isFullscreen) }
}

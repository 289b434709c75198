internal import Foundation
internal import PNG
internal import Raster
internal import SDLDisplay

/// What the user asked of the board through its window.
enum DisplayEvent: Equatable {
  case quit, nextTheme, previousTheme, nextVariant, nextPage, previousPage, toggleFullscreen, redraw
  case resized(Int, Int)
}

/// Where `run` draws: an SDL window, a PNG file, or text in the terminal.
final class Displays {
  enum Kind {
    case sdl(SDLWindow)
    case png(String)
    case text
  }
  let kind: Kind
  private(set) var size: (width: Int, height: Int)

  private init(kind: Kind, size: (width: Int, height: Int)) {
    self.kind = kind
    self.size = size
  }

  /// Opens the display `--display` names (`auto`: SDL when a display server is there, else text).
  static func open(_ o: Options, environment: [String: String], console: Console) throws(CLIError) -> Displays {
    var choice = o.display
    if choice == "auto" { choice = SDLWindow.displayAvailable(environment: environment) ? "sdl" : "text" }
    switch choice {
    case "sdl":
      do {
        let w = try SDLWindow(title: "Wallboard", size: o.size, hideCursor: true)
        return Displays(kind: .sdl(w), size: w.pixelSize)
      } catch {
        throw .runtime("cannot open the SDL window: \(error)")
      }
    case "text":
      return Displays(kind: .text, size: (0, 0))
    case let c where c.hasPrefix("png:"):
      return Displays(kind: .png(String(c.dropFirst(4))), size: o.size ?? (1920, 1080))
    default:
      throw .runtime("--display \(choice) is not available in this build yet (available: sdl, png:PATH, text)")
    }
  }

  /// Shows a frame; `dirty` are the rectangles that changed.
  func show(_ canvas: Canvas, dirty: [IRect]) throws(CLIError) {
    switch kind {
    case .sdl(let w):
      do { try w.present(canvas, rects: dirty) } catch { throw .runtime("cannot present the frame: \(error)") }
    case .png(let path):
      do { try PNG.write(canvas, to: path) } catch { throw .runtime("cannot write \(path): \(error)") }
    case .text: break
    }
  }

  /// Window events since the last call, without waiting.
  func events() -> [DisplayEvent] {
    guard case .sdl(let w) = kind else { return [] }
    return w.pollEvents().compactMap { e -> DisplayEvent? in
      switch e {
      case .quit: return .quit
      case .key(.q, _), .key(.escape, _): return .quit
      case .key(.t, let shift): return shift ? .previousTheme : .nextTheme
      case .key(.v, _): return .nextVariant
      case .key(.left, _): return .previousPage
      case .key(.right, _): return .nextPage
      case .key(.f, _): return .toggleFullscreen
      case .resized(let width, let height): return .resized(width, height)
      case .exposed: return .redraw
      default: return nil
      }
    }
  }

  func toggleFullscreen() {
    if case .sdl(let w) = kind { try? w.setFullscreen(!w.isFullscreen) }
  }
}

internal import Foundation
internal import FramebufferDisplay
internal import PNG
internal import Raster
internal import SDLDisplay
internal import TerminalDisplay

/// What the user asked of the board through its window or terminal.
enum DisplayEvent: Equatable {
  case quit, nextTheme, previousTheme, nextVariant, nextPage, previousPage, toggleFullscreen, toggleDiagnostics
  case redraw
  case resized(Int, Int)
}

/// Where `run` draws: an SDL window, the framebuffer, a terminal, a PNG file, or plain text.
final class Displays {
  enum Kind {
    case sdl(SDLWindow)
    case fb(Framebuffer, ConsoleGuard?)
    case term(TerminalDisplay)
    case png(String)
    case text
  }
  let kind: Kind
  /// The screen's size in pixels; the board is drawn at its `Screen.canvasSize` (before `--rotate`).
  private(set) var size: (width: Int, height: Int)
  /// Whether the board fills a whole screen (for `--pixel-shift auto`).
  let fillsScreen: Bool
  /// The `png:` display's encoder: it re-deflates only the bands of rows that changed.
  private var pngEncoder = PNGEncoder()

  /// The shortest time between two frames: a 30th of a second on a screen; a second for a `png:`
  /// file, each of which is a whole file written (and read by whoever watches it).
  var minimumFrameInterval: Double {
    if case .png = kind { return 1 }
    return 1.0 / 30
  }

  /// How often the run loop looks at the display's events while idle: a window's keys and a
  /// terminal's size ten times a second (a key is taken within a tenth of a second); the
  /// framebuffer and a file have none, and the loop wakes only for its frame, an input, a stop
  /// or a reload (within a quarter of a second).
  var eventInterval: Double {
    switch kind {
    case .sdl, .term: return 0.1
    case .fb, .png, .text: return 0.25
    }
  }

  private init(kind: Kind, size: (width: Int, height: Int), fillsScreen: Bool) {
    self.kind = kind
    self.size = size
    self.fillsScreen = fillsScreen
  }

  /// Opens the display `--display` names. `auto`: SDL when a display server is named and
  /// answers (one that does not is said on stderr), else the framebuffer when it is writable,
  /// else the terminal when standard output is one, else the text board.
  static func open(_ o: Options, environment: [String: String], console: Console) throws(CLIError) -> Displays {
    var choice = o.display
    /// What `auto` takes without a display server.
    func consoleChoice() -> String { access("/dev/fb0", W_OK) == 0 ? "fb" : isatty(1) == 1 ? "term" : "text" }
    if choice == "auto" {
      if SDLWindow.displayAvailable(environment: environment) {
        // A display server is named; if it cannot be reached, `auto` goes on to the console.
        do throws(CLIError) {
          return try open(o, choosing: "sdl", environment: environment, console: console)
        } catch {
          console.error(
            "wallboard: \(error.description.replacingOccurrences(of: "wallboard: ", with: "")); using --display \(consoleChoice())"
          )
          choice = consoleChoice()
        }
      } else {
        choice = consoleChoice()
      }
    }
    return try open(o, choosing: choice, environment: environment, console: console)
  }

  /// Opens the display `choice` names (not `auto`).
  private static func open(
    _ o: Options, choosing choice: String, environment: [String: String], console: Console
  ) throws(CLIError) -> Displays {
    if choice == "fb" || choice.hasPrefix("fb:") {
      let device = choice == "fb" ? "/dev/fb0" : String(choice.dropFirst(3))
      if let g = o.fbGeometry {
        // A file standing in for the device: no ioctls, no console.
        do {
          let fb = try Framebuffer.open(file: device, geometry: (g.width, g.height, g.bpp))
          return Displays(kind: .fb(fb, nil), size: fb.size, fillsScreen: true)
        } catch {
          throw .runtime(error.description)
        }
      }
      let fb: Framebuffer
      do { fb = try Framebuffer.open(device: device) } catch { throw .runtime(error.description) }
      guard Canvas.frameFits(width: fb.size.width, height: fb.size.height) else {
        throw .runtime(
          "\(device): \(fb.size.width)x\(fb.size.height) is larger than the board draws "
            + "(\(Canvas.maxFrameSide) a side, \(Canvas.maxFramePixels) pixels in all)")
      }
      var guardian: ConsoleGuard?
      do { guardian = try ConsoleGuard() } catch {
        console.error("wallboard: the console stays in text mode: \(error)")
      }
      return Displays(kind: .fb(fb, guardian), size: fb.size, fillsScreen: true)
    }
    switch choice {
    case "sdl":
      do {
        let w = try SDLWindow(title: "Wallboard", size: o.size, hideCursor: true)
        return Displays(kind: .sdl(w), size: w.pixelSize, fillsScreen: o.size == nil)
      } catch {
        guard error.invisibleDriver != nil else { throw .runtime("cannot open the SDL window: \(error)") }
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : "DISPLAY=\($0) could not be opened" }
        throw .runtime(
          "no display server for --display sdl (\(display ?? "DISPLAY is not set")): \(error.message). Start the "
            + "board under X or Wayland, set SDL_VIDEODRIVER=kmsdrm to draw on the console, or use --display fb or "
            + "--display term")
      }
    case "term":
      if let s = o.size, TerminalDisplay.capped((s.width, s.height)) != (s.width, s.height) {
        throw .usage(
          "--size: \(s.width)x\(s.height) is too many cells for term (at most \(Canvas.maxFrameSide) columns, "
            + "\(Canvas.maxFrameSide / 2) rows and \(Canvas.maxFramePixels / 2) cells: one canvas pixel a half-cell)")
      }
      let t = TerminalDisplay(size: o.size.map { (columns: $0.width, rows: $0.height) })
      // Ctrl-C is the way out of the terminal view: the run loop returns and `close()` leaves
      // the terminal as it was found; a second Ctrl-C (a hung loop) restores it from the handler.
      t.armEmergencyRestore()
      return Displays(kind: .term(t), size: t.canvasSize(), fillsScreen: false)
    case "text":
      return Displays(kind: .text, size: (0, 0), fillsScreen: false)
    case let c where c.hasPrefix("png:"):
      try Snapshot.checkOutput(String(c.dropFirst(4)), option: "--display png:")
      return Displays(kind: .png(String(c.dropFirst(4))), size: o.size ?? (1920, 1080), fillsScreen: false)
    default:
      throw .runtime("--display \(choice) is not one of auto, sdl, fb[:DEVICE], term, text, png:PATH")
    }
  }

  /// Whether `show` can move the frame itself (`offset`): the framebuffer converts each row from
  /// where it is, so a moved board needs no moved copy of itself.
  var movesFrames: Bool {
    if case .fb = kind { return true }
    return false
  }

  /// Shows a frame; `dirty` are the rectangles that changed (nil: everything). `offset` moves it
  /// (the uncovered edge in `background`), on a display that `movesFrames` only.
  func show(
    _ canvas: Canvas, dirty: [IRect]?, offset: (dx: Int, dy: Int) = (0, 0), background: RGBA = RGBA(r: 0, g: 0, b: 0)
  ) throws(CLIError) {
    precondition(offset == (0, 0) || movesFrames, "this display does not move frames")
    switch kind {
    case .sdl(let w):
      do {
        if let dirty { try w.present(canvas, rects: dirty) } else { try w.present(canvas) }
      } catch {
        throw .runtime("cannot present the frame: \(error)")
      }
    case .fb(let fb, _):
      fb.present(canvas, dirty: dirty ?? [canvas.bounds], offset: offset, fill: background)
    case .term(let t):
      do { try t.present(canvas) } catch { throw .runtime("cannot write to the terminal: \(error)") }
    case .png(let path):
      do {
        try PNG.write(png: pngEncoder.encode(canvas, changed: dirty), to: path)
      } catch {
        throw .runtime("cannot write \(path): \(error)")
      }
    case .text: break
    }
  }

  /// Turns the screen off (FBIOBLANK on the framebuffer); false when this display cannot, and
  /// the caller shows black instead.
  func blank(_ on: Bool) -> Bool {
    guard case .fb(let fb, _) = kind else { return false }
    return (try? fb.blank(on)) != nil
  }

  /// Window and terminal events since the last call, without waiting.
  func events() -> [DisplayEvent] {
    switch kind {
    case .sdl(let w):
      return w.pollEvents().compactMap { e -> DisplayEvent? in
        switch e {
        case .quit: return .quit
        case .key(.q, _), .key(.escape, _): return .quit
        case .key(.t, let shift): return shift ? .previousTheme : .nextTheme
        case .key(.v, _): return .nextVariant
        case .key(.left, _): return .previousPage
        case .key(.right, _): return .nextPage
        case .key(.f, _): return .toggleFullscreen
        case .key(.d, _): return .toggleDiagnostics
        case .resized(let width, let height):
          size = (width, height)
          return .resized(width, height)
        case .exposed: return .redraw
        default: return nil
        }
      }
    case .term(let t):
      if t.checkResize() {
        size = t.canvasSize()
        return [.resized(size.width, size.height)]
      }
      return []
    default:
      return []
    }
  }

  func toggleFullscreen() {
    if case .sdl(let w) = kind { try? w.setFullscreen(!w.isFullscreen) }
  }

  /// Puts the terminal or the console back as it was.
  func close() {
    switch kind {
    case .term(let t): try? t.close()
    case .fb(_, let g): g?.restore()
    default: break
    }
  }
}

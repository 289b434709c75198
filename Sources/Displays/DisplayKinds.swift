internal import DRMDisplay
public import DisplayCore
internal import FramebufferDisplay
internal import Glibc
internal import PNG
internal import Raster
internal import SDLDisplay
internal import TerminalDisplay

/// `WORD` or `WORD:ARG` (a non-empty argument): nil when `text` is neither; `.some(nil)` for the
/// bare word.
private func argument(_ text: String, of w: String) -> String?? {
  if text == w { return .some(nil) }
  guard text.hasPrefix(w + ":"), text.count > w.count + 1 else { return nil }
  return .some(String(text.dropFirst(w.count + 1)))
}

// MARK: auto

/// `auto`: SDL when a display server is named and answers; else `console` when a DRM device or
/// `/dev/fb0` can be written; else the terminal when standard output is one, else the text board
/// (`AutoDisplay`: its choice and why said on stderr).
public struct AutoKind: DisplayKind {
  public init() {}
  public var usage: String { "auto" }
  public var word: String { "auto" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? { text == "auto" ? Auto() : nil }

  public struct Auto: DisplayConfiguration {
    public init() {}
    public var name: String { "auto" }
    public var mayUseDRM: Bool { true }

    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      let found = AutoDisplay.Findings(
        displayServer: ["SDL_VIDEODRIVER", "WAYLAND_DISPLAY", "DISPLAY"].first { !(c.environment[$0] ?? "").isEmpty }
          .map { "\($0)=\(c.environment[$0]!)" },
        consoleDevice: DRMScreen.devices.first { access($0, R_OK | W_OK) == 0 }
          ?? (access("/dev/fb0", W_OK) == 0 ? "/dev/fb0" : nil),
        stdoutIsTerminal: isatty(1) == 1)
      var auto = AutoDisplay.choose(found)
      if auto.choice == "sdl" {
        // A display server is named; if it cannot be reached, `auto` goes on to the console.
        do throws(DisplayOpenError) {
          let window = try SDLKind.SDL().open(c)
          c.say(auto.line)
          return window
        } catch {
          auto = AutoDisplay.choose(found, serverFailed: error.message)
          c.say("wallboard: \(error.message); using --display \(auto.choice) (\(auto.reason))")
          return try Self.open(auto.choice, c)
        }
      }
      c.say(auto.line)
      return try Self.open(auto.choice, c)
    }

    private static func open(_ choice: String, _ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      let chosen: any DisplayConfiguration
      do throws(DisplaySpecError) { chosen = try c.registry.parse(choice) } catch {
        throw DisplayOpenError(.failed, "--display auto chose \(choice), which is not a display: \(error)")
      }
      return try chosen.open(c)
    }
  }
}

// MARK: sdl

/// `sdl`: a full-screen SDL2 window (SDL2 opened at run time).
public struct SDLKind: DisplayKind {
  public init() {}
  public var usage: String { "sdl" }
  public var word: String { "sdl" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? { text == "sdl" ? SDL() : nil }

  public struct SDL: DisplayConfiguration {
    public init() {}
    public var name: String { "sdl" }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      do {
        return try SDLWindow(title: "Wallboard", size: c.size, hideCursor: true, clock: c.clock)
      } catch {
        guard error.invisibleDriver != nil else {
          throw DisplayOpenError(.failed, "cannot open the SDL window: \(error)")
        }
        let display = c.environment["DISPLAY"].flatMap { $0.isEmpty ? nil : "DISPLAY=\($0) could not be opened" }
        throw DisplayOpenError(
          .failed,
          "no display server for --display sdl (\(display ?? "DISPLAY is not set")): \(error.message). Start the "
            + "board under X or Wayland, set SDL_VIDEODRIVER=kmsdrm to draw on the console, or use --display fb or "
            + "--display term")
      }
    }
  }
}

// MARK: console, drm, fb

/// `console`: DRM/KMS on the first `/dev/dri/card*` with a connected output, else the framebuffer
/// (why DRM could not be had is said on stderr).
public struct ConsoleKind: DisplayKind {
  public init() {}
  public var usage: String { "console" }
  public var word: String { "console" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? { text == "console" ? Console() : nil }

  public struct Console: DisplayConfiguration {
    public init() {}
    public var name: String { "console" }
    public var mayUseDRM: Bool { true }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      do throws(DisplayOpenError) {
        return try DRMKind.DRM(device: nil).open(c)
      } catch {
        c.say(
          "wallboard: \(error.message); using --display fb"
            + (c.mode != nil ? " (in the console's mode: --mode is for DRM)" : ""))
        return try FramebufferKind.Framebuffer(device: nil).open(c)
      }
    }
  }
}

/// `drm`, `drm:DEVICE`: the board's own DRM/KMS display.
public struct DRMKind: DisplayKind {
  public init() {}
  public var usage: String { "drm[:DEVICE]" }
  public var word: String { "drm" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? {
    argument(text, of: "drm").map { DRM(device: $0) }
  }

  public struct DRM: DisplayConfiguration {
    public init(device: String?) { self.device = device }
    /// Nil: the first card with a connected output.
    public var device: String?
    public var name: String { device.map { "drm:" + $0 } ?? "drm" }
    public var mayUseDRM: Bool { true }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      let screen: DRMScreen
      do {
        if let device {
          screen = try DRMScreen.open(device: device, mode: c.mode)
        } else {
          screen = try DRMScreen.openFirst(mode: c.mode)
        }
      } catch {
        throw DisplayOpenError(.failed, error.description)
      }
      return OnConsole(screen, context: c, label: "\(screen.device): \(screen.summary)")
    }
  }
}

/// `fb`, `fb:DEVICE`: the Linux framebuffer (`/dev/fb0` by default); with `--fb-geometry`, a file
/// standing in for the device.
public struct FramebufferKind: DisplayKind {
  public init() {}
  public var usage: String { "fb[:DEVICE]" }
  public var word: String { "fb" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? {
    argument(text, of: "fb").map { Framebuffer(device: $0) }
  }

  public struct Framebuffer: DisplayConfiguration {
    public init(device: String?) { self.device = device }
    public var device: String?
    public var name: String { device.map { "fb:" + $0 } ?? "fb" }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      let device = self.device ?? "/dev/fb0"
      if let g = c.fbGeometry {
        // A file standing in for the device: no ioctls, no console.
        do {
          return FramebufferScreen(
            try FramebufferDisplay.Framebuffer.open(file: device, geometry: (g.width, g.height, g.bpp)))
        } catch {
          throw DisplayOpenError(.failed, error.description)
        }
      }
      let fb: FramebufferDisplay.Framebuffer
      do { fb = try FramebufferDisplay.Framebuffer.open(device: device) } catch {
        throw DisplayOpenError(.failed, error.description)
      }
      try checkFits(fb.size, device: device)
      return OnConsole(
        FramebufferScreen(fb), context: c,
        label: "\(device): \(fb.size.width)x\(fb.size.height), \(fb.format.bitsPerPixel) bits a pixel"
          + (fb.isDoubleBuffered ? ", two pages" : ""))
    }
  }

  /// Refuses a screen larger than the board draws.
  static func checkFits(_ size: (width: Int, height: Int), device: String) throws(DisplayOpenError) {
    guard Canvas.frameFits(width: size.width, height: size.height) else {
      throw DisplayOpenError(
        .failed,
        "\(device): \(size.width)x\(size.height) is larger than the board draws "
          + "(\(Canvas.maxFrameSide) a side, \(Canvas.maxFramePixels) pixels in all)")
    }
  }
}

// MARK: term, text, png

/// `term`: the board in the terminal, text as characters and charts as half blocks.
public struct TerminalKind: DisplayKind {
  public init() {}
  public var usage: String { "term" }
  public var word: String { "term" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? { text == "term" ? Terminal() : nil }

  public struct Terminal: DisplayConfiguration {
    public init() {}
    public var name: String { "term" }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      if let s = c.size, TerminalDisplay.capped((s.width, s.height)) != (s.width, s.height) {
        throw DisplayOpenError(
          .usage,
          "--size: \(s.width)x\(s.height) is too many cells for term (at most \(Canvas.maxFrameSide) columns, "
            + "\(Canvas.maxFrameSide / 2) rows and \(Canvas.maxFramePixels / 2) cells: one canvas pixel a half-cell)")
      }
      // Keys come from standard input when it is a terminal and no source reads it.
      let keys = isatty(0) == 1 && c.keysFromStandardInput
      let t = TerminalDisplay(input: keys ? 0 : nil, size: c.size.map { (columns: $0.width, rows: $0.height) })
      // Ctrl-C is the way out of the terminal view: the run loop returns and `close()` leaves
      // the terminal as it was found; a second Ctrl-C (a hung loop) restores it from the handler.
      t.armEmergencyRestore()
      return TerminalScreen(t)
    }
  }
}

/// `text`: the board as plain text on standard output.
public struct TextKind: DisplayKind {
  public init() {}
  public var usage: String { "text" }
  public var word: String { "text" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? { text == "text" ? Text() : nil }

  public struct Text: DisplayConfiguration {
    public init() {}
    public var name: String { "text" }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display { TextDisplay(show: c.show) }
  }
}

/// `png:PATH`: each frame replaces a PNG file.
public struct PNGKind: DisplayKind {
  public init() {}
  public var usage: String { "png:PATH" }
  public var word: String { "png" }
  public func parse(_ text: String) -> (any DisplayConfiguration)? {
    guard case .some(.some(let path)) = argument(text, of: "png") else { return nil }
    return PNGFile(path: path)
  }

  public struct PNGFile: DisplayConfiguration {
    public init(path: String) { self.path = path }
    public var path: String
    public var name: String { "png:" + path }
    public func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
      do { _ = try PNG.writeTarget(for: path) } catch {
        throw DisplayOpenError(
          error.kind == .notRegularFile ? .usage : .failed, "--display png:: \(error.message)")
      }
      return PNGFileDisplay(path: path, size: c.size ?? (1920, 1080))
    }
  }
}

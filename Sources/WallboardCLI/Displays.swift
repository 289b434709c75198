internal import Clock
internal import DRMDisplay
internal import DisplayCore
internal import Foundation
internal import FramebufferDisplay
internal import PNG
internal import Raster
internal import SDLDisplay
internal import TerminalDisplay

/// Opens the display `--display` names: an SDL window, the framebuffer, a terminal, a PNG file or
/// the text board, each a `Display`.
enum Displays {
  /// Opens the display `--display` names. `auto` (`AutoDisplay`, its choice and why said on
  /// stderr): SDL when a display server is named and answers; else `console` when a DRM device
  /// or `/dev/fb0` can be written; else the terminal when standard output is one, else the text
  /// board.
  /// `console`: DRM/KMS on the first `/dev/dri/card*` with a connected output, else the
  /// framebuffer (why DRM could not be had is said on stderr).
  static func open(
    _ o: Options, environment: [String: String], console: Console, clock: Clock
  ) throws(CLIError) -> any Display {
    guard o.display == "auto" else {
      return try open(o, choosing: o.display, environment: environment, console: console, clock: clock)
    }
    let found = AutoDisplay.Findings(
      displayServer: ["SDL_VIDEODRIVER", "WAYLAND_DISPLAY", "DISPLAY"].first { !(environment[$0] ?? "").isEmpty }
        .map { "\($0)=\(environment[$0]!)" },
      consoleDevice: DRMScreen.devices.first { access($0, R_OK | W_OK) == 0 }
        ?? (access("/dev/fb0", W_OK) == 0 ? "/dev/fb0" : nil),
      stdoutIsTerminal: isatty(1) == 1)
    var auto = AutoDisplay.choose(found)
    if auto.choice == "sdl" {
      // A display server is named; if it cannot be reached, `auto` goes on to the console.
      do throws(CLIError) {
        let window = try open(o, choosing: "sdl", environment: environment, console: console, clock: clock)
        console.error(auto.line)
        return window
      } catch {
        auto = AutoDisplay.choose(found, serverFailed: error.message)
        console.error("wallboard: \(error.message); using --display \(auto.choice) (\(auto.reason))")
        return try open(o, choosing: auto.choice, environment: environment, console: console, clock: clock)
      }
    }
    console.error(auto.line)
    return try open(o, choosing: auto.choice, environment: environment, console: console, clock: clock)
  }

  /// Opens the display `choice` names (not `auto`).
  private static func open(
    _ o: Options, choosing choice: String, environment: [String: String], console: Console, clock: Clock
  ) throws(CLIError) -> any Display {
    if choice == "fb" || choice.hasPrefix("fb:") {
      let device = choice == "fb" ? "/dev/fb0" : String(choice.dropFirst(3))
      if let g = o.fbGeometry {
        // A file standing in for the device: no ioctls, no console.
        do {
          return FramebufferScreen(try Framebuffer.open(file: device, geometry: (g.width, g.height, g.bpp)))
        } catch {
          throw .runtime(error.description)
        }
      }
      let fb: Framebuffer
      do { fb = try Framebuffer.open(device: device) } catch { throw .runtime(error.description) }
      try checkFits(fb.size, device: device)
      return OnConsole(
        FramebufferScreen(fb), console: console, clock: clock,
        label: "\(device): \(fb.size.width)x\(fb.size.height), \(fb.format.bitsPerPixel) bits a pixel"
          + (fb.isDoubleBuffered ? ", two pages" : ""))
    }
    if choice == "console" {
      do throws(CLIError) {
        return try open(o, choosing: "drm", environment: environment, console: console, clock: clock)
      } catch {
        console.error(
          "wallboard: \(error.message); using --display fb"
            + (o.mode != nil ? " (in the console's mode: --mode is for DRM)" : ""))
        return try open(o, choosing: "fb", environment: environment, console: console, clock: clock)
      }
    }
    if choice == "drm" || choice.hasPrefix("drm:") {
      let screen: DRMScreen
      do {
        screen =
          choice == "drm"
          ? try DRMScreen.openFirst(mode: o.mode)
          : try DRMScreen.open(device: String(choice.dropFirst(4)), mode: o.mode)
      } catch {
        throw .runtime(error.description)
      }
      return OnConsole(screen, console: console, clock: clock, label: "\(screen.device): \(screen.summary)")
    }
    switch choice {
    case "sdl":
      do {
        return try SDLWindow(title: "Wallboard", size: o.size, hideCursor: true, clock: clock)
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
      // Keys come from standard input when it is a terminal and no source reads it.
      let keys = isatty(0) == 1 && !o.effectiveSources.contains { $0.name.hasSuffix(":-") }
      let t = TerminalDisplay(input: keys ? 0 : nil, size: o.size.map { (columns: $0.width, rows: $0.height) })
      // Ctrl-C is the way out of the terminal view: the run loop returns and `close()` leaves
      // the terminal as it was found; a second Ctrl-C (a hung loop) restores it from the handler.
      t.armEmergencyRestore()
      return TerminalScreen(t)
    case "text":
      return TextDisplay(console: console)
    case let c where c.hasPrefix("png:"):
      try Snapshot.checkOutput(String(c.dropFirst(4)), option: "--display png:")
      return PNGFileDisplay(path: String(c.dropFirst(4)), size: o.size ?? (1920, 1080))
    default:
      throw .runtime("--display \(choice) is not one of \(OptionTable.displays)")
    }
  }

  /// Refuses a screen larger than the board draws.
  static func checkFits(_ size: (width: Int, height: Int), device: String) throws(CLIError) {
    guard Canvas.frameFits(width: size.width, height: size.height) else {
      throw .runtime(
        "\(device): \(size.width)x\(size.height) is larger than the board draws "
          + "(\(Canvas.maxFrameSide) a side, \(Canvas.maxFramePixels) pixels in all)")
    }
  }
}

/// A display on the Linux console: the console is switched to graphics mode while it shows the
/// board (no text, no cursor over it) and put back when it closes. When the console cannot be
/// had (no `/dev/tty0`, not allowed), the board still shows, and stderr says why the console
/// stays in text mode.
///
/// Its first frame is said on stderr (the journal, under systemd) with the device, its mode and
/// the time since the process started: "wallboard: /dev/dri/card0: Virtual-1 1024x768@60,
/// XRGB8888, page flips; first frame 212 ms after start".
final class OnConsole: Display {
  let inner: any Display
  private let guardian: ConsoleGuard?
  private let console: Console
  private let label: String
  private let clock: Clock
  private var shown = false

  init(_ inner: any Display, console: Console, clock: Clock, label: String) {
    self.clock = clock
    self.inner = inner
    self.console = console
    self.label = label
    var g: ConsoleGuard?
    // The virtual console standard input is (the unit's tty1), else the foreground one.
    let tty = ConsoleGuard.console(standardInput: ttyname(0).map { String(cString: $0) })
    do { g = try ConsoleGuard(tty: tty) } catch { console.error("wallboard: the console stays in text mode: \(error)") }
    guardian = g
  }

  var size: (width: Int, height: Int) { inner.size }
  var traits: DisplayTraits { inner.traits }
  func present(_ frame: DisplayFrame) throws(DisplayError) {
    try inner.present(frame)
    guard !shown else { return }
    shown = true
    let since =
      ProcessStart.secondsSince(bootNow: clock.secondsSinceBoot()).map {
        "; first frame \(Int(($0 * 1000).rounded())) ms after start"
      } ?? ""
    console.error("wallboard: \(label)\(since)")
  }
  func setPower(_ on: Bool) -> Bool { inner.setPower(on) }
  func events() -> [DisplayEvent] { inner.events() }
  func close() {
    inner.close()
    guardian?.restore()
  }
}

/// `--display png:PATH`: each frame replaces a PNG file (written beside it, then renamed), at
/// most once a second: each is a whole file, read by whoever watches it. The encoder re-deflates
/// only the bands of rows that changed.
final class PNGFileDisplay: Display {
  let path: String
  let size: (width: Int, height: Int)
  private var encoder = PNGEncoder()

  init(path: String, size: (width: Int, height: Int)) {
    self.path = path
    self.size = size
  }

  var traits: DisplayTraits { DisplayTraits(fillsScreen: false, minimumFrameInterval: 1) }

  func present(_ frame: DisplayFrame) throws(DisplayError) {
    do {
      try PNG.write(png: encoder.encode(frame.canvas, changed: frame.dirty), to: path)
    } catch {
      throw DisplayError("cannot write \(path): \(error)")
    }
  }
}

/// `--display text`: the board as plain text on standard output, redrawn on a change and once a
/// second. It draws no pixels.
final class TextDisplay: Display {
  let console: Console

  init(console: Console) { self.console = console }

  var size: (width: Int, height: Int) { (0, 0) }
  var traits: DisplayTraits { DisplayTraits(fillsScreen: false, drawsPixels: false) }

  func present(_ frame: DisplayFrame) throws(DisplayError) { console.out("\u{1B}[H\u{1B}[2J" + frame.text()) }
}

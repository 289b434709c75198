internal import CSDL2
public import Clock
internal import Glibc
internal import Raster

/// A window shown through SDL2 (`SDL_Window`) that presents `Canvas` frames.
///
/// Frames are drawn into the window's software surface (`SDL_GetWindowSurface`) where its
/// pixels are the canvas's (`drawingBuffer`), else copied into it, and shown with
/// `SDL_UpdateWindowSurface`, which works on every SDL video driver, including `dummy`, X11,
/// Wayland and KMSDRM.
///
/// **Threads.** Not `Sendable`: create it, use it and let it go on one thread. SDL wants that to
/// be the main thread for video on most platforms. SDL's event queue is per process, so while two
/// windows are open each sees the other's key and quit events.
///
/// **Lifetime.** The first window of the process initialises SDL's video subsystem
/// (`SDL_InitSubSystem`, reference-counted by SDL); `deinit` destroys the window, releases the
/// subsystem and calls `SDL_Quit` when nothing else in the process still uses SDL.
public final class SDLWindow {
  /// The `SDL_Window`; owned, destroyed in `deinit`.
  let window: OpaquePointer
  /// Whether this window hid the mouse cursor (and so shows it again when it goes).
  private let hidCursor: Bool
  private let clock: Clock
  /// The window's size when it leaves fullscreen, in screen coordinates: its size before it went
  /// fullscreen, at first the size it was opened at, or two thirds of the display's.
  private var windowedSize: (width: Int, height: Int)
  /// Whether the window was opened fullscreen (no `size`): it then fills a screen.
  public let openedFullscreen: Bool
  /// Convert with `SDL_ConvertPixels` even when the surface takes canvas pixels as they are
  /// (lets tests exercise the conversion path on drivers whose surface is XRGB8888).
  var alwaysConvert = false
  /// Whether the window is an X11 one mapped by `requestMap()` (not by SDL's blocking show).
  var mapsItself = false
  /// When the last map request was sent (monotonic seconds), while the window is not mapped.
  var lastMapRequest: Double = 0
  /// When the window was first seen mapped but not covering its display, and how many times
  /// full screen was asked for again since (`reassertFullscreenIfLost`).
  var framedSince: Double?
  var fullscreenRequests = 0
  /// The surface's pixels last lent for a frame drawn in place (`drawingBuffer`), the
  /// background it was cleared to, and whether the last frame presented was drawn there.
  var lentSurface: UnsafeMutableRawPointer?
  var lentBackground: RGBA?
  var presentedLent = false

  /// Opens a window (`SDL_CreateWindow`).
  ///
  /// A fullscreen window is created at the display's position and size
  /// (`SDL_GetDisplayBounds`) as well as flagged `SDL_WINDOW_FULLSCREEN_DESKTOP`: on X11, SDL
  /// only *asks* a window manager for fullscreen (`_NET_WM_STATE_FULLSCREEN`), so on a bare X
  /// server (`xinit`, a kiosk) the window keeps the size it was created at.
  ///
  /// SDL's invisible drivers (`offscreen`, `dummy`) are refused unless `SDL_VIDEODRIVER` names
  /// them: SDL falls back to `offscreen` when it finds no display server, and the board would
  /// run with nothing on any screen.
  ///
  /// - Parameters:
  ///   - title: the window's title.
  ///   - size: the window's size in screen coordinates, resizable by the user; `nil` opens it
  ///     fullscreen at the desktop's resolution.
  ///   - hideCursor: hide the mouse cursor while the window exists (`SDL_ShowCursor`).
  public init(
    title: String, size: (width: Int, height: Int)?, hideCursor: Bool = true, clock: Clock
  ) throws(SDLError) {
    self.clock = clock
    if let size {
      precondition(
        size.width > 0 && size.height > 0 && size.width <= 16384 && size.height <= 16384,
        "window size \(size.width)x\(size.height) is out of range")
    }
    // SDL2 is opened now, not at start: a board on another display never loads it.
    try SDLLibrary.load()
    // The board is drawn in software: copy it to X11 with MIT-SHM rather than through an OpenGL
    // renderer, which SDL makes by destroying and recreating the window (at its windowed size).
    // The environment variable, when set, still decides.
    _ = sdl.SDL_SetHint!(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
    // SIGINT and SIGTERM are the executable's (a flag its run loop reads, then a normal return
    // that flushes and closes everything); SDL would otherwise take them for SDL_QUIT.
    _ = sdl.SDL_SetHint!(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
    guard sdl.SDL_InitSubSystem!(SDL_INIT_VIDEO) == 0 else {
      let error = SDLError.last("SDL_InitSubSystem(SDL_INIT_VIDEO)")
      SDLWindow.quitIfUnused()
      throw error
    }
    let driver = sdl.SDL_GetCurrentVideoDriver!().map { String(cString: $0) } ?? ""
    if SDLWindow.invisibleDrivers.contains(driver) && !SDLWindow.requestedDrivers.contains(driver) {
      SDLWindow.releaseVideo()
      throw SDLError.noDisplayServer(driver: driver)
    }
    var bounds = SDL_Rect()
    guard sdl.SDL_GetDisplayBounds!(0, &bounds) == 0 else {
      let error = SDLError.last("SDL_GetDisplayBounds")
      SDLWindow.releaseVideo()
      throw error
    }
    let undefined = wb_SDL_WindowPosUndefined()
    let frame: (x: Int32, y: Int32, width: Int32, height: Int32)
    // Created hidden and mapped by `requestMap()`: SDL's show waits for the map with no timeout,
    // and a window manager starting at the same moment can swallow the request (see `shim.h`).
    var flags = wb_SDL_WindowHidden() | SDL_WINDOW_RESIZABLE.rawValue
    if let size {
      windowedSize = size
      frame = (undefined, undefined, Int32(size.width), Int32(size.height))
    } else {
      windowedSize = (Int(bounds.w) * 2 / 3, Int(bounds.h) * 2 / 3)
      frame = (bounds.x, bounds.y, bounds.w, bounds.h)
      flags |= wb_SDL_WindowFullscreenDesktop()
    }
    guard let created = sdl.SDL_CreateWindow!(title, frame.x, frame.y, frame.width, frame.height, flags) else {
      let error = SDLError.last("SDL_CreateWindow")
      SDLWindow.releaseVideo()
      throw error
    }
    window = created
    openedFullscreen = size == nil
    hidCursor = hideCursor
    if hideCursor { _ = sdl.SDL_ShowCursor!(SDL_DISABLE) }
    requestMap()
  }

  /// Whether the window is mapped (SDL saw its `MapNotify`: `SDL_WINDOW_SHOWN`).
  public var isMapped: Bool { sdl.SDL_GetWindowFlags!(window) & wb_SDL_WindowShown() != 0 }

  /// Asks for the window to be shown, without waiting: on X11 a map request (`XMapRaised`), sent
  /// again by `pollEvents()` each second while the window is not mapped, in case a window manager
  /// that was starting dropped it; on other drivers `SDL_ShowWindow`.
  func requestMap() {
    lastMapRequest = monotonic()
    var table = sdl
    if wb_SDL_X11MapRaised(&table, window) == 1 {
      mapsItself = true
    } else if !mapsItself {
      sdl.SDL_ShowWindow!(window)
    }
  }

  /// Sends the map request again when the window is still not mapped a second after the last.
  func remapIfLost() {
    guard mapsItself, !isMapped, monotonic() - lastMapRequest >= 1 else { return }
    requestMap()
  }

  /// Asks for full screen again when a window that should be full screen is mapped but framed
  /// (not at its display's position and size).
  ///
  /// A window manager starting with the board may adopt the already-mapped window as an ordinary
  /// one (it reads the window's `_NET_WM_STATE` before SDL set it, or never): SDL still holds the
  /// fullscreen flag, so nothing would ask again. A second after the window is seen framed, and
  /// each second after, up to five times, full screen is left and entered again — which sends the
  /// window manager the `_NET_WM_STATE` request a mapped window needs.
  func reassertFullscreenIfLost() {
    guard mapsItself, isMapped, isFullscreen, fullscreenRequests < 5 else { return }
    guard let bounds = try? displayBounds() else { return }
    var x: Int32 = 0
    var y: Int32 = 0
    var w: Int32 = 0
    var h: Int32 = 0
    var table = sdl
    // Where the window really is: SDL's own position stays (0, 0) inside a window manager's frame.
    if wb_SDL_X11RootPosition(&table, window, &x, &y) == 0 { sdl.SDL_GetWindowPosition!(window, &x, &y) }
    sdl.SDL_GetWindowSize!(window, &w, &h)
    // Framed: moved by its decoration (1024x600+1+20 on a 1024x600 screen) or smaller.
    guard x != bounds.x || y != bounds.y || w != bounds.w || h != bounds.h else {
      framedSince = nil
      return
    }
    let now = monotonic()
    guard let since = framedSince else {
      framedSince = now
      return
    }
    guard now - since >= 1 else { return }
    framedSince = now
    fullscreenRequests += 1
    _ = sdl.SDL_SetWindowFullscreen!(window, 0)
    sdl.SDL_SetWindowPosition!(window, bounds.x, bounds.y)
    sdl.SDL_SetWindowSize!(window, bounds.w, bounds.h)
    _ = sdl.SDL_SetWindowFullscreen!(window, wb_SDL_WindowFullscreenDesktop())
  }

  /// Seconds on the monotonic clock.
  func monotonic() -> Double { clock.monotonic().seconds }

  deinit {
    if hidCursor { _ = sdl.SDL_ShowCursor!(SDL_ENABLE) }
    sdl.SDL_DestroyWindow!(window)
    SDLWindow.releaseVideo()
  }

  /// Releases this window's hold on the video subsystem, then quits SDL if nothing uses it.
  private static func releaseVideo() {
    sdl.SDL_QuitSubSystem!(SDL_INIT_VIDEO)
    quitIfUnused()
  }

  /// `SDL_Quit` when no SDL subsystem is initialised any more (frees SDL's remaining state).
  private static func quitIfUnused() {
    if sdl.SDL_WasInit!(0) == 0 { sdl.SDL_Quit!() }
  }

  /// SDL's video drivers that show nothing on any screen.
  static let invisibleDrivers: Set<String> = ["offscreen", "dummy"]

  /// The drivers `SDL_VIDEODRIVER` names (the hint or the environment variable), lowercased.
  static var requestedDrivers: Set<String> {
    let list = sdl.SDL_GetHint!(SDL_HINT_VIDEODRIVER).map { String(cString: $0) } ?? ""
    return Set(list.split(separator: ",").map { $0.filter { $0 != " " }.lowercased() })
  }

  /// The drawable area in pixels (`SDL_GetWindowSizeInPixels`): the size to draw frames at.
  public var pixelSize: (width: Int, height: Int) {
    var w: Int32 = 0
    var h: Int32 = 0
    sdl.SDL_GetWindowSizeInPixels!(window, &w, &h)
    return (Int(w), Int(h))
  }

  /// Whether the window covers its display (`SDL_GetWindowFlags` has a fullscreen flag).
  public var isFullscreen: Bool {
    sdl.SDL_GetWindowFlags!(window) & SDL_WINDOW_FULLSCREEN.rawValue != 0
  }

  /// The bounds of the display the window is on (`SDL_GetDisplayBounds`), in screen coordinates.
  func displayBounds() throws(SDLError) -> SDL_Rect {
    var bounds = SDL_Rect()
    guard sdl.SDL_GetDisplayBounds!(max(0, sdl.SDL_GetWindowDisplayIndex!(window)), &bounds) == 0 else {
      throw SDLError.last("SDL_GetDisplayBounds")
    }
    return bounds
  }

  /// Switches between fullscreen-desktop and a window (`SDL_SetWindowFullscreen`), with or
  /// without a window manager.
  ///
  /// Going fullscreen, the window is first moved and sized to cover its display, which is all
  /// there is to it on a bare X server; then SDL asks the window manager, if any, to make it
  /// fullscreen (no border, above panels). Leaving, it takes back its windowed size, centred on
  /// the display. A `.resized` event follows when the drawable size changes.
  public func setFullscreen(_ on: Bool) throws(SDLError) {
    guard on != isFullscreen else { return }
    let bounds = try displayBounds()
    if on {
      var w: Int32 = 0
      var h: Int32 = 0
      sdl.SDL_GetWindowSize!(window, &w, &h)
      windowedSize = (Int(w), Int(h))
      sdl.SDL_SetWindowPosition!(window, bounds.x, bounds.y)
      sdl.SDL_SetWindowSize!(window, bounds.w, bounds.h)
      guard sdl.SDL_SetWindowFullscreen!(window, wb_SDL_WindowFullscreenDesktop()) == 0 else {
        throw SDLError.last("SDL_SetWindowFullscreen")
      }
    } else {
      guard sdl.SDL_SetWindowFullscreen!(window, 0) == 0 else { throw SDLError.last("SDL_SetWindowFullscreen") }
      let (w, h) = (Int32(windowedSize.width), Int32(windowedSize.height))
      sdl.SDL_SetWindowSize!(window, w, h)
      sdl.SDL_SetWindowPosition!(window, bounds.x + (bounds.w - w) / 2, bounds.y + (bounds.h - h) / 2)
    }
  }

  /// Whether SDL can probably show a window here, for `--display auto`.
  ///
  /// True when `SDL_VIDEODRIVER` names a driver (the user chose one, e.g. `kmsdrm` or `dummy`),
  /// or when an X11 (`DISPLAY`) or Wayland (`WAYLAND_DISPLAY`) display server is advertised.
  /// Empty values count as unset. This only reads the environment: opening a window can still
  /// fail (say, `DISPLAY` names a server that is gone), and callers should fall back then.
  public static func displayAvailable(environment: [String: String]) -> Bool {
    ["SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
  }
}

@_spi(Testing)
extension SDLWindow {
  /// Copy frames through `SDL_ConvertPixels` even when the surface's format needs no conversion.
  public var _alwaysConvert: Bool {
    get { alwaysConvert }
    set { alwaysConvert = newValue }
  }

  /// The window surface's pixel format (`SDL_GetPixelFormatName`), e.g. `SDL_PIXELFORMAT_RGB888`.
  public var _surfaceFormatName: String {
    get throws(SDLError) {
      guard let surface = sdl.SDL_GetWindowSurface!(window) else { throw SDLError.last("SDL_GetWindowSurface") }
      return sdl.SDL_GetPixelFormatName!(surface.pointee.format.pointee.format).map { String(cString: $0) } ?? "unknown"
    }
  }

  /// Resizes the window (`SDL_SetWindowSize`) as a user dragging its border would.
  public func _setSize(width: Int, height: Int) {
    sdl.SDL_SetWindowSize!(window, Int32(width), Int32(height))
  }
}

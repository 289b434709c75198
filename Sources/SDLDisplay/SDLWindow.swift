internal import CSDL2

/// A window shown through SDL2 (`SDL_Window`) that presents `Canvas` frames.
///
/// Frames are copied into the window's software surface (`SDL_GetWindowSurface`) and shown with
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
  /// Convert with `SDL_ConvertPixels` even when the surface takes canvas pixels as they are
  /// (lets tests exercise the conversion path on drivers whose surface is XRGB8888).
  var alwaysConvert = false

  /// Opens a window (`SDL_CreateWindow`).
  ///
  /// - Parameters:
  ///   - title: the window's title.
  ///   - size: the window's size in screen coordinates, resizable by the user; `nil` opens it
  ///     fullscreen at the desktop's resolution (`SDL_WINDOW_FULLSCREEN_DESKTOP`).
  ///   - hideCursor: hide the mouse cursor while the window exists (`SDL_ShowCursor`).
  public init(title: String, size: (width: Int, height: Int)?, hideCursor: Bool = true) throws(SDLError) {
    if let size {
      precondition(
        size.width > 0 && size.height > 0 && size.width <= 16384 && size.height <= 16384,
        "window size \(size.width)x\(size.height) is out of range")
    }
    guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else {
      let error = SDLError.last("SDL_InitSubSystem(SDL_INIT_VIDEO)")
      SDLWindow.quitIfUnused()
      throw error
    }
    var flags = SDL_WINDOW_SHOWN.rawValue
    if size == nil {
      flags |= wb_SDL_WindowFullscreenDesktop()
    } else {
      flags |= SDL_WINDOW_RESIZABLE.rawValue
    }
    let position = wb_SDL_WindowPosUndefined()
    let created = SDL_CreateWindow(
      title, position, position, Int32(size?.width ?? 0), Int32(size?.height ?? 0), flags)
    guard let created else {
      let error = SDLError.last("SDL_CreateWindow")
      SDLWindow.releaseVideo()
      throw error
    }
    window = created
    hidCursor = hideCursor
    if hideCursor { _ = SDL_ShowCursor(SDL_DISABLE) }
  }

  deinit {
    if hidCursor { _ = SDL_ShowCursor(SDL_ENABLE) }
    SDL_DestroyWindow(window)
    SDLWindow.releaseVideo()
  }

  /// Releases this window's hold on the video subsystem, then quits SDL if nothing uses it.
  private static func releaseVideo() {
    SDL_QuitSubSystem(SDL_INIT_VIDEO)
    quitIfUnused()
  }

  /// `SDL_Quit` when no SDL subsystem is initialised any more (frees SDL's remaining state).
  private static func quitIfUnused() {
    if SDL_WasInit(0) == 0 { SDL_Quit() }
  }

  /// The drawable area in pixels (`SDL_GetWindowSizeInPixels`): the size to draw frames at.
  public var pixelSize: (width: Int, height: Int) {
    var w: Int32 = 0
    var h: Int32 = 0
    SDL_GetWindowSizeInPixels(window, &w, &h)
    return (Int(w), Int(h))
  }

  /// Whether the window covers its display (`SDL_GetWindowFlags` has a fullscreen flag).
  public var isFullscreen: Bool {
    SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN.rawValue != 0
  }

  /// Switches between fullscreen-desktop and a window (`SDL_SetWindowFullscreen`).
  ///
  /// A `.resized` event follows when the drawable size changes.
  public func setFullscreen(_ on: Bool) throws(SDLError) {
    guard SDL_SetWindowFullscreen(window, on ? wb_SDL_WindowFullscreenDesktop() : 0) == 0 else {
      throw SDLError.last("SDL_SetWindowFullscreen")
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
      guard let surface = SDL_GetWindowSurface(window) else { throw SDLError.last("SDL_GetWindowSurface") }
      return String(cString: SDL_GetPixelFormatName(surface.pointee.format.pointee.format))
    }
  }

  /// Resizes the window (`SDL_SetWindowSize`) as a user dragging its border would.
  public func _setSize(width: Int, height: Int) {
    SDL_SetWindowSize(window, Int32(width), Int32(height))
  }
}

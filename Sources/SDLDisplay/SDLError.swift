internal import CSDL2

/// A failed SDL call: which call, and what `SDL_GetError()` said about it.
public struct SDLError: Error, CustomStringConvertible, Equatable {
  /// The SDL function that failed, e.g. `SDL_CreateWindow`.
  public let call: String
  /// SDL's own explanation (`SDL_GetError()`), possibly empty.
  public let message: String

  /// Set when SDL found no display server and started only `invisibleDriver` (`offscreen`,
  /// `dummy`), which shows nothing on any screen, without `SDL_VIDEODRIVER` asking for it.
  public let invisibleDriver: String?

  public init(call: String, message: String, invisibleDriver: String? = nil) {
    self.call = call
    self.message = message
    self.invisibleDriver = invisibleDriver
  }

  /// SDL started only its invisible `driver`: there is no display server to show a window on.
  static func noDisplayServer(driver: String) -> SDLError {
    SDLError(
      call: "SDL_InitSubSystem(SDL_INIT_VIDEO)",
      message: "SDL found no X11, Wayland or KMSDRM display and chose its \"\(driver)\" driver, which shows nothing",
      invisibleDriver: driver)
  }

  /// An error for `call` carrying the text of `SDL_GetError()` at this moment.
  static func last(_ call: String) -> SDLError {
    SDLError(call: call, message: sdl.SDL_GetError!().map { String(cString: $0) } ?? "")
  }

  public var description: String {
    message.isEmpty ? "\(call) failed" : "\(call) failed: \(message)"
  }
}

internal import CSDL2

/// SDL2, opened the first time a window is (`dlopen` of `libSDL2-2.0.so.0`): a board that never
/// opens a window never maps SDL2 or the libraries it needs. Every SDL call of this module goes
/// through `sdl`, the table of its functions.
enum SDLLibrary {
  /// The library's name on Debian and Raspberry Pi OS (package `libsdl2-2.0-0`).
  static let soname = "libSDL2-2.0.so.0"

  /// The loaded table, or why it could not be loaded.
  static let loaded: Result<wb_SDL, SDLError> = {
    var table = wb_SDL()
    if let failure = wb_SDL_Load(soname, &table) {
      return .failure(
        SDLError(
          call: "dlopen(\(soname))",
          message: String(cString: failure) + " (install it with: apt-get install libsdl2-2.0-0)"))
    }
    return .success(table)
  }()

  /// Loads SDL2 (once); throws when it cannot be, naming the library and its package.
  static func load() throws(SDLError) {
    if case .failure(let e) = loaded { throw e }
  }
}

/// SDL2's functions, once `SDLLibrary.load()` has succeeded (every `SDLWindow` starts with it).
var sdl: wb_SDL {
  guard case .success(let t) = SDLLibrary.loaded else { preconditionFailure("SDL2 is used before it was loaded") }
  return t
}

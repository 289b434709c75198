internal import CSDL2

/// A failed SDL call: which call, and what `SDL_GetError()` said about it.
public struct SDLError: Error, CustomStringConvertible, Equatable {
  /// The SDL function that failed, e.g. `SDL_CreateWindow`.
  public let call: String
  /// SDL's own explanation (`SDL_GetError()`), possibly empty.
  public let message: String

  public init(call: String, message: String) {
    self.call = call
    self.message = message
  }

  /// An error for `call` carrying the text of `SDL_GetError()` at this moment.
  static func last(_ call: String) -> SDLError {
    SDLError(call: call, message: SDL_GetError().map { String(cString: $0) } ?? "")
  }

  public var description: String {
    message.isEmpty ? "\(call) failed" : "\(call) failed: \(message)"
  }
}

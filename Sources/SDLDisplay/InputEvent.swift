/// Something the user or the window system did that the board reacts to.
public enum InputEvent: Equatable, Sendable {
  /// The window was closed. (SDL's SIGINT/SIGTERM handlers, which would make this too, are
  /// turned off: the signals are the executable's.)
  case quit
  /// A key went down (auto-repeat is ignored). `shift` is true when either Shift was held.
  case key(Key, shift: Bool)
  /// The window's drawable area changed size; the next frame should be drawn at this size.
  case resized(width: Int, height: Int)
  /// The window's contents were lost (uncovered, restored) and should be presented again.
  case exposed
}

/// The keys the board gives a meaning to; everything else is `.other`.
public enum Key: Equatable, Sendable, CaseIterable {
  case q, escape, t, v, f, left, right, d, other
}

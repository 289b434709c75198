internal import CSDL2

extension SDLWindow {
  /// The events waiting now, without blocking (`SDL_PollEvent` until the queue is empty).
  ///
  /// Events the board has no use for (mouse, key releases, auto-repeat, focus…) are dropped;
  /// the two size events SDL sends for one resize come out as one `.resized`.
  public func pollEvents() -> [InputEvent] {
    var events: [InputEvent] = []
    var event = SDL_Event()
    while sdl.SDL_PollEvent!(&event) == 1 { append(event, to: &events) }
    remapIfLost()
    reassertFullscreenIfLost()
    return events
  }

  /// Waits up to `timeout` seconds for an event (`SDL_WaitEventTimeout`), then takes every
  /// other waiting event too.
  ///
  /// Returns as soon as SDL has any event, so the result can be empty before the timeout when
  /// that event was one the board ignores (a mouse move, say); it is empty after a timeout.
  public func waitEvent(timeout: Double) -> [InputEvent] {
    let milliseconds = Int32(min(max(timeout, 0) * 1000, Double(Int32.max)).rounded(.up))
    var event = SDL_Event()
    guard sdl.SDL_WaitEventTimeout!(&event, milliseconds) == 1 else { return [] }
    var events: [InputEvent] = []
    append(event, to: &events)
    return events + pollEvents()
  }

  /// Appends what `event` means to the board, if anything, to `events`.
  private func append(_ event: SDL_Event, to events: inout [InputEvent]) {
    switch event.type {
    case SDL_QUIT.rawValue:
      events.append(.quit)
    case SDL_KEYDOWN.rawValue where event.key.repeat == 0:
      let shift = UInt32(event.key.keysym.mod) & KMOD_SHIFT.rawValue != 0
      events.append(.key(SDLWindow.key(event.key.keysym.sym), shift: shift))
    case SDL_WINDOWEVENT.rawValue where event.window.windowID == sdl.SDL_GetWindowID!(window):
      switch UInt32(event.window.event) {
      case SDL_WINDOWEVENT_SIZE_CHANGED.rawValue, SDL_WINDOWEVENT_RESIZED.rawValue:
        // The event's data is in screen coordinates; frames are drawn in pixels.
        let (width, height) = pixelSize
        let resized = InputEvent.resized(width: width, height: height)
        if events.last(where: { if case .resized = $0 { true } else { false } }) != resized {
          events.append(resized)
        }
      case SDL_WINDOWEVENT_EXPOSED.rawValue:
        events.append(.exposed)
      default:
        break
      }
    default:
      break
    }
  }

  /// The board's name for an SDL keycode.
  static func key(_ code: SDL_Keycode) -> Key {
    keycodes.first { $0.code == code }?.key ?? .other
  }

  /// SDL keycodes of the keys with a meaning (letters are the same with or without Shift).
  static let keycodes: [(key: Key, code: SDL_Keycode)] = {
    let table: [(Key, SDL_KeyCode)] = [
      (.q, SDLK_q), (.escape, SDLK_ESCAPE), (.t, SDLK_t), (.v, SDLK_v), (.f, SDLK_f),
      (.left, SDLK_LEFT), (.right, SDLK_RIGHT), (.d, SDLK_d),
    ]
    return table.map { ($0.0, SDL_Keycode(bitPattern: $0.1.rawValue)) }
  }()
}

@_spi(Testing)
extension SDLWindow {
  /// Puts a synthetic event in SDL's queue (`SDL_PushEvent`), as the window system would.
  ///
  /// `.key` becomes a key-down with that key (`.other` is the `a` key) and left Shift held or
  /// not; `.resized` becomes an `SDL_WINDOWEVENT_RESIZED` for this window (its mapping reports
  /// the window's real drawable size, not the pushed one); `.exposed` an
  /// `SDL_WINDOWEVENT_EXPOSED`; `.quit` an `SDL_QUIT`.
  public func _pushSyntheticEvent(_ input: InputEvent) throws(SDLError) {
    var event = SDL_Event()
    switch input {
    case .quit:
      event.type = SDL_QUIT.rawValue
    case .key(let key, let shift):
      event.type = SDL_KEYDOWN.rawValue
      event.key.windowID = sdl.SDL_GetWindowID!(window)
      event.key.state = UInt8(SDL_PRESSED)
      event.key.keysym.sym =
        SDLWindow.keycodes.first { $0.key == key }?.code ?? SDL_Keycode(bitPattern: SDLK_a.rawValue)
      event.key.keysym.mod = shift ? UInt16(KMOD_LSHIFT.rawValue) : 0
    case .resized(let width, let height):
      event.type = SDL_WINDOWEVENT.rawValue
      event.window.windowID = sdl.SDL_GetWindowID!(window)
      event.window.event = UInt8(SDL_WINDOWEVENT_RESIZED.rawValue)
      event.window.data1 = Int32(width)
      event.window.data2 = Int32(height)
    case .exposed:
      event.type = SDL_WINDOWEVENT.rawValue
      event.window.windowID = sdl.SDL_GetWindowID!(window)
      event.window.event = UInt8(SDL_WINDOWEVENT_EXPOSED.rawValue)
    }
    guard sdl.SDL_PushEvent!(&event) == 1 else { throw SDLError.last("SDL_PushEvent") }
  }
}

internal import CSDL2
public import DisplayCore
public import Raster

extension SDLWindow {
  /// A canvas over the window surface's pixels, for a frame to be drawn into with no copy; nil
  /// when the surface's pixels are not the canvas's (`holdsCanvasPixels`), it must be locked to
  /// be written, or it is not `width` × `height` (the window was resized since).
  ///
  /// The surface is the window's until SDL replaces it (a resize): it holds the last frame
  /// presented from it (`holdsLastFrame`), unless another canvas was presented since or the
  /// surface or the background changed, when it is cleared to `background`.
  public func drawingBuffer(
    width: Int, height: Int, offset: (dx: Int, dy: Int), background: RGBA
  ) throws(DisplayError) -> DrawingBuffer? {
    guard offset == (0, 0), !alwaysConvert, let surface = sdl.SDL_GetWindowSurface!(window),
      wb_SDL_MustLock(surface) == 0, let pixels = surface.pointee.pixels,
      SDLWindow.holdsCanvasPixels(surface.pointee.format.pointee.format),
      Int(surface.pointee.pitch) % 4 == 0, Int(surface.pointee.w) == width, Int(surface.pointee.h) == height
    else { return nil }
    let holds = lentSurface == pixels && lentBackground == background && presentedLent
    if !holds {
      let all = IRect(x: 0, y: 0, width: width, height: height)
      _ = LentSurface.fill(pixels, pitch: Int(surface.pointee.pitch), rect: all, with: Canvas.pack(background))
    }
    lentSurface = pixels
    lentBackground = background
    let canvas = Canvas(
      lentBy: self, memory: pixels, stride: Int(surface.pointee.pitch) / 4, screen: (width, height), width: width,
      height: height)
    return DrawingBuffer(canvas: canvas, holdsLastFrame: holds)
  }

  /// Shows `rects` (nil: all) of a frame drawn into the window surface itself, with no copy.
  /// Returns false when `canvas` is not the surface lent (it must then be copied in).
  func presentLent(_ canvas: Canvas, rects: [IRect]?) throws(SDLError) -> Bool {
    guard let pixels = lentSurface, canvas.isLent(pixels),
      let surface = sdl.SDL_GetWindowSurface!(window), surface.pointee.pixels == pixels
    else {
      presentedLent = false
      return false
    }
    presentedLent = true
    let bounds = IRect(x: 0, y: 0, width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    guard let rects else {
      guard sdl.SDL_UpdateWindowSurface!(window) == 0 else { throw SDLError.last("SDL_UpdateWindowSurface") }
      return true
    }
    var sdlRects = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }.map {
      SDL_Rect(x: Int32($0.x), y: Int32($0.y), w: Int32($0.width), h: Int32($0.height))
    }
    guard !sdlRects.isEmpty else { return true }
    guard sdl.SDL_UpdateWindowSurfaceRects!(window, &sdlRects, Int32(sdlRects.count)) == 0 else {
      throw SDLError.last("SDL_UpdateWindowSurfaceRects")
    }
    return true
  }
}

/// Filling a window surface of 32-bit pixels.
enum LentSurface {
  static func fill(_ pixels: UnsafeMutableRawPointer, pitch: Int, rect: IRect, with pixel: UInt32) -> Int {
    for y in rect.y..<rect.maxY {
      (pixels + y * pitch + rect.x * 4).bindMemory(to: UInt32.self, capacity: rect.width).update(
        repeating: pixel, count: rect.width)
    }
    return rect.width * rect.height * 4
  }
}

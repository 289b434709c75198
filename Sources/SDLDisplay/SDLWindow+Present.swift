internal import CSDL2
public import Raster

extension SDLWindow {
  /// Shows `canvas` in the whole window (`SDL_UpdateWindowSurface`).
  ///
  /// The canvas is drawn at the window's top-left corner. When its size differs from
  /// `pixelSize` (the window was resized after the frame was drawn), the overlap is shown and
  /// the rest of the window is cleared to black.
  public func present(_ canvas: Canvas) throws(SDLError) {
    try present(canvas, rects: nil)
  }

  /// Shows rows `rows` of `canvas`, full width, leaving the rest of the window as it was.
  ///
  /// For a frame in which only a band changed. Rows outside the window are ignored.
  public func present(_ canvas: Canvas, rows: Range<Int>) throws(SDLError) {
    let width = max(canvas.width, pixelSize.width)
    try present(canvas, rects: [IRect(x: 0, y: rows.lowerBound, width: width, height: rows.count)])
  }

  /// Shows the parts of `canvas` inside `rects` (`SDL_UpdateWindowSurfaceRects`), leaving the
  /// rest of the window as it was.
  ///
  /// For a frame in which only some widgets changed: only those rectangles are copied and
  /// uploaded. Rectangles may overlap; parts outside the window are ignored, parts inside the
  /// window but outside the canvas are cleared to black.
  public func present(_ canvas: Canvas, rects: [IRect]) throws(SDLError) {
    try present(canvas, rects: Optional(rects))
  }

  /// Copies `rects` (nil: the whole window) of `canvas` into the window surface and shows them.
  private func present(_ canvas: Canvas, rects: [IRect]?) throws(SDLError) {
    let surface = try windowSurface()
    let bounds = IRect(x: 0, y: 0, width: Int(surface.pointee.w), height: Int(surface.pointee.h))
    let areas = (rects ?? [bounds]).map { $0.intersection(bounds) }.filter { !$0.isEmpty }
    guard !areas.isEmpty else { return }

    // Parts of the window the canvas does not reach: black. SDL_FillRect knows every format.
    let black = sdl.SDL_MapRGB!(surface.pointee.format, 0, 0, 0)
    for area in areas {
      for var gap in SDLWindow.outside(canvas.bounds, within: area) {
        guard sdl.SDL_FillRect!(surface, &gap, black) == 0 else { throw SDLError.last("SDL_FillRect") }
      }
    }

    try withLockedPixels(surface) { (pixels: UnsafeMutableRawPointer, pitch: Int) throws(SDLError) in
      let format = surface.pointee.format.pointee
      let direct = !alwaysConvert && SDLWindow.holdsCanvasPixels(format.format)
      for area in areas {
        let copy = area.intersection(canvas.bounds)
        guard !copy.isEmpty else { continue }
        // withUnsafeBytes rethrows untyped errors, so the failure comes out as a value.
        let failure: SDLError? = canvas.withUnsafePixels { canvasPixels in
          let source = UnsafeRawBufferPointer(canvasPixels)
          let sourcePitch = canvas.stride * 4
          let from = source.baseAddress! + copy.y * sourcePitch + copy.x * 4
          let to = pixels + copy.y * pitch + copy.x * Int(format.BytesPerPixel)
          if direct {
            for row in 0..<copy.height {
              (to + row * pitch).copyMemory(from: from + row * sourcePitch, byteCount: copy.width * 4)
            }
          } else {
            let status = sdl.SDL_ConvertPixels!(
              Int32(copy.width), Int32(copy.height), SDL_PIXELFORMAT_ARGB8888.rawValue, from,
              Int32(sourcePitch), format.format, to, Int32(pitch))
            if status != 0 { return SDLError.last("SDL_ConvertPixels") }
          }
          return nil
        }
        if let failure { throw failure }
      }
    }

    if rects == nil {
      guard sdl.SDL_UpdateWindowSurface!(window) == 0 else { throw SDLError.last("SDL_UpdateWindowSurface") }
    } else {
      var sdlRects = areas.map { SDL_Rect(x: Int32($0.x), y: Int32($0.y), w: Int32($0.width), h: Int32($0.height)) }
      guard sdl.SDL_UpdateWindowSurfaceRects!(window, &sdlRects, Int32(sdlRects.count)) == 0 else {
        throw SDLError.last("SDL_UpdateWindowSurfaceRects")
      }
    }
  }

  /// What the window surface holds now, as a canvas of `pixelSize` (converted from the
  /// surface's pixel format with `SDL_ConvertPixels`). For tests and screenshots.
  public func readPixels() throws(SDLError) -> Canvas {
    let surface = try windowSurface()
    let width = Int(surface.pointee.w)
    let height = Int(surface.pointee.h)
    guard width > 0, height > 0 else {
      throw SDLError(call: "SDL_GetWindowSurface", message: "the window surface is \(width)x\(height)")
    }
    var canvas = Canvas(width: width, height: height)
    try withLockedPixels(surface) { (pixels: UnsafeMutableRawPointer, pitch: Int) throws(SDLError) in
      let status = canvas.withUnsafeMutablePixels { target in
        sdl.SDL_ConvertPixels!(
          Int32(width), Int32(height), surface.pointee.format.pointee.format, pixels, Int32(pitch),
          SDL_PIXELFORMAT_ARGB8888.rawValue, target.baseAddress!, Int32(width * 4))
      }
      guard status == 0 else { throw SDLError.last("SDL_ConvertPixels") }
    }
    // XRGB8888 surfaces leave the alpha byte undefined; the canvas is opaque.
    canvas.withUnsafeMutablePixels { pixels in
      for i in pixels.indices { pixels[i] |= 0xFF00_0000 }
    }
    return canvas
  }

  /// The window's software surface (`SDL_GetWindowSurface`), owned by the window.
  ///
  /// Fetched on every use: SDL replaces it after the window is resized.
  private func windowSurface() throws(SDLError) -> UnsafeMutablePointer<SDL_Surface> {
    guard let surface = sdl.SDL_GetWindowSurface!(window) else { throw SDLError.last("SDL_GetWindowSurface") }
    return surface
  }

  /// Runs `body` with the surface's pixels and pitch, locked (`SDL_LockSurface`) when
  /// `SDL_MUSTLOCK` says so and unlocked after.
  private func withLockedPixels(
    _ surface: UnsafeMutablePointer<SDL_Surface>,
    _ body: (UnsafeMutableRawPointer, Int) throws(SDLError) -> Void
  ) throws(SDLError) {
    let mustLock = wb_SDL_MustLock(surface) != 0
    if mustLock {
      guard sdl.SDL_LockSurface!(surface) == 0 else { throw SDLError.last("SDL_LockSurface") }
    }
    defer { if mustLock { sdl.SDL_UnlockSurface!(surface) } }
    guard let pixels = surface.pointee.pixels else {
      throw SDLError(call: "SDL_GetWindowSurface", message: "the window surface has no pixels")
    }
    try body(pixels, Int(surface.pointee.pitch))
  }

  /// Whether a surface of this pixel format takes canvas pixels as they are: ARGB8888, or
  /// XRGB8888 (`SDL_PIXELFORMAT_RGB888`), which ignores the alpha byte.
  static func holdsCanvasPixels(_ format: UInt32) -> Bool {
    format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue
  }

  /// The parts of `area` outside `covered` (a rectangle at the origin, like a canvas's bounds),
  /// as at most two rectangles: the strip right of it and the strip below it.
  static func outside(_ covered: IRect, within area: IRect) -> [SDL_Rect] {
    var parts: [IRect] = []
    let rightX = max(area.x, covered.maxX)
    let rightBottom = min(area.maxY, covered.maxY)
    parts.append(IRect(x: rightX, y: area.y, width: area.maxX - rightX, height: rightBottom - area.y))
    let bottomY = max(area.y, covered.maxY)
    parts.append(IRect(x: area.x, y: bottomY, width: area.width, height: area.maxY - bottomY))
    return parts.filter { !$0.isEmpty }.map {
      SDL_Rect(x: Int32($0.x), y: Int32($0.y), w: Int32($0.width), h: Int32($0.height))
    }
  }
}

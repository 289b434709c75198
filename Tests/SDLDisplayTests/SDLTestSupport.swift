import Clock
import Raster
@_spi(Testing) import SDLDisplay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens a window on SDL's `dummy` video driver (or on `WALLBOARD_SDL_TEST_DRIVER`, e.g. `x11`
/// under `xvfb-run -s -noreset`), so the tests need no display server.
///
/// Without `-noreset`, Xvfb resets when its last client leaves; each test's window is SDL's only
/// client, so the next test's `XOpenDisplay` can land in the reset and SDL says "x11 not
/// available" (about one run in six).
func testWindow(width: Int = 320, height: Int = 200) throws -> SDLWindow {
  let driver = getenv("WALLBOARD_SDL_TEST_DRIVER").map { String(cString: $0) } ?? "dummy"
  setenv("SDL_VIDEODRIVER", driver, 1)
  let window = try SDLWindow(title: "Wallboard test", size: (width, height), hideCursor: false, clock: .system)
  _ = window.pollEvents()  // the window's own shown/exposed/size events
  return window
}

/// A canvas with four coloured quadrants and a 1-pixel white border.
func quadrants(width: Int, height: Int, stride: Int? = nil) -> Canvas {
  var canvas = Canvas(width: width, height: height, stride: stride, background: RGBA(r: 0, g: 0, b: 0))
  let (hw, hh) = (width / 2, height / 2)
  canvas.fill(IRect(x: 0, y: 0, width: hw, height: hh), RGBA(r: 220, g: 40, b: 30))
  canvas.fill(IRect(x: hw, y: 0, width: width - hw, height: hh), RGBA(r: 30, g: 200, b: 60))
  canvas.fill(IRect(x: 0, y: hh, width: hw, height: height - hh), RGBA(r: 20, g: 50, b: 230))
  canvas.fill(IRect(x: hw, y: hh, width: width - hw, height: height - hh), RGBA(r: 250, g: 210, b: 0))
  let white = RGBA(r: 255, g: 255, b: 255)
  canvas.fill(IRect(x: 0, y: 0, width: width, height: 1), white)
  canvas.fill(IRect(x: 0, y: height - 1, width: width, height: 1), white)
  canvas.fill(IRect(x: 0, y: 0, width: 1, height: height), white)
  canvas.fill(IRect(x: width - 1, y: 0, width: 1, height: height), white)
  return canvas
}

/// The points where `actual` differs from `expected` inside `area` (both must contain it).
func differences(_ actual: Canvas, _ expected: Canvas, in area: IRect) -> [String] {
  var found: [String] = []
  for y in area.y..<area.maxY {
    for x in area.x..<area.maxX where actual.pixel(x, y) != expected.pixel(x, y) {
      found.append("(\(x), \(y)): \(actual.pixel(x, y)) instead of \(expected.pixel(x, y))")
      if found.count == 5 { return found }
    }
  }
  return found
}

/// The points inside `area` of `canvas` that are not `color`.
func pixels(of canvas: Canvas, in area: IRect, otherThan color: RGBA) -> [String] {
  var found: [String] = []
  for y in area.y..<area.maxY {
    for x in area.x..<area.maxX where canvas.pixel(x, y) != color {
      found.append("(\(x), \(y)): \(canvas.pixel(x, y))")
      if found.count == 5 { return found }
    }
  }
  return found
}

import Clock
import Raster
@_spi(Testing) import SDLDisplay
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension SDLTests {
  @Suite struct Present {
    @Test func aPresentedCanvasReadsBackPixelForPixel() throws {
      let window = try testWindow(width: 320, height: 200)
      #expect(window.pixelSize == (320, 200))
      let canvas = quadrants(width: 320, height: 200)
      try window.present(canvas)
      let shown = try window.readPixels()
      #expect(shown.width == 320 && shown.height == 200)
      #expect(differences(shown, canvas, in: canvas.bounds) == [])
    }

    @Test func theConversionPathShowsTheSamePixels() throws {
      let window = try testWindow(width: 320, height: 200)
      #expect(try window._surfaceFormatName.hasPrefix("SDL_PIXELFORMAT_"))
      window._alwaysConvert = true
      let canvas = quadrants(width: 320, height: 200, stride: 333)
      try window.present(Canvas(width: 320, height: 200, background: RGBA(r: 90, g: 90, b: 90)))
      try window.present(canvas, rows: 0..<100)
      try window.present(canvas, rects: [IRect(x: 0, y: 100, width: 320, height: 100)])
      #expect(differences(try window.readPixels(), canvas, in: canvas.bounds) == [])
    }

    @Test func aCanvasWithPaddedRowsPresentsItsPixelsOnly() throws {
      let window = try testWindow(width: 320, height: 200)
      var canvas = quadrants(width: 320, height: 200, stride: 347)
      // Paint the padding so a copy that ignores the stride would show it.
      canvas.withUnsafeMutablePixels { pixels in
        for y in 0..<200 {
          for x in 320..<347 { pixels[y * 347 + x] = 0xFFFF_00FF }
        }
      }
      try window.present(canvas)
      let shown = try window.readPixels()
      #expect(differences(shown, canvas, in: canvas.bounds) == [])
    }

    @Test func aSmallerCanvasShowsItsPixelsAndClearsTheRest() throws {
      let window = try testWindow(width: 320, height: 200)
      try window.present(Canvas(width: 320, height: 200, background: RGBA(r: 90, g: 90, b: 90)))
      let canvas = quadrants(width: 200, height: 120)
      try window.present(canvas)
      let shown = try window.readPixels()
      #expect(differences(shown, canvas, in: canvas.bounds) == [])
      let black = RGBA(r: 0, g: 0, b: 0)
      #expect(pixels(of: shown, in: IRect(x: 200, y: 0, width: 120, height: 200), otherThan: black) == [])
      #expect(pixels(of: shown, in: IRect(x: 0, y: 120, width: 320, height: 80), otherThan: black) == [])
    }

    @Test func aLargerCanvasShowsTheOverlap() throws {
      let window = try testWindow(width: 320, height: 200)
      let canvas = quadrants(width: 500, height: 260)
      try window.present(canvas)
      let shown = try window.readPixels()
      #expect(shown.width == 320 && shown.height == 200)
      #expect(differences(shown, canvas, in: shown.bounds) == [])
    }

    @Test func afterAResizeTheSurfaceFollowsTheWindow() throws {
      let window = try testWindow(width: 320, height: 200)
      let old = quadrants(width: 320, height: 200)
      try window.present(old)
      window._setSize(width: 400, height: 300)
      #expect(window.pixelSize == (400, 300))
      #expect(window.pollEvents().contains(.resized(width: 400, height: 300)))

      // The caller drew the old size before hearing about the resize.
      try window.present(old)
      var shown = try window.readPixels()
      #expect(shown.width == 400 && shown.height == 300)
      #expect(differences(shown, old, in: old.bounds) == [])
      #expect(
        pixels(of: shown, in: IRect(x: 320, y: 0, width: 80, height: 300), otherThan: RGBA(r: 0, g: 0, b: 0)) == [])

      let new = quadrants(width: 400, height: 300)
      try window.present(new)
      shown = try window.readPixels()
      #expect(differences(shown, new, in: new.bounds) == [])

      window._setSize(width: 160, height: 100)
      try window.present(new)
      shown = try window.readPixels()
      #expect(shown.width == 160 && shown.height == 100)
      #expect(differences(shown, new, in: shown.bounds) == [])
    }

    @Test func presentingRowsLeavesTheOtherRowsAlone() throws {
      let window = try testWindow(width: 320, height: 200)
      let before = quadrants(width: 320, height: 200)
      try window.present(before)
      var after = before
      after.fill(after.bounds, RGBA(r: 10, g: 120, b: 140))
      try window.present(after, rows: 50..<70)
      let shown = try window.readPixels()
      #expect(differences(shown, after, in: IRect(x: 0, y: 50, width: 320, height: 20)) == [])
      #expect(differences(shown, before, in: IRect(x: 0, y: 0, width: 320, height: 50)) == [])
      #expect(differences(shown, before, in: IRect(x: 0, y: 70, width: 320, height: 130)) == [])
    }

    @Test func presentingRectanglesLeavesTheRestAlone() throws {
      let window = try testWindow(width: 320, height: 200)
      let before = quadrants(width: 320, height: 200)
      try window.present(before)
      var after = before
      after.fill(after.bounds, RGBA(r: 10, g: 120, b: 140))
      let changed = [IRect(x: 10, y: 10, width: 30, height: 20), IRect(x: 300, y: 180, width: 50, height: 50)]
      try window.present(after, rects: changed)
      let shown = try window.readPixels()
      #expect(differences(shown, after, in: changed[0]) == [])
      #expect(differences(shown, after, in: IRect(x: 300, y: 180, width: 20, height: 20)) == [])
      #expect(differences(shown, before, in: IRect(x: 40, y: 0, width: 260, height: 200)) == [])
      #expect(differences(shown, before, in: IRect(x: 0, y: 30, width: 40, height: 170)) == [])
      try window.present(after, rects: [])
      #expect(differences(try window.readPixels(), shown, in: shown.bounds) == [])
    }

    @Test func fullscreenCanBeSwitchedOnAndOff() throws {
      let window = try testWindow(width: 320, height: 200)
      #expect(!window.isFullscreen)
      try window.setFullscreen(true)
      #expect(window.isFullscreen)
      try window.present(quadrants(width: window.pixelSize.width, height: window.pixelSize.height))
      try window.setFullscreen(false)
      #expect(!window.isFullscreen)
      // The windowed size comes back from the window manager; the dummy driver has none.
      let canvas = quadrants(width: window.pixelSize.width, height: window.pixelSize.height)
      try window.present(canvas)
      #expect(differences(try window.readPixels(), canvas, in: canvas.bounds) == [])
    }

    @Test func aFullscreenWindowCoversTheDisplay() throws {
      _ = try testWindow()  // sets the driver; closed at once
      let window = try SDLWindow(title: "Wallboard test", size: nil, clock: .system)
      #expect(window.isFullscreen)
      let (width, height) = window.pixelSize
      #expect(width > 0 && height > 0)
      let canvas = quadrants(width: width, height: height)
      try window.present(canvas)
      #expect(differences(try window.readPixels(), canvas, in: canvas.bounds) == [])
    }

    @Test func windowsShareSDLAndTheLastOneQuitsIt() throws {
      var first: SDLWindow? = try testWindow()
      let second = try testWindow(width: 100, height: 80)
      first = nil
      let canvas = quadrants(width: 100, height: 80)
      try second.present(canvas)
      #expect(differences(try second.readPixels(), canvas, in: canvas.bounds) == [])
      _ = first
    }

    @Test func aWindowCanBeOpenedAgainAfterTheLastClosed() throws {
      for size in [(64, 48), (96, 64)] {
        let window = try testWindow(width: size.0, height: size.1)
        let canvas = quadrants(width: size.0, height: size.1)
        try window.present(canvas)
        #expect(differences(try window.readPixels(), canvas, in: canvas.bounds) == [])
      }
    }

    @Test func anUnknownDriverIsATypedError() throws {
      setenv("SDL_VIDEODRIVER", "no-such-driver", 1)
      defer { setenv("SDL_VIDEODRIVER", "dummy", 1) }
      #expect {
        _ = try SDLWindow(title: "Wallboard test", size: (10, 10), clock: .system)
      } throws: { error in
        guard let error = error as? SDLError else { return false }
        return error.call == "SDL_InitSubSystem(SDL_INIT_VIDEO)" && error.description.contains("no-such-driver")
      }
    }
  }
}

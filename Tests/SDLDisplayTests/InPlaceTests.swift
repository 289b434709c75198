import DisplayCore
import Raster
@_spi(Testing) import SDLDisplay
import Testing

extension SDLTests {
  /// Frames drawn straight into the window surface (`SDLWindow.drawingBuffer`).
  @Suite struct InPlace {
    @Test func aFrameDrawnIntoTheSurfaceIsShownAsDrawn() throws {
      let window = try testWindow(width: 320, height: 200)
      let black = RGBA(r: 0, g: 0, b: 0)
      let first = try #require(try window.drawingBuffer(width: 320, height: 200, offset: (0, 0), background: black))
      #expect(!first.holdsLastFrame, "nothing was presented from the surface yet")
      #expect(first.canvas.isLent)
      var canvas = first.canvas
      let expected = quadrants(width: 320, height: 200)
      canvas.copy(canvas.bounds, from: expected)
      try window.present(DisplayFrame(canvas: canvas, dirty: nil))
      #expect(differences(try window.readPixels(), expected, in: expected.bounds) == [])

      // The next frame builds on it: only a corner changes.
      let second = try #require(try window.drawingBuffer(width: 320, height: 200, offset: (0, 0), background: black))
      #expect(second.holdsLastFrame)
      var next = second.canvas
      var reference = expected
      next.fill(IRect(x: 0, y: 0, width: 10, height: 10), RGBA(r: 1, g: 2, b: 3))
      reference.fill(IRect(x: 0, y: 0, width: 10, height: 10), RGBA(r: 1, g: 2, b: 3))
      try window.present(DisplayFrame(canvas: next, dirty: [IRect(x: 0, y: 0, width: 10, height: 10)]))
      #expect(differences(try window.readPixels(), reference, in: reference.bounds) == [])

      // A canvas of the caller's presented in between leaves nothing to build on.
      try window.present(DisplayFrame(canvas: expected, dirty: nil))
      let third = try #require(try window.drawingBuffer(width: 320, height: 200, offset: (0, 0), background: black))
      #expect(!third.holdsLastFrame)
      #expect(third.canvas.pixel(5, 5) == black, "cleared to the background")
    }

    @Test func aSurfaceOfAnotherSizeOrAConvertingWindowLendsNothing() throws {
      let window = try testWindow(width: 320, height: 200)
      let black = RGBA(r: 0, g: 0, b: 0)
      #expect(try window.drawingBuffer(width: 300, height: 200, offset: (0, 0), background: black) == nil)
      window._alwaysConvert = true
      #expect(try window.drawingBuffer(width: 320, height: 200, offset: (0, 0), background: black) == nil)
    }
  }
}

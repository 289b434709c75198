import DRMDisplay
import DisplayCore
import Raster
import Testing

/// Frames drawn straight into the hidden dumb buffer (`DRMScreen.drawingBuffer`) and flipped to
/// with no copy: the screen must show what the same frames drawn on a canvas of their own would.
@Suite struct DRMInPlaceTests {
  /// The buffer the last frame was shown from: the one flipped to, or set.
  func presented(_ dev: FakeDRM) -> UInt32 {
    let fb = dev.pendingFlips.last ?? dev.shown
    return dev.framebuffers.first { $0.value == fb }!.key
  }

  /// The first pixel where buffer `handle` differs from `reference`, nil when none does.
  func mismatch(_ dev: FakeDRM, _ handle: UInt32, _ reference: Canvas) -> String? {
    for y in 0..<reference.height {
      for x in 0..<reference.width where dev.pixel(handle, x, y) != reference[x: x, y: y] & 0xFF_FFFF {
        return "(\(x), \(y)): \(String(dev.pixel(handle, x, y), radix: 16))"
      }
    }
    return nil
  }

  @Test func framesDrawnInTheHiddenBufferAreFlippedToAndMatchACanvasOfTheirOwn() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    let (w, h) = (64, 48)
    var reference = Canvas(width: w, height: h)
    let frames: [[(IRect, RGBA)]] = [
      [(IRect(x: 0, y: 0, width: w, height: h), RGBA(r: 10, g: 20, b: 30))],
      [(IRect(x: 2, y: 3, width: 10, height: 4), RGBA(r: 200, g: 0, b: 0))],
      [(IRect(x: 20, y: 10, width: 8, height: 12), RGBA(r: 0, g: 200, b: 0))],
      [(IRect(x: 5, y: 5, width: 50, height: 2), RGBA(r: 0, g: 0, b: 200))],
      [(IRect(x: 40, y: 0, width: 10, height: 48), RGBA(r: 50, g: 60, b: 70))],
      [(IRect(x: 1, y: 1, width: 1, height: 1), RGBA(r: 255, g: 255, b: 255))],
    ]
    var buffers: Set<UInt32> = []
    for (n, frame) in frames.enumerated() {
      let before = s.copiedBytes
      let lent = try #require(
        try s.drawingBuffer(width: w, height: h, offset: (0, 0), background: RGBA(r: 0, g: 0, b: 0)))
      #expect(lent.holdsLastFrame == (n > 0), "frame \(n)")
      var canvas = lent.canvas
      #expect(dev.memory.values.contains { canvas.isLent($0.baseAddress!) }, "the canvas is a dumb buffer")
      for (rect, color) in frame {
        canvas.fill(rect, color)
        reference.fill(rect, color)
      }
      try s.present(DisplayFrame(canvas: canvas, dirty: n == 0 ? nil : frame.map(\.0)))
      let handle = presented(dev)
      buffers.insert(handle)
      #expect(mismatch(dev, handle, reference) == nil, "frame \(n)")
      // Only the frame before's rectangles are copied (the whole screen the first time a
      // buffer is lent): nothing of the frame itself.
      let last = n == 0 ? 0 : frames[n - 1].reduce(0) { $0 + $1.0.width * $1.0.height } * 4
      #expect(s.copiedBytes - before == (n <= 1 ? w * h * 4 : last), "frame \(n)")
    }
    #expect(buffers.count == 2, "shown from both buffers in turn")
    #expect(dev.calls("drmModeSetCrtc").count == 1)
    #expect(dev.calls("drmModePageFlip").count == frames.count - 1)
  }

  @Test func rgb565BuffersLendNothing() throws {
    let dev = FakeDRM()
    dev.bppAccepted = [16]
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    #expect(try s.drawingBuffer(width: 64, height: 48, offset: (0, 0), background: RGBA(r: 0, g: 0, b: 0)) == nil)
  }
}

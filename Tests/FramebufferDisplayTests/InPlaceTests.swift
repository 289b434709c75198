import FramebufferDisplay
import Raster
import Testing

/// Frames drawn straight into the device's pages (`Framebuffer.drawingBuffer`), shown with no
/// copy: each must look exactly as the same frame drawn on a canvas of its own would.
@Suite("Drawing into the framebuffer's own pages")
struct InPlaceTests {
  /// The pixels of `page` (of `h` rows, `w × 4` bytes each) as a canvas.
  static func page(_ device: FakeDevice, _ page: Int, _ w: Int, _ h: Int) -> Canvas {
    var c = Canvas(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        c[x: x, y: y] = 0xFF00_0000 | device.memory.load(fromByteOffset: ((page * h + y) * w + x) * 4, as: UInt32.self)
      }
    }
    return c
  }

  /// The first pixel where `a` and `b` differ, nil when none does.
  static func mismatch(_ a: Canvas, _ b: Canvas) -> String? {
    for y in 0..<a.height {
      for x in 0..<a.width where a[x: x, y: y] & 0xFF_FFFF != b[x: x, y: y] & 0xFF_FFFF {
        return "(\(x), \(y)): \(String(a[x: x, y: y], radix: 16)) ≠ \(String(b[x: x, y: y], radix: 16))"
      }
    }
    return nil
  }

  /// Frames that each change a few rectangles, different ones each time, so that a page shown in
  /// turn misses what the frame before changed unless it is brought up to date.
  static let frames: [[(IRect, RGBA)]] = [
    [(IRect(x: 0, y: 0, width: 40, height: 30), RGBA(r: 10, g: 20, b: 30))],
    [(IRect(x: 2, y: 3, width: 10, height: 4), RGBA(r: 200, g: 0, b: 0))],
    [(IRect(x: 20, y: 10, width: 8, height: 12), RGBA(r: 0, g: 200, b: 0))],
    [
      (IRect(x: 5, y: 5, width: 30, height: 2), RGBA(r: 0, g: 0, b: 200)),
      (IRect(x: 0, y: 25, width: 3, height: 3), .init(r: 9, g: 9, b: 9)),
    ],
    [(IRect(x: 30, y: 0, width: 10, height: 30), RGBA(r: 50, g: 60, b: 70))],
    [(IRect(x: 1, y: 1, width: 1, height: 1), RGBA(r: 255, g: 255, b: 255))],
  ]

  @Test(
    "a frame is drawn in the hidden page, panned to, and each page shows what a canvas of its own would",
    arguments: [2])
  func framesDrawnInPlace(pages: Int) throws {
    let (w, h) = (40, 30)
    let device = xrgbDevice(w, h, pages: pages)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    #expect(fb.isDoubleBuffered == (pages == 2))
    var reference = Canvas(width: w, height: h)
    for (n, frame) in Self.frames.enumerated() {
      let before = fb.copiedBytes
      let lent = try #require(fb.drawingBuffer(width: w, height: h, offset: (0, 0), fill: RGBA(r: 0, g: 0, b: 0)))
      var canvas = lent.canvas
      // The canvas is the page itself: the hidden one when there are two.
      let page = pages == 2 ? (n + 1) % 2 : 0
      #expect(canvas.isLent(device.memory.baseAddress! + page * h * w * 4), "frame \(n)")
      #expect(lent.holdsLastFrame == (n > 0), "frame \(n)")
      for (rect, color) in frame {
        canvas.fill(rect, color)
        reference.fill(rect, color)
      }
      let dirty = frame.map(\.0)
      fb.present(canvas, dirty: n == 0 ? nil : dirty)
      // Nothing is converted into the page: only the last frame's rectangles are copied into a
      // hidden page, or the whole screen the first time that page is lent.
      let copied = fb.copiedBytes - before
      let lastArea = n == 0 ? 0 : Self.frames[n - 1].reduce(0) { $0 + $1.0.width * $1.0.height } * 4
      #expect(
        copied == (pages == 1 ? (n == 0 ? w * h * 4 : 0) : (n == 0 ? w * h * 4 : n == 1 ? w * h * 4 : lastArea)),
        "frame \(n)")
      #expect(device.varInfo.yoffset == page * h, "frame \(n)")
      #expect(Self.mismatch(Self.page(device, page, w, h), reference) == nil, "frame \(n)")
    }
    #expect(device.calls("FBIOPAN_DISPLAY").count == (pages == 2 ? Self.frames.count : 0))
  }

  @Test("a frame moved against burn-in is drawn at its place, the uncovered edge in the fill")
  func movedFrames() throws {
    let (w, h) = (40, 30)
    let device = xrgbDevice(w, h, pages: 2)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let fill = RGBA(r: 1, g: 2, b: 3)
    var board = Canvas(width: w, height: h)
    for (n, (dx, dy)) in [(0, 0), (2, 1), (2, 1), (-3, -2), (-3, -2), (-3, -2)].enumerated() {
      let lent = try #require(fb.drawingBuffer(width: w, height: h, offset: (dx, dy), fill: fill))
      var canvas = lent.canvas
      #expect(
        canvas.drawable
          == IRect(x: 0, y: 0, width: w, height: h).intersection(IRect(x: -dx, y: -dy, width: w, height: h)))
      let frame = Self.frames[n]
      if !lent.holdsLastFrame {
        // A new place: the whole board is drawn again.
        canvas.copy(board.bounds, from: board)
      }
      for (rect, color) in frame {
        canvas.fill(rect, color)
        board.fill(rect, color)
      }
      fb.present(canvas, dirty: lent.holdsLastFrame ? frame.map(\.0) : nil, offset: (dx, dy), fill: fill)
      let shown = Self.page(device, device.varInfo.yoffset / h, w, h)
      #expect(Self.mismatch(shown, MovedFrameTests.moved(board, dx, dy, fill)) == nil, "frame \(n) at (\(dx), \(dy))")
    }
  }

  @Test("a frame copied in after frames drawn in place leaves no page to build on")
  func aCopiedFrameForgetsThePages() throws {
    let (w, h) = (16, 8)
    let device = xrgbDevice(w, h, pages: 2)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let black = RGBA(r: 0, g: 0, b: 0)
    for _ in 0..<2 {
      let lent = try #require(fb.drawingBuffer(width: w, height: h, offset: (0, 0), fill: black))
      fb.present(lent.canvas, dirty: nil)
    }
    #expect(fb.drawingBuffer(width: w, height: h, offset: (0, 0), fill: black)?.holdsLastFrame == true)
    fb.present(TestPixels.solid(width: w, height: h, 0x445566), dirty: nil)
    let after = try #require(fb.drawingBuffer(width: w, height: h, offset: (0, 0), fill: black))
    #expect(!after.holdsLastFrame)
    #expect(after.canvas.pixel(3, 3) == black, "a page with nothing to build on is cleared to the fill")
    #expect(
      fb.drawingBuffer(width: w, height: h, offset: (0, 0), fill: RGBA(r: 9, g: 9, b: 9))?.holdsLastFrame == false)
  }

  @Test("a single-buffered device lends nothing: a widget is never seen half drawn")
  func aSingleBufferedDeviceLendsNothing() throws {
    let device = xrgbDevice(40, 30, pages: 1)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    #expect(fb.lendsPages && !fb.isDoubleBuffered)
    #expect(fb.drawingBuffer(width: 40, height: 30, offset: (0, 0), fill: RGBA(r: 0, g: 0, b: 0)) == nil)
  }

  @Test("a device whose pixels are not the canvas's lends nothing")
  func otherFormatsLendNothing() throws {
    let device = FakeDevice(
      VarScreenInfo(
        xres: 16, yres: 8, bitsPerPixel: 16, red: Bitfield(offset: 11, length: 5),
        green: Bitfield(offset: 5, length: 6),
        blue: Bitfield(offset: 0, length: 5)),
      lineLength: 32)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    #expect(!fb.lendsPages)
    #expect(fb.drawingBuffer(width: 16, height: 8, offset: (0, 0), fill: RGBA(r: 0, g: 0, b: 0)) == nil)
  }
}

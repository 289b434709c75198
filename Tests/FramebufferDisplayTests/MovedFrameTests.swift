import FramebufferDisplay
import Raster
import TestSupport
import Testing

/// Burn-in protection on the framebuffer: the board moved by the display itself, row by row from
/// where it is, shows what a moved copy of it would — on both pages, after partial frames.
@Suite("Presenting a moved frame")
struct MovedFrameTests {
  /// `canvas` moved by (dx, dy), the uncovered edge in `fill` (what `Canvas.shifted` gives).
  static func moved(_ canvas: Canvas, _ dx: Int, _ dy: Int, _ fill: RGBA) -> Canvas {
    var out = Canvas(width: canvas.width, height: canvas.height, background: fill)
    for y in 0..<canvas.height {
      for x in 0..<canvas.width {
        let (sx, sy) = (x - dx, y - dy)
        if sx >= 0 && sx < canvas.width && sy >= 0 && sy < canvas.height {
          out[x: x, y: y] = canvas[x: sx, y: sy]
        }
      }
    }
    return out
  }

  @Test(arguments: [1, 2])
  func movedFramesShowTheMovedBoard(pages: Int) throws {
    let (w, h) = (40, 30)
    let device = xrgbDevice(w, h, pages: pages)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let memory = UnsafeRawBufferPointer(device.memory)
    let fill = RGBA(r: 0x11, g: 0x22, b: 0x33)
    var random = TestRandom(state: UInt64(pages))
    var canvas = TestPixels.gradient(width: w, height: h)
    for (round, offset) in [(0, 0), (2, 1), (2, 1), (-3, 2), (-3, 2), (-3, 2), (0, -1), (5, -4)].enumerated() {
      // A few rectangles change; only they are said to be dirty (the whole frame after a move).
      var dirty: [IRect] = []
      for _ in 0..<2 {
        let r = IRect(
          x: random.below(w - 5), y: random.below(h - 5), width: 1 + random.below(5), height: 1 + random.below(5))
        canvas.fill(r, RGBA(r: UInt8(random.below(256)), g: UInt8(random.below(256)), b: 0x80))
        dirty.append(r)
      }
      fb.present(canvas, dirty: dirty, offset: offset, fill: fill)
      let page = pages == 2 ? (device.calls("FBIOPAN_DISPLAY").last == "FBIOPAN_DISPLAY y=\(h)" ? 1 : 0) : 0
      let shown = TestPixels.firstMismatch(
        Self.moved(canvas, offset.0, offset.1, fill), memory, base: page * h * w * 4, lineLength: w * 4,
        format: fb.format)
      #expect(shown == nil, "round \(round), offset \(offset)")
    }
  }

  /// A canvas smaller or larger than the screen: the overlap is the moved canvas; and a new edge
  /// colour at the same offset repaints the edge.
  @Test(arguments: [(30, 20), (50, 36)])
  func otherCanvasSizesAndANewEdgeColour(canvasWidth: Int, canvasHeight: Int) throws {
    let (w, h) = (40, 30)
    let device = xrgbDevice(w, h)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let memory = UnsafeRawBufferPointer(device.memory)
    let canvas = TestPixels.gradient(width: canvasWidth, height: canvasHeight)
    for (offset, fill) in [
      ((3, 2), RGBA(r: 1, g: 2, b: 3)), ((-4, -3), RGBA(r: 1, g: 2, b: 3)), ((-4, -3), RGBA(r: 200, g: 100, b: 50)),
    ] {
      fb.present(canvas, dirty: [], offset: offset, fill: fill)
      // What the screen shows of the moved canvas: its top-left w × h, edge included.
      let moved = Self.moved(canvas, offset.0, offset.1, fill)
      let shown = TestPixels.firstMismatch(
        moved, memory, lineLength: w * 4, format: fb.format, width: min(w, canvasWidth), height: min(h, canvasHeight))
      #expect(shown == nil, "canvas \(canvasWidth)x\(canvasHeight), offset \(offset), fill \(fill)")
    }
  }
}

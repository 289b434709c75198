import FramebufferDisplay
import Glibc
import Raster
import Testing

/// An XRGB8888 device of `w` × `h`, with `pages` pages of virtual height.
/// `memoryPages` screens of memory (default: `pages`).
func xrgbDevice(_ w: Int, _ h: Int, pages: Int = 1, memoryPages: Int? = nil) -> FakeDevice {
  FakeDevice(
    VarScreenInfo(
      xres: w, yres: h, yresVirtual: h * pages, bitsPerPixel: 32, red: Bitfield(offset: 16, length: 8),
      green: Bitfield(offset: 8, length: 8), blue: Bitfield(offset: 0, length: 8)),
    lineLength: w * 4, memoryLength: w * 4 * h * (memoryPages ?? pages))
}

/// The rows of `device`'s virtual screen in `range` that no longer hold the poison byte.
func touchedRows(_ device: FakeDevice, _ range: Range<Int>) -> [Int] {
  range.filter { y in device.row(y).contains { $0 != 0xA5 } }
}

@Suite("Presenting frames")
struct PresentTests {
  @Test("double-buffered frames alternate pages, pan to them and keep the back page up to date")
  func doubleBuffering() throws {
    let (w, h) = (64, 48)
    let device = xrgbDevice(w, h, pages: 2)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    #expect(fb.isDoubleBuffered)
    let memory = UnsafeRawBufferPointer(device.memory)
    var canvas = TestPixels.solid(width: w, height: h, 0x102030)

    fb.present(canvas, dirty: [canvas.bounds])
    #expect(device.calls("FBIO_WAITFORVSYNC", "FBIOPAN_DISPLAY") == ["FBIO_WAITFORVSYNC", "FBIOPAN_DISPLAY y=48"])
    #expect(TestPixels.firstMismatch(canvas, memory, base: 48 * w * 4, lineLength: w * 4, format: fb.format) == nil)

    canvas.fill(IRect(x: 0, y: 10, width: w, height: 10), RGBA(r: 0xAA, g: 0xBB, b: 0xCC))
    fb.present(canvas, dirty: [IRect(x: 5, y: 10, width: 3, height: 10)])
    #expect(device.calls("FBIOPAN_DISPLAY").last == "FBIOPAN_DISPLAY y=0")
    // The first frame on page 0 is copied whole.
    #expect(TestPixels.firstMismatch(canvas, memory, base: 0, lineLength: w * 4, format: fb.format) == nil)

    // Page 1 last held frame 1: it needs the rows of frames 2 and 3, and only those.
    for y in 48..<96 { device.row(y).initializeMemory(as: UInt8.self, repeating: 0xA5) }
    canvas.fill(IRect(x: 0, y: 30, width: w, height: 5), RGBA(r: 1, g: 2, b: 3))
    fb.present(canvas, dirty: [IRect(x: 0, y: 30, width: 1, height: 5)])
    #expect(device.calls("FBIOPAN_DISPLAY").last == "FBIOPAN_DISPLAY y=48")
    #expect(device.varInfo.yoffset == 48)
    #expect(touchedRows(device, 48..<96) == Array(58..<68) + Array(78..<83))
    for y in Array(10..<20) + Array(30..<35) {
      #expect(
        TestPixels.firstMismatch(
          Canvas.row(canvas, y), memory, base: (48 + y) * w * 4, lineLength: w * 4, format: fb.format) == nil)
    }
    #expect(device.calls("FBIO_WAITFORVSYNC").count == 3)
  }

  @Test("vsync is not asked for again once the driver says it has none", arguments: [ENOTTY, EINVAL])
  func vsyncUnsupported(_ code: Int32) throws {
    let device = xrgbDevice(16, 8, pages: 2)
    device.failures["FBIO_WAITFORVSYNC"] = code
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let canvas = TestPixels.solid(width: 16, height: 8, 0x445566)
    for _ in 0..<3 { fb.present(canvas, dirty: [canvas.bounds]) }
    #expect(
      device.calls("FBIO_WAITFORVSYNC", "FBIOPAN_DISPLAY") == [
        "FBIO_WAITFORVSYNC", "FBIOPAN_DISPLAY y=8", "FBIOPAN_DISPLAY y=0", "FBIOPAN_DISPLAY y=8",
      ])
    #expect(!fb.waitsForVSync)
  }

  @Test("a passing vsync failure does not stop the waits")
  func vsyncInterrupted() throws {
    let device = xrgbDevice(16, 8, pages: 2)
    device.failures["FBIO_WAITFORVSYNC"] = EINTR
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let canvas = TestPixels.solid(width: 16, height: 8, 0x445566)
    for _ in 0..<2 { fb.present(canvas, dirty: [canvas.bounds]) }
    #expect(device.calls("FBIO_WAITFORVSYNC").count == 2)
    #expect(fb.waitsForVSync)
  }

  @Test("a failed pan falls back to drawing into the visible page")
  func panFails() throws {
    let device = xrgbDevice(16, 8, pages: 2)
    device.failures["FBIOPAN_DISPLAY"] = EINVAL
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let canvas = TestPixels.solid(width: 16, height: 8, 0x778899)
    fb.present(canvas, dirty: [])
    #expect(!fb.isDoubleBuffered)
    let memory = UnsafeRawBufferPointer(device.memory)
    #expect(TestPixels.firstMismatch(canvas, memory, base: 0, lineLength: 64, format: fb.format) == nil)
    fb.present(canvas, dirty: [canvas.bounds])
    #expect(device.calls("FBIOPAN_DISPLAY").count == 1)
  }

  @Test("single-buffered frames copy only the rows the dirty rectangles touch")
  func onlyDirtyRows() throws {
    let device = xrgbDevice(100, 50)
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    #expect(!fb.isDoubleBuffered)
    var canvas = TestPixels.solid(width: 100, height: 50, 0x123456)
    device.poison()
    fb.present(canvas, dirty: [])  // the first frame goes in whole
    #expect(touchedRows(device, 0..<50) == Array(0..<50))

    device.poison()
    canvas.fill(IRect(x: 10, y: 5, width: 3, height: 4), RGBA(r: 9, g: 9, b: 9))
    fb.present(canvas, dirty: [IRect(x: 10, y: 5, width: 3, height: 4), IRect(x: 0, y: 40, width: 1, height: 1)])
    #expect(touchedRows(device, 0..<50) == [5, 6, 7, 8, 40])
    let written = device.memory.count { $0 != 0xA5 }
    #expect(written == 5 * 100 * 4)

    device.poison()
    fb.present(canvas, dirty: [IRect(x: -5, y: 60, width: 10, height: 10)])
    #expect(touchedRows(device, 0..<50).isEmpty)
    #expect(device.calls("FBIOPAN_DISPLAY", "FBIO_WAITFORVSYNC").isEmpty)
  }

  @Test(
    "a canvas larger or smaller than the screen copies the overlap",
    arguments: [(120, 30), (40, 70), (100, 50)])
  func overlap(_ cw: Int, _ ch: Int) throws {
    let device = xrgbDevice(100, 50)
    device.poison()
    let fb = try Framebuffer.open(syscalls: device.syscalls)
    let canvas = TestPixels.gradient(width: cw, height: ch)
    fb.present(canvas, dirty: [canvas.bounds])
    let (ow, oh) = (min(cw, 100), min(ch, 50))
    let memory = UnsafeRawBufferPointer(device.memory)
    #expect(
      TestPixels.firstMismatch(canvas, memory, lineLength: 400, format: fb.format, width: ow, height: oh) == nil)
    let outside = (0..<50).allSatisfy { y in
      y >= oh ? device.row(y).allSatisfy { $0 == 0xA5 } : device.row(y)[(ow * 4)...].allSatisfy { $0 == 0xA5 }
    }
    #expect(outside)
  }

  @Test("a second page is asked for only when requested, and used when granted")
  func requestSecondPage() throws {
    let device = xrgbDevice(32, 16, memoryPages: 2)
    let plain = try Framebuffer.open(syscalls: device.syscalls)
    #expect(!plain.isDoubleBuffered && device.calls("FBIOPUT_VSCREENINFO").isEmpty)
    let fb = try Framebuffer.open(requestSecondPage: true, syscalls: device.syscalls)
    #expect(device.calls("FBIOPUT_VSCREENINFO") == ["FBIOPUT_VSCREENINFO yres_virtual=32"])
    #expect(fb.isDoubleBuffered)
    let refusing = xrgbDevice(32, 16, memoryPages: 2)
    refusing.acceptsPut = false
    #expect(try !Framebuffer.open(requestSecondPage: true, syscalls: refusing.syscalls).isDoubleBuffered)
  }

  @Test("blank powers the screen down and up; dropping the framebuffer unmaps and closes")
  func blankAndRelease() throws {
    let device = xrgbDevice(8, 8)
    var fb: Framebuffer? = try Framebuffer.open(device: "/dev/fb1", syscalls: device.syscalls)
    try fb?.blank(true)
    try fb?.blank(false)
    #expect(device.calls("FBIOBLANK") == ["FBIOBLANK 4", "FBIOBLANK 0"])
    device.failures["FBIOBLANK"] = EINVAL
    #expect(throws: FramebufferError.callFailed(path: "/dev/fb1", call: "FBIOBLANK", errno: EINVAL)) {
      try fb?.blank(true)
    }
    #expect(device.calls("munmap", "close").isEmpty)
    fb = nil
    #expect(device.calls("munmap", "close") == ["munmap \(8 * 8 * 4)", "close 3"])
  }
}

extension Canvas {
  /// Row `y` of `canvas` alone, as a one-row canvas.
  static func row(_ canvas: Canvas, _ y: Int) -> Canvas {
    var one = Canvas(width: canvas.width, height: 1)
    for x in 0..<canvas.width { one[x: x, y: 0] = canvas[x: x, y: y] }
    return one
  }
}

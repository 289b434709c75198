import FramebufferDisplay
import Raster
import Testing

/// A device layout under test.
struct Layout: CustomTestStringConvertible, Sendable {
  let name: String
  let info: VarScreenInfo
  let lineLength: Int
  var testDescription: String { name }

  static func make(
    _ name: String, _ w: Int, _ h: Int, bpp: Int, line: Int? = nil, r: (Int, Int), g: (Int, Int), b: (Int, Int),
    a: (Int, Int) = (0, 0)
  ) -> Layout {
    Layout(
      name: name,
      info: VarScreenInfo(
        xres: w, yres: h, bitsPerPixel: bpp, red: Bitfield(offset: r.0, length: r.1),
        green: Bitfield(offset: g.0, length: g.1), blue: Bitfield(offset: b.0, length: b.1),
        transp: Bitfield(offset: a.0, length: a.1)),
      lineLength: line ?? w * bpp / 8)
  }

  static let all: [Layout] = [
    make("1920x1080 XRGB8888", 1920, 1080, bpp: 32, r: (16, 8), g: (8, 8), b: (0, 8)),
    make("800x480 RGB565", 800, 480, bpp: 16, r: (11, 5), g: (5, 6), b: (0, 5)),
    make(
      "1366x768 XRGB8888, rows of 1376 pixels", 1366, 768, bpp: 32, line: 1376 * 4, r: (16, 8), g: (8, 8), b: (0, 8)),
    make("1024x600 XBGR8888 (red at 0, blue at 16)", 1024, 600, bpp: 32, r: (0, 8), g: (8, 8), b: (16, 8)),
    make("640x480 24-bit, bytes R G B", 640, 480, bpp: 24, r: (0, 8), g: (8, 8), b: (16, 8)),
    make("640x480 BGR888, bytes B G R", 640, 480, bpp: 24, r: (16, 8), g: (8, 8), b: (0, 8)),
    make("320x256 ARGB8888", 320, 256, bpp: 32, r: (16, 8), g: (8, 8), b: (0, 8), a: (24, 8)),
    make("320x256 XRGB1555", 320, 256, bpp: 16, r: (10, 5), g: (5, 5), b: (0, 5)),
    make("300x260 BGR565", 300, 260, bpp: 16, r: (0, 5), g: (5, 6), b: (11, 5)),
  ]
}

@Suite("Pixel formats")
struct PixelFormatTests {
  @Test("every channel value converts exactly through a presented frame", arguments: Layout.all)
  func gradientIsExact(_ layout: Layout) throws {
    let device = FakeDevice(layout.info, lineLength: layout.lineLength)
    device.poison()
    let fb = try Framebuffer.open(device: "/dev/fb0", syscalls: device.syscalls)
    #expect(fb.size == (layout.info.xres, layout.info.yres))
    let canvas = TestPixels.gradient(width: layout.info.xres, height: layout.info.yres)
    fb.present(canvas, dirty: [canvas.bounds])
    let mismatch = TestPixels.firstMismatch(
      canvas, UnsafeRawBufferPointer(device.memory), lineLength: layout.lineLength, format: fb.format)
    #expect(mismatch == nil)
    // The padding at the end of each row is not the canvas's.
    let used = layout.info.xres * layout.info.bitsPerPixel / 8
    let padding = (0..<layout.info.yres).allSatisfy { y in device.row(y)[used...].allSatisfy { $0 == 0xA5 } }
    #expect(padding)
  }

  @Test("RGB565 truncates: r >> 3, g >> 2, b >> 3")
  func rgb565Truncates() {
    let pixels: [UInt32] = [0xFF12_3456, 0xFFFF_FFFF, 0xFF00_0000, 0xFFFF_0000, 0xFF07_0307, 0xFF08_0408]
    var out = [UInt16](repeating: 0, count: pixels.count)
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBytes { PixelFormat.rgb565.convert(row: src, into: $0) }
    }
    #expect(out == [0x11AA, 0xFFFF, 0x0000, 0xF800, 0x0000, 0x0821])
  }

  @Test("the generic path agrees with the RGB565 fast path")
  func genericMatchesFastPath() throws {
    // The same layout with a transp field of length 0 at another offset takes the generic path.
    let generic = try PixelFormat(
      bitsPerPixel: 16, red: Bitfield(offset: 11, length: 5), green: Bitfield(offset: 5, length: 6),
      blue: Bitfield(offset: 0, length: 5), transp: Bitfield(offset: 3, length: 0))
    let canvas = TestPixels.gradient(width: 256, height: 256)
    var fast = [UInt16](repeating: 0, count: canvas.pixels.count)
    var slow = fast
    canvas.pixels.withUnsafeBufferPointer { src in
      fast.withUnsafeMutableBytes { PixelFormat.rgb565.convert(row: src, into: $0) }
      slow.withUnsafeMutableBytes { generic.convert(row: src, into: $0) }
    }
    #expect(fast == slow)
  }

  @Test("channels wider than 8 bits keep full scale", arguments: [(0xFF, 0x3FF), (0x80, 0x202), (0, 0)])
  func wideChannels(_ value: UInt32, _ expected: UInt32) throws {
    let format = try PixelFormat(
      bitsPerPixel: 32, red: Bitfield(offset: 20, length: 10), green: Bitfield(offset: 10, length: 10),
      blue: Bitfield(offset: 0, length: 10))
    var out: UInt32 = 0
    [0xFF00_0000 | value << 16 | value << 8 | value].withUnsafeBufferPointer { src in
      withUnsafeMutableBytes(of: &out) { format.convert(row: src, into: $0) }
    }
    #expect(out == expected << 20 | expected << 10 | expected)
  }

  @Test(
    "layouts it cannot write are refused with the reason",
    arguments: [
      (8, (0, 8), "8 bits per pixel"), (32, (28, 8), "red at bits 28+8"), (16, (0, 0), "no red channel"),
    ])
  func refused(_ bpp: Int, _ red: (Int, Int), _ reason: String) {
    #expect(throws: PixelFormat.FormatProblem.self) {
      try PixelFormat(
        bitsPerPixel: bpp, red: Bitfield(offset: red.0, length: red.1), green: Bitfield(offset: 8, length: 5),
        blue: Bitfield(offset: 0, length: 5))
    }
    do {
      _ = try PixelFormat(
        bitsPerPixel: bpp, red: Bitfield(offset: red.0, length: red.1), green: Bitfield(offset: 8, length: 5),
        blue: Bitfield(offset: 0, length: 5))
    } catch {
      #expect(error.reason.contains(reason))
    }
  }
}

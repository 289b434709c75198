import Raster
import Testing

@Suite("Downscaling and cropping")
struct ResampleTests {
  @Test func downscaleAveragesBlocks() {
    var c = Canvas(width: 5, height: 3)
    c.fill(IRect(x: 0, y: 0, width: 1, height: 1), RGBA(r: 255, g: 0, b: 100))
    c.fill(IRect(x: 4, y: 2, width: 1, height: 1), RGBA(r: 90, g: 90, b: 90))
    let d = c.downscaled(by: 2)
    #expect(d.width == 3 && d.height == 2)
    #expect(d.pixel(0, 0) == RGBA(r: 64, g: 0, b: 25))  // 255/4 rounds to 64, 100/4 = 25
    #expect(d.pixel(1, 0) == RGBA(r: 0, g: 0, b: 0))
    #expect(d.pixel(2, 1) == RGBA(r: 90, g: 90, b: 90))  // a partial 1 × 1 block
    #expect(c.downscaled(by: 1).pixels == c.pixels)
  }

  @Test func downscaleIgnoresStridePadding() {
    var c = Canvas(width: 4, height: 2, stride: 7, background: RGBA(r: 10, g: 20, b: 30))
    c.withUnsafeMutablePixels { p in for y in 0..<2 { for x in 4..<7 { p[y * 7 + x] = 0xFFFF_FFFF } } }
    #expect(c.downscaled(by: 2).pixels.allSatisfy { $0 == Canvas.pack(RGBA(r: 10, g: 20, b: 30)) })
  }

  @Test func cropCopiesTheOverlap() {
    var c = Canvas(width: 10, height: 8, stride: 12)
    c.fill(IRect(x: 3, y: 2, width: 2, height: 2), RGBA(r: 1, g: 2, b: 3))
    let k = c.cropped(IRect(x: 2, y: 1, width: 20, height: 3))
    #expect(k.width == 8 && k.height == 3 && k.stride == 8)
    #expect(k.pixel(1, 1) == RGBA(r: 1, g: 2, b: 3) && k.pixel(2, 2) == RGBA(r: 1, g: 2, b: 3))
    #expect(k.pixel(0, 0) == RGBA(r: 0, g: 0, b: 0) && k.pixel(3, 1) == RGBA(r: 0, g: 0, b: 0))
  }
}

import Foundation
import Raster
import TestSupport
import Testing

@testable import PNG

/// `PNGEncoder` re-deflates only the bands under what changed, and its bytes are those of a whole
/// encode of the same pixels: a later frame is never a patch on an earlier one.
@Suite("PNG encoding of changed frames")
struct EncoderTests {
  /// A board-like canvas: flat areas and a few noisy blocks.
  static func frame(width: Int, height: Int, seed: UInt64) -> Canvas {
    var c = Canvas(width: width, height: height, background: RGBA(r: 16, g: 20, b: 30))
    let noise = RoundTripTests.noise(width: 40, height: 50, seed: seed)
    for y in 0..<min(50, height) {
      for x in 0..<min(40, width) { c[x: (x + 5) % width, y: (y + 3) % height] = noise[x: x, y: y] }
    }
    return c
  }

  /// Fills `r` with noise of `seed`.
  static func scribble(_ c: inout Canvas, _ r: IRect, seed: UInt64) {
    let noise = RoundTripTests.noise(width: r.width, height: r.height, seed: seed)
    for y in 0..<r.height {
      for x in 0..<r.width { c[x: r.x + x, y: r.y + y] = noise[x: x, y: y] }
    }
  }

  @Test func changedRectanglesGiveTheBytesOfAWholeEncode() throws {
    var random = TestRandom(state: 12)
    var canvas = Self.frame(width: 301, height: 203, seed: 1)
    var encoder = PNGEncoder()
    _ = encoder.encode(canvas, changed: nil)
    for round in 0..<60 {
      // Rectangles anywhere, some on a band's first or last row (32 rows a band).
      var rects: [IRect] = []
      for _ in 0..<1 + random.below(3) {
        let y = round % 4 == 0 ? [31, 32, 63, 64, 191, 192][random.below(6)] : random.below(203)
        let x = random.below(301)
        rects.append(
          IRect(x: x, y: y, width: 1 + random.below(301 - x), height: 1 + random.below(min(40, 203 - y))))
      }
      for r in rects { Self.scribble(&canvas, r, seed: UInt64(round)) }
      // Rectangles that are empty or lie partly or wholly outside the canvas change nothing.
      rects += [
        IRect(x: -5, y: -5, width: 3, height: 3), IRect(x: 10, y: 10, width: 0, height: 5),
        IRect(x: 290, y: 195, width: 50, height: 50),
      ]
      let incremental = encoder.encode(canvas, changed: rects)
      #expect(incremental == PNG.encode(canvas), "round \(round): \(rects)")
      #expect(try PNG.decode(incremental).pixels == canvas.pixels)
    }
  }

  /// The Paeth predictor against values worked out by hand from the PNG specification (the
  /// decoder uses it; the encoder no longer tries Paeth, so the round trips would not show it).
  @Test func paethPredictsAsTheSpecificationSays() {
    // (a left, b above, c upper left) → the prediction, with ties broken a, then b, then c.
    let cases: [(UInt8, UInt8, UInt8, UInt8)] = [
      (1, 2, 3, 1), (10, 20, 15, 15), (20, 10, 5, 20), (5, 30, 10, 30), (10, 10, 0, 10), (2, 8, 4, 8),
      (0, 0, 0, 0), (255, 0, 255, 0), (0, 255, 255, 0), (200, 100, 250, 100),
    ]
    for (a, b, c, want) in cases { #expect(Filter.paeth(a, b, c) == want, "paeth(\(a), \(b), \(c))") }
  }

  @Test func nothingChangedIsTheSameFileAndAnotherSizeIsEncodedWhole() throws {
    var encoder = PNGEncoder()
    let a = Self.frame(width: 64, height: 70, seed: 2)
    let first = encoder.encode(a, changed: nil)
    #expect(encoder.encode(a, changed: []) == first)
    let b = Self.frame(width: 65, height: 70, seed: 3)
    #expect(encoder.encode(b, changed: []) == PNG.encode(b))
  }

  /// Pillow (an independent decoder) reads a frame of many bands after changes to some of them.
  @Test func pillowDecodesAChangedFrame() throws {
    var canvas = Self.frame(width: 640, height: 360, seed: 4)
    var encoder = PNGEncoder(level: 1)
    _ = encoder.encode(canvas, changed: nil)
    let rect = IRect(x: 100, y: 60, width: 200, height: 40)
    Self.scribble(&canvas, rect, seed: 9)
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("frame.png").path
    try PNG.write(png: encoder.encode(canvas, changed: [rect]), to: path)
    let script = """
      import sys
      from PIL import Image
      im = Image.open(sys.argv[1]).convert("RGB")
      im.load()
      print(im.size[0], im.size[1], "%02x%02x%02x" % im.getpixel((150, 80)), "%02x%02x%02x" % im.getpixel((600, 300)))
      """
    let out = try Python.run(script, arguments: [path]).split(separator: " ").map(String.init)
    let p = canvas.pixel(150, 80)
    let q = canvas.pixel(600, 300)
    #expect(
      out == [
        "640", "360", String(format: "%02x%02x%02x", p.r, p.g, p.b), String(format: "%02x%02x%02x\n", q.r, q.g, q.b),
      ])
  }
}

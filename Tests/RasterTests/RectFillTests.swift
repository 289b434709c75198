import Raster
import Testing

@Suite("Rectangles, clipping and blending")
struct RectFillTests {
  static let red = RGBA(r: 200, g: 30, b: 10)

  @Test func alignedOpaqueRectIsPixelExact() {
    let c = Measure.draw(width: 20, height: 12) { $0.fill(Rect(x: 3, y: 2, width: 5, height: 4), Self.red) }
    for y in 0..<12 {
      for x in 0..<20 {
        let inside = (3..<8).contains(x) && (2..<6).contains(y)
        #expect(c.pixel(x, y) == (inside ? Self.red : Measure.black), "at (\(x), \(y))")
      }
    }
  }

  @Test func alignedRectPathIsPixelExactToo() {
    var path = Path()
    path.addPolygon([Point(3, 2), Point(8, 2), Point(8, 6), Point(3, 6)])
    let c = Measure.draw(width: 20, height: 12) { $0.fill(path, Self.red) }
    let d = Measure.draw(width: 20, height: 12) { $0.fill(Rect(x: 3, y: 2, width: 5, height: 4), Self.red) }
    #expect(c.pixels == d.pixels)
  }

  @Test func halfPixelEdgesAreHalfCovered() {
    let c = Measure.draw(width: 20, height: 20) {
      $0.fill(Rect(x: 4.5, y: 3, width: 6, height: 10.5), Measure.white)
    }
    #expect(c.pixel(4, 6).g == 128)  // left edge: half a pixel
    #expect(c.pixel(5, 6).g == 255)
    #expect(c.pixel(10, 6).g == 128)  // right edge at 10.5
    #expect(c.pixel(11, 6).g == 0)
    #expect(c.pixel(6, 13).g == 128)  // bottom edge at 13.5
    #expect(c.pixel(4, 13).g == 64)  // corner: a quarter
    #expect(abs(Measure.area(c) - 63) < 0.15)  // 8-bit rounding of ~30 edge pixels
  }

  @Test func pathEdgeAtHalfPixelIsHalfCovered() {
    var path = Path()
    path.addPolygon([Point(2.5, 2.5), Point(12.5, 2.5), Point(12.5, 9), Point(2.5, 9)])
    let c = Measure.draw(width: 16, height: 12) { $0.fill(path, Measure.white) }
    #expect(c.pixel(2, 5).g == 128)
    #expect(c.pixel(6, 2).g == 128)
    #expect(c.pixel(2, 2).g == 64)
    #expect(c.pixel(6, 5).g == 255)
  }

  @Test func translucentRectBlendsOnce() {
    let half = RGBA(r: 255, g: 255, b: 255, a: 128)
    let c = Measure.draw(width: 8, height: 8) { $0.fill(Rect(x: 1, y: 1, width: 6, height: 6), half) }
    #expect(c.pixel(3, 3) == half.over(Measure.black))
    #expect(c.pixel(0, 0) == Measure.black)
  }

  @Test("blendPixel rounds exactly like RGBA.over", arguments: [0, 1, 64, 127, 128, 200, 254, 255])
  func blendRounding(alpha: Int) {
    for s in stride(from: 0, through: 255, by: 17) {
      for d in stride(from: 0, through: 255, by: 15) {
        let src = RGBA(r: UInt8(s), g: UInt8(255 - s), b: UInt8(s / 2), a: UInt8(alpha))
        let dst = RGBA(r: UInt8(d), g: UInt8(d / 3), b: UInt8(255 - d))
        let blended = Canvas.blendPixel(Canvas.pack(dst), src, alpha: UInt32(alpha))
        #expect(Canvas.unpack(blended) == src.over(dst), "s \(s) d \(d)")
      }
    }
  }

  @Test("every primitive respects the clip", arguments: Primitives.all.indices)
  func clipRespected(index: Int) {
    let draw = Primitives.all[index].draw
    let clip = IRect(x: 5, y: 20, width: 50, height: 40)
    let full = Measure.draw(draw)
    let clipped = Measure.draw { c in c.withClip(clip) { draw(&$0) } }
    var outside = 0
    var inside = 0
    for y in 0..<64 {
      for x in 0..<96 {
        let isInside = x >= clip.x && x < clip.maxX && y >= clip.y && y < clip.maxY
        if isInside {
          if clipped.pixel(x, y) != full.pixel(x, y) { inside += 1 }
        } else if clipped.pixel(x, y) != Measure.black {
          outside += 1
        }
      }
    }
    #expect(outside == 0, "\(Primitives.all[index].name) drew outside the clip")
    #expect(inside == 0, "\(Primitives.all[index].name) drew differently inside the clip")
    #expect(Measure.area(clipped) > 1, "\(Primitives.all[index].name) drew nothing inside the clip")
  }

  @Test func clipRestoredAfterWithClip() {
    var c = Canvas(width: 10, height: 10)
    c.withClip(IRect(x: 2, y: 2, width: 3, height: 3)) { $0.fill(Rect(x: 0, y: 0, width: 10, height: 10), Self.red) }
    #expect(c.clip == c.bounds)
    #expect(c.pixel(1, 1) == Measure.black && c.pixel(2, 2) == Self.red && c.pixel(5, 5) == Measure.black)
  }

  @Test func degenerateInputsDrawNothing() {
    let c = Measure.draw { c in
      c.fill(Rect(x: 5, y: 5, width: 0, height: 10), Measure.white)
      c.fill(Rect(x: .nan, y: 5, width: 3, height: 10), Measure.white)
      c.fillCircle(center: Point(10, 10), radius: 0, Measure.white)
      c.line(from: Point(1, 1), to: Point(1, 1), width: 3, Measure.white)
      c.line(from: Point(1, 1), to: Point(30, 1), width: 0, Measure.white)
      c.fill(Path(), Measure.white)
      c.fillCircle(center: Point(10, 10), radius: 5, RGBA(r: 255, g: 255, b: 255, a: 0))
      c.fill(Rect(x: -1e12, y: -1e12, width: 1, height: 1), Measure.white)
    }
    #expect(Measure.area(c) == 0)
  }
}

/// Every primitive, drawn once across a 96 × 64 canvas.
enum Primitives {
  static let all: [(name: String, draw: @Sendable (inout Canvas) -> Void)] = [
    ("rect", { $0.fill(Rect(x: 10.3, y: 5.6, width: 70.2, height: 50.1), Measure.white) }),
    ("roundedRect", { $0.fillRoundedRect(Rect(x: 8.5, y: 6, width: 80, height: 50), radius: 12, Measure.white) }),
    (
      "strokeRoundedRect",
      { $0.strokeRoundedRect(Rect(x: 8.5, y: 6, width: 80, height: 50), radius: 12, width: 3, Measure.white) }
    ),
    ("circle", { $0.fillCircle(center: Point(48, 32), radius: 25.5, Measure.white) }),
    ("ring", { $0.ring(center: Point(48, 32), radius: 28, width: 5, Measure.white) }),
    ("line", { $0.line(from: Point(2, 3), to: Point(90, 60), width: 4, Measure.white, cap: .round) }),
    (
      "polyline",
      { $0.polyline([Point(5, 60), Point(30, 5), Point(60, 50), Point(92, 8)], width: 5, Measure.white) }
    ),
    (
      "dashed",
      {
        $0.dashedPolyline(
          [Point(5, 10), Point(90, 20), Point(20, 58)], width: 3, dash: 7, gap: 4, Measure.white)
      }
    ),
    (
      "arc",
      {
        $0.arc(
          center: Point(48, 32), radius: 30, width: 6, startAngle: -1, endAngle: 3.5, Measure.white,
          cap: .round)
      }
    ),
  ]
}

import Raster
import Testing

@Suite("Lines, polylines and dashes")
struct StrokeTests {
  static let half = RGBA(r: 255, g: 255, b: 255, a: 128)

  @Test("a translucent polyline has one colour at joins and mid-segment", arguments: [LineJoin.round, .bevel])
  func noDoubleBlendAtJoins(join: LineJoin) {
    let points = [Point(10, 50), Point(40, 10), Point(70, 50), Point(90, 20)]
    let c = Measure.draw { $0.polyline(points, width: 6, Self.half, join: join) }
    let once = Self.half.over(Measure.black)
    #expect(c.pixel(40, 12) == once)  // at the join
    #expect(c.pixel(25, 30) == once)  // mid-segment
    #expect(c.pixels.allSatisfy { Canvas.unpack($0).g <= once.g })  // nowhere darker… or lighter
  }

  @Test func selfCrossingAndReversingStrokesFillOnce() {
    let once = Self.half.over(Measure.black)
    // A figure crossing itself at (48, 32), then a spike that doubles back on itself.
    let cross = [Point(10, 10), Point(86, 54), Point(86, 10), Point(10, 54)]
    let c = Measure.draw { $0.polyline(cross, width: 5, Self.half) }
    #expect(c.pixel(48, 32) == once)
    let spike = [Point(10, 32), Point(60, 32), Point(30, 32.0001)]
    let d = Measure.draw { $0.polyline(spike, width: 4, Self.half) }
    #expect(d.pixel(40, 31) == once && d.pixel(59, 31) == once)
    // The reversal's join is a half disc of radius 2 beyond (60, 32).
    #expect(d.pixel(60, 31) == once && d.pixel(60, 32) == once)
    #expect((1...126).contains(d.pixel(61, 31).g) && (1...126).contains(d.pixel(61, 32).g))
    // Flattened arc vertices sit ~0.1 px outside the circle (to keep its area): a faint touch.
    #expect(d.pixel(62, 31).g < 16 && d.pixel(62, 32).g < 16 && d.pixel(63, 32) == Measure.black)
    #expect(d.pixels.allSatisfy { Canvas.unpack($0).g <= once.g })
  }

  @Test func roundJoinFillsTheOuterCorner() {
    let points = [Point(10, 40), Point(50, 40), Point(50, 5)]
    let round = Measure.draw { $0.polyline(points, width: 8, Measure.white, join: .round) }
    let bevel = Measure.draw { $0.polyline(points, width: 8, Measure.white, join: .bevel) }
    // The outer corner square 50…54 × 40…44: a quarter disc (round) or a half square (bevel).
    let corner = { (x: Int, y: Int) in x >= 50 && x < 54 && y >= 40 && y < 44 }
    #expect(abs(Measure.area(round, where: corner) - 4 * .pi) < 0.4)
    #expect(abs(Measure.area(bevel, where: corner) - 8) < 0.4)
  }

  @Test func horizontalLineCoversItsWidth() {
    let c = Measure.draw { $0.line(from: Point(10, 20), to: Point(50, 20), width: 4, Measure.white) }
    #expect((18..<22).allSatisfy { c.pixel(30, $0) == Measure.white })
    #expect(c.pixel(30, 17) == Measure.black && c.pixel(30, 22) == Measure.black)
    #expect(abs(Measure.area(c) - 160) < 0.01)
  }

  /// Square caps add 2 × (w/2 × w) = 16, round caps a disc of radius w/2.
  @Test("caps lengthen a line", arguments: [(LineCap.butt, 0.0), (.square, 16.0), (.round, 4 * Double.pi)])
  func caps(cap: LineCap, extra: Double) {
    let c = Measure.draw {
      $0.line(from: Point(20, 30.5), to: Point(60, 30.5), width: 4, Measure.white, cap: cap)
    }
    #expect(abs(Measure.area(c) - 160 - extra) < 0.5, "\(cap): \(Measure.area(c))")
  }

  @Test func diagonalLineAreaIsLengthTimesWidth() {
    let c = Measure.draw { $0.line(from: Point(10, 10), to: Point(70, 50), width: 3, Measure.white) }
    let length = (60.0 * 60 + 40 * 40).squareRoot()
    #expect(abs(Measure.area(c) - 3 * length) / (3 * length) < 0.01)
  }

  @Test func dashesHaveGaps() {
    let c = Measure.draw {
      $0.dashedLine(from: Point(0, 10), to: Point(96, 10), width: 2, dash: 6, gap: 4, Measure.white)
    }
    for x in 0..<96 {
      let on = x % 10 < 6
      #expect(c.pixel(x, 9) == (on ? Measure.white : Measure.black), "x \(x)")
    }
  }

  @Test func dashPhaseContinuesAcrossVertices() {
    // 20 along, then down. Dashes of 8 with gaps of 6: on 0–8, off 8–14, on 14–22 (so 2 into the
    // second segment), off 22–28 (y 12…18), on 28–36 (y 18…26).
    let points = [Point(0, 10), Point(20, 10), Point(20, 40)]
    let c = Measure.draw { $0.dashedPolyline(points, width: 2, dash: 8, gap: 6, Measure.white) }
    #expect(c.pixel(4, 9) == Measure.white)
    #expect(c.pixel(10, 9) == Measure.black)
    #expect(c.pixel(16, 9) == Measure.white)
    #expect(c.pixel(19, 11) == Measure.white)
    #expect(c.pixel(19, 15) == Measure.black && c.pixel(20, 15) == Measure.black)
    #expect(c.pixel(19, 22) == Measure.white && c.pixel(20, 22) == Measure.white)
    #expect(c.pixel(20, 27) == Measure.black)
  }

  @Test func zeroGapIsSolid() {
    let dashed = Measure.draw {
      $0.dashedLine(from: Point(5, 10), to: Point(90, 50), width: 3, dash: 5, gap: 0, Measure.white)
    }
    let solid = Measure.draw { $0.line(from: Point(5, 10), to: Point(90, 50), width: 3, Measure.white) }
    #expect(dashed.pixels == solid.pixels)
  }
}

import Raster
import Testing

@Suite("Anti-aliased shapes")
struct ShapeTests {
  @Test("a disc's total coverage is πr² within 0.5 %", arguments: [2.5, 4.0, 7.3, 12.0, 20.25, 30.0])
  func circleArea(radius: Double) {
    let c = Measure.draw { $0.fillCircle(center: Point(48.3, 31.7), radius: radius, Measure.white) }
    let expected = Double.pi * radius * radius
    #expect(abs(Measure.area(c) - expected) / expected < 0.005, "area \(Measure.area(c)) vs \(expected)")
  }

  @Test func circleIsSymmetricAndSolid() {
    let c = Measure.draw { $0.fillCircle(center: Point(48, 32), radius: 20, Measure.white) }
    #expect(c.pixel(48, 32) == Measure.white)
    #expect(c.pixel(48, 10) == Measure.black)
    // Flattening puts vertices up to ~0.13 px outside the circle to keep its area: a faint touch.
    #expect(c.pixel(48, 11).g < 26)
    for d in 0..<22 {
      #expect(c.pixel(48 + d, 32) == c.pixel(47 - d, 32))
      #expect(c.pixel(48, 32 + d) == c.pixel(48, 31 - d))
    }
    // Anti-aliased edge: some pixel on the rim is strictly between black and white.
    #expect((0..<64).contains { y in (1...254).contains(c.pixel(48, y).g) })
  }

  @Test func ringHasAHole() {
    let c = Measure.draw { $0.ring(center: Point(48, 32), radius: 20, width: 4, Measure.white) }
    #expect(c.pixel(48, 32) == Measure.black)
    #expect(c.pixel(48 + 10, 32) == Measure.black)
    #expect(c.pixel(48 + 17, 32) == Measure.white)  // 17…18 is inside the band 16…20
    #expect(c.pixel(48, 32 - 18) == Measure.white)
    #expect(c.pixel(48 + 21, 32) == Measure.black)
    let expected = Double.pi * (400 - 256)
    #expect(abs(Measure.area(c) - expected) / expected < 0.01)
  }

  @Test func arcFromNoonToSixCoversTheRightHalfOnly() {
    let center = Point(48, 32)
    let c = Measure.draw {
      $0.arc(center: center, radius: 24, width: 6, startAngle: 0, endAngle: .pi, Measure.white)
    }
    #expect(Measure.area(c) { x, _ in x < 48 } == 0)
    let expected = Double.pi * (24 * 24 - 18 * 18) / 2
    #expect(abs(Measure.area(c) { x, _ in x >= 48 } - expected) / expected < 0.01)
    #expect(c.pixel(48 + 21, 32) == Measure.white)  // 3 o'clock
    #expect(c.pixel(49, 32 - 21) == Measure.white)  // just right of 12 o'clock
    #expect(c.pixel(49, 32 + 21) == Measure.white)  // just right of 6 o'clock
  }

  @Test func arcAnglesTurnClockwiseFromNoon() {
    // A quarter from 0 to π/2 lies in the top-right quadrant only.
    let c = Measure.draw {
      $0.arc(center: Point(48, 32), radius: 20, width: 5, startAngle: 0, endAngle: .pi / 2, Measure.white)
    }
    #expect(Measure.area(c) { x, y in x < 48 || y >= 32 } == 0)
    #expect(Measure.area(c) > 100)
    // Reversed angles draw the same quarter anticlockwise.
    let d = Measure.draw {
      $0.arc(center: Point(48, 32), radius: 20, width: 5, startAngle: .pi / 2, endAngle: 0, Measure.white)
    }
    #expect(abs(Measure.area(d) - Measure.area(c)) < 0.5)
  }

  @Test func roundCapsExtendAnArc() {
    func draw(_ cap: LineCap) -> Canvas {
      Measure.draw {
        $0.arc(center: Point(48, 32), radius: 20, width: 6, startAngle: 0, endAngle: .pi, Measure.white, cap: cap)
      }
    }
    let butt = Measure.area(draw(.butt))
    // Two half discs of radius 3 (round) or two 3 × 6 squares (square) are added.
    #expect(abs(Measure.area(draw(.round)) - butt - 9 * .pi) < 1.5)
    #expect(abs(Measure.area(draw(.square)) - butt - 36) < 1.5)
    #expect(Measure.area(draw(.round)) { x, _ in x < 48 } > 5)
  }

  @Test func fullTurnArcIsARing() {
    let arc = Measure.draw {
      $0.arc(center: Point(48, 32), radius: 20, width: 4, startAngle: 1, endAngle: 1 + 2 * .pi, Measure.white)
    }
    let ring = Measure.draw { $0.ring(center: Point(48, 32), radius: 20, width: 4, Measure.white) }
    #expect(arc.pixels == ring.pixels)
  }

  @Test func roundedRectCornersAreCut() {
    let c = Measure.draw { $0.fillRoundedRect(Rect(x: 10, y: 10, width: 60, height: 40), radius: 10, Measure.white) }
    #expect(c.pixel(10, 10) == Measure.black)
    #expect(c.pixel(11, 11) == Measure.black)
    #expect(c.pixel(40, 10) == Measure.white)
    #expect(c.pixel(10, 30) == Measure.white)
    let expected = 60.0 * 40 - (4 - .pi) * 100
    #expect(abs(Measure.area(c) - expected) / expected < 0.005)
  }

  @Test func strokedRoundedRectStaysInside() {
    let rect = Rect(x: 10, y: 8, width: 70, height: 44)
    let c = Measure.draw { $0.strokeRoundedRect(rect, radius: 8, width: 3, Measure.white) }
    #expect(Measure.area(c) { x, y in x < 10 || x >= 80 || y < 8 || y >= 52 } == 0)
    #expect(c.pixel(45, 30) == Measure.black)  // the hole
    #expect(c.pixel(45, 8) == Measure.white && c.pixel(45, 10) == Measure.white && c.pixel(45, 11) == Measure.black)
    #expect(c.pixel(10, 30) == Measure.white && c.pixel(79, 30) == Measure.white)
  }

  @Test func overlappingSameWayContoursUnite() {
    var path = Path()
    path.addPolygon([Point(10, 10), Point(40, 10), Point(40, 40), Point(10, 40)])
    path.addPolygon([Point(20, 20), Point(50, 20), Point(50, 50), Point(20, 50)])
    let half = RGBA(r: 255, g: 255, b: 255, a: 128)
    let c = Measure.draw { $0.fill(path, half) }
    #expect(c.pixel(30, 30) == c.pixel(15, 15))  // overlap blended once
    #expect(c.pixel(30, 30) == half.over(Measure.black))
    var holed = Path()
    holed.addPolygon([Point(10, 10), Point(40, 10), Point(40, 40), Point(10, 40)])
    holed.addPolygon([Point(20, 20), Point(30, 20), Point(30, 30), Point(20, 30)], clockwise: false)
    let d = Measure.draw { $0.fill(holed, Measure.white) }
    #expect(d.pixel(25, 25) == Measure.black && d.pixel(15, 25) == Measure.white)
    #expect(Measure.area(d) == 800)
  }

  @Test func pathBuiltWithMoveAndLine() {
    var path = Path()
    path.move(to: Point(10, 10))
    path.line(to: Point(30, 10))
    path.line(to: Point(30, 30))
    path.close()
    path.line(to: Point(10, 30))  // a new contour from (10, 10)
    path.line(to: Point(30, 30))
    #expect(path.contourCount == 2)
    let c = Measure.draw { $0.fill(path, Measure.white) }
    #expect(c.pixel(28, 12) == Measure.white && c.pixel(12, 28) == Measure.white)
    #expect(abs(Measure.area(c) - 400) < 0.01)
  }
}

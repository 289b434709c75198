import Raster
import Testing

/// Numbers computed from data may be NaN, infinite or huge: drawing them draws nothing (or
/// something clipped) and never stops the program (issue 9, item 1).
@Suite("Non-finite and huge coordinates")
struct NonFiniteTests {
  static let values: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 9.3e18, -9.3e18, 0]

  @Test func saturatingConversionsAreTotal() {
    #expect(Int(saturating: .nan) == 0)
    #expect(Int(saturating: .infinity) == Int.saturationBound)
    #expect(Int(saturating: -.infinity) == -Int.saturationBound)
    #expect(Int(saturating: 1e300) == Int.saturationBound)
    #expect(Int(saturating: 2.5) == 2)
    #expect(Int(saturating: 2.5, .up) == 3)
    #expect(Int(saturating: -2.5, .down) == -3)
    #expect(Int(saturating: 2.5, .toNearestOrAwayFromZero) == 3)
    #expect(Int32(saturating: 1e10) == Int32.max)
    #expect(Int32(saturating: -1e10) == Int32.min)
    #expect(Int32(saturating: .nan) == 0)
    #expect(UInt32(saturating: -1) == 0)
    #expect(UInt32(saturating: 1e20) == UInt32.max)
    #expect(UInt32(saturating: .nan) == 0)
  }

  @Test func enclosingRectanglesAreTotal() {
    for v in Self.values {
      let r = Rect(x: v, y: v, width: v, height: v).enclosing
      #expect(abs(r.x) <= Int.saturationBound && r.width >= 0, "\(v) → \(r)")
    }
  }

  /// Every primitive, fed every odd value in every argument, leaves the canvas as it was or
  /// draws within it.
  @Test func primitivesDrawNothingForNonFiniteInput() {
    var canvas = Canvas(width: 64, height: 48)
    let c = RGBA(r: 255, g: 255, b: 255)
    for v in Self.values {
      let p = Point(v, 10)
      let q = Point(20, v)
      canvas.fill(Rect(x: v, y: 0, width: 10, height: v), c)
      canvas.fill(Rect(x: 0, y: 0, width: v, height: v), c)
      canvas.fillRoundedRect(Rect(x: 1, y: 1, width: v, height: 20), radius: v, c)
      canvas.strokeRoundedRect(Rect(x: v, y: 1, width: 30, height: 20), radius: 4, width: v, c)
      canvas.fillCircle(center: p, radius: v, c)
      canvas.ring(center: q, radius: 10, width: v, c)
      canvas.line(from: p, to: q, width: v, c, cap: .round)
      canvas.polyline([Point(0, 0), p, q, Point(v, v)], width: 2, c)
      canvas.dashedPolyline([Point(0, 0), p, q], width: 2, dash: v, gap: 3, c)
      canvas.dashedPolyline([Point(0, 0), p, q], width: 2, dash: 3, gap: v, c)
      canvas.arc(center: p, radius: 10, width: 2, startAngle: 0, endAngle: v, c)
      canvas.arc(center: Point(30, 20), radius: v, width: v, startAngle: v, endAngle: 3, c, cap: .round)
      _ = c.withAlpha(v)
    }
    #expect(canvas.pixels.count == 64 * 48)
  }
}

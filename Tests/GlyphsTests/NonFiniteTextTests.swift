import Raster
import Testing

@testable import Glyphs

/// Text placed or sized by numbers computed from data: a NaN, an infinity or a huge value
/// draws nothing (or a clamped size) and never stops the program (issue 9, item 1: the
/// burndown's labels at y = NaN stopped `snapshot` in `TextRenderer.draw`).
@Suite("Text at non-finite positions and sizes")
struct NonFiniteTextTests {
  static let values: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 9.3e18, 0, -3]

  @Test func drawingAtOddPositionsDrawsNothing() throws {
    let text = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    let before = canvas.pixels
    for v in Self.values where v != 0 && v != -3 {
      text.draw("12 of 21 done", at: Point(v, 40), size: 20, color: Fixtures.ink, into: &canvas)
      text.draw("12 of 21 done", at: Point(20, v), size: 20, color: Fixtures.ink, into: &canvas)
      text.draw("12", in: Rect(x: v, y: v, width: 100, height: 30), size: 20, color: Fixtures.ink, into: &canvas)
    }
    let unchanged = canvas.pixels == before
    #expect(unchanged, "nothing lands on the canvas from an impossible position")
  }

  @Test func oddSizesAreClamped() throws {
    let text = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    for v in Self.values {
      #expect(PixelSize(v).pixels >= PixelSize.minimum && PixelSize(v).pixels <= PixelSize.maximum, "\(v)")
      let m = text.measure("42", size: v)
      #expect(m.width.isFinite, "\(v)")
      text.draw("42", at: Point(10, 100), size: v, color: Fixtures.ink, into: &canvas)
      _ = text.fit("a long title that does not fit", width: v, size: v)
    }
  }
}

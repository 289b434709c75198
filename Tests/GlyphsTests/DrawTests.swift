import Glyphs
import Raster
import Testing

@Suite("Drawing text")
struct DrawTests {
  @Test("ink stays within the measured box", arguments: [Weight.regular, .bold], [11.0, 24, 37.5, 72])
  func inkWithinMeasuredBox(weight: Weight, size: Double) throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas(width: 320, height: 140)
    let origin = Point(20.3, 100.6)
    let advance = renderer.draw(
      "Hello", at: origin, size: size, weight: weight, color: Fixtures.ink, into: &canvas)
    let box = renderer.measure("Hello", size: size, weight: weight)
    #expect(advance == box.width)
    let ink = try #require(Fixtures.inkBounds(canvas), "nothing was drawn")
    #expect(Double(ink.x) >= origin.x - 1 && Double(ink.maxX) <= origin.x + box.width + 1, "ink \(ink), box \(box)")
    #expect(Double(ink.y) >= origin.y - box.ascender - 1 && Double(ink.maxY) <= origin.y + box.descender + 1)
    // "Hello" has no descenders: the ink sits on the baseline (row 101 is the first below it);
    // the round letters overshoot it by at most a pixel of partial coverage.
    #expect((101...102).contains(ink.maxY))
    // Pixels near full coverage carry the colour asked for (exactly, in stems at larger sizes).
    #expect(Fixtures.count(near: Fixtures.ink, in: canvas) > Int(size))
    if size >= 24 { #expect(Fixtures.count(Fixtures.ink, in: canvas) > Int(size)) }
  }

  @Test func translucentColourBlends() throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    renderer.draw("Hello", at: Point(10, 60), size: 40, color: Fixtures.ink.withAlpha(0.5), into: &canvas)
    let half = Fixtures.ink.withAlpha(0.5).over(Fixtures.background)
    #expect(Fixtures.count(half, in: canvas) > 40)
    #expect(Fixtures.count(Fixtures.ink, in: canvas) == 0)
  }

  @Test func drawingRespectsTheClip() throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    canvas.withClip(IRect(x: 0, y: 0, width: 50, height: 160)) { canvas in
      renderer.draw("Hello, wallboard", at: Point(10, 60), size: 40, color: Fixtures.ink, into: &canvas)
    }
    let ink = try #require(Fixtures.inkBounds(canvas))
    #expect(ink.maxX == 50)
  }

  @Test("cap height is proportional to the size", arguments: [12.0, 16, 24, 36, 48, 96, 150])
  func capHeight(size: Double) throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas(width: 200, height: 200)
    renderer.draw("H", at: Point(10, 180), size: size, color: Fixtures.ink, into: &canvas)
    let ink = try #require(Fixtures.inkBounds(canvas))
    // DejaVu Sans: cap height 1493 of 2048 units; light hinting snaps it to whole pixels.
    let expected = size * 1493 / 2048
    #expect(abs(Double(ink.height) - expected) <= 1.5, "H is \(ink.height) px tall at \(size) px, not ≈\(expected)")
    #expect(ink.maxY == 180)
  }

  @Test func aMissingGlyphDrawsTheNotdefBox() throws {
    let renderer = try Fixtures.renderer()
    try #require(!renderer.face(.regular).hasGlyph(for: "\u{4E2D}"))
    var canvas = Fixtures.canvas()
    let advance = renderer.draw("\u{4E2D}", at: Point(20, 80), size: 40, color: Fixtures.ink, into: &canvas)
    #expect(advance > 0)
    let ink = try #require(Fixtures.inkBounds(canvas), "the missing glyph drew nothing")
    // A box: taller than a dot, with a hollow middle.
    #expect(ink.height > 20 && ink.width > 10)
    #expect(canvas.pixel(ink.x + ink.width / 2, ink.y + ink.height / 2) == Fixtures.background)
  }

  @Test func tabularDigitsDrawAtTheSamePlaces() throws {
    let renderer = try Fixtures.renderer()
    var twelve = Fixtures.canvas()
    var thirteen = Fixtures.canvas()
    renderer.draw("12 s ago", at: Point(10, 80), size: 32, color: Fixtures.ink, tabular: true, into: &twelve)
    renderer.draw("13 s ago", at: Point(10, 80), size: 32, color: Fixtures.ink, tabular: true, into: &thirteen)
    // Everything from the space on is identical; the changed digit is not.
    let start = Int(10 + renderer.measure("12", size: 32, tabular: true).width)
    var same = true
    var differs = false
    for y in 0..<160 {
      for x in 0..<400 {
        if x >= start { same = same && twelve.pixel(x, y) == thirteen.pixel(x, y) }
        if x < start && twelve.pixel(x, y) != thirteen.pixel(x, y) { differs = true }
      }
    }
    #expect(same && differs)
  }

  @Test("aligned text lands in its rectangle", arguments: [TextAlignment.left, .center, .right])
  func alignedInRect(align: TextAlignment) throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    let rect = Rect(x: 50, y: 40, width: 300, height: 60)
    let width = renderer.draw("Done 42", in: rect, align: align, size: 30, color: Fixtures.ink, into: &canvas)
    let ink = try #require(Fixtures.inkBounds(canvas))
    #expect(width == renderer.measure("Done 42", size: 30).width)
    let expectedLeft =
      switch align {
      case .left: rect.minX
      case .center: rect.midX - width / 2
      case .right: rect.maxX - width
      }
    #expect(abs(Double(ink.x) - expectedLeft) <= 4, "ink starts at \(ink.x), expected ≈\(expectedLeft)")
    // Vertically centred: the ascender–descender box sits in the middle of the rectangle.
    let box = renderer.measure("Done 42", size: 30)
    let baseline = rect.midY + (box.ascender - box.descender) / 2
    #expect(abs(Double(ink.maxY) - baseline.rounded()) <= 1)
    #expect(Double(ink.y) >= rect.minY && Double(ink.maxY) <= rect.maxY)
  }

  @Test func textTooWideForItsRectangleIsCutWithAnEllipsis() throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    let rect = Rect(x: 20, y: 20, width: 120, height: 40)
    let text = "A feature title far too long for its column"
    let width = renderer.draw(text, in: rect, size: 20, color: Fixtures.ink, into: &canvas)
    #expect(width <= rect.width && width > rect.width - 30)
    let ink = try #require(Fixtures.inkBounds(canvas))
    #expect(Double(ink.maxX) <= rect.maxX + 1)
  }
}

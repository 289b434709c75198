import Glyphs
import Raster
import Testing

@Suite("The glyph cache")
struct GlyphCacheTests {
  @Test func drawingAgainRendersNothingNew() throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas()
    renderer.draw("Hello", at: Point(10, 60), size: 24, color: Fixtures.ink, into: &canvas)
    let first = renderer.cacheStatistics
    #expect(first.glyphs == 4 && first.misses == 4)  // H, e, l, o
    renderer.draw("Hello", at: Point(10, 120), size: 24, color: Fixtures.ink, into: &canvas)
    let second = renderer.cacheStatistics
    #expect(second.misses == first.misses && second.hits == first.hits + 5 && second.glyphs == 4)
    renderer.draw("Hello", at: Point(10, 120), size: 24.5, color: Fixtures.ink, into: &canvas)
    #expect(renderer.cacheStatistics.glyphs == 8)
  }

  @Test func tenThousandGlyphSizePairsStayWithinTheLimits() throws {
    let renderer = try Fixtures.renderer()
    var canvas = Fixtures.canvas(width: 1200, height: 200)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var peakBytes = 0
    var pairs = 0
    for step in 0..<162 {  // 162 sizes × 62 characters = 10,044 pairs
      let size = 6 + Double(step) / 4
      renderer.draw(String(alphabet), at: Point(4, 150), size: size, color: Fixtures.ink, into: &canvas)
      pairs += alphabet.count
      peakBytes = max(peakBytes, renderer.cacheStatistics.bytes)
      #expect(renderer.cacheStatistics.glyphs <= GlyphCacheLimits.standard.glyphs)
    }
    let statistics = renderer.cacheStatistics
    #expect(pairs >= 10_000)
    #expect(statistics.misses == pairs)
    #expect(statistics.glyphs == GlyphCacheLimits.standard.glyphs)
    #expect(statistics.evictions == pairs - statistics.glyphs)
    #expect(peakBytes <= GlyphCacheLimits.standard.bytes)
  }

  @Test func theByteLimitEvictsToo() throws {
    let renderer = try Fixtures.renderer(limits: GlyphCacheLimits(glyphs: 10_000, bytes: 64 * 1024))
    var canvas = Fixtures.canvas(width: 1600, height: 300)
    for size in stride(from: 60.0, through: 120, by: 5) {
      renderer.draw("WALLBOARD", at: Point(4, 250), size: size, color: Fixtures.ink, into: &canvas)
      #expect(renderer.cacheStatistics.bytes <= 64 * 1024)
    }
    #expect(renderer.cacheStatistics.evictions > 0)
  }

  @Test func leastRecentlyUsedGoesFirst() throws {
    let renderer = try Fixtures.renderer(limits: GlyphCacheLimits(glyphs: 3, bytes: 1 << 20))
    var canvas = Fixtures.canvas()
    func draw(_ text: String) { renderer.draw(text, at: Point(10, 60), size: 20, color: Fixtures.ink, into: &canvas) }
    draw("abc")  // cache, newest first: c b a
    draw("a")  // a c b
    draw("d")  // d a c — b is evicted
    let misses = renderer.cacheStatistics.misses
    draw("acd")
    #expect(renderer.cacheStatistics.misses == misses)
    draw("b")
    #expect(renderer.cacheStatistics.misses == misses + 1)
  }

  @Test func aGlyphLargerThanTheByteLimitIsStillDrawn() throws {
    let renderer = try Fixtures.renderer(limits: GlyphCacheLimits(glyphs: 8, bytes: 100))
    var canvas = Fixtures.canvas(width: 300, height: 300)
    renderer.draw("MW", at: Point(10, 250), size: 120, color: Fixtures.ink, into: &canvas)
    #expect(Fixtures.count(Fixtures.ink, in: canvas) > 1000)
    #expect(renderer.cacheStatistics.glyphs == 1)
  }

  @Test func clearingEmptiesTheCache() throws {
    let renderer = try Fixtures.renderer()
    _ = renderer.measure("Hello", size: 20)
    #expect(renderer.cacheStatistics.glyphs == 4)
    renderer.clearCache()
    #expect(renderer.cacheStatistics.glyphs == 0 && renderer.cacheStatistics.bytes == 0)
    _ = renderer.measure("Hello", size: 20)
    #expect(renderer.cacheStatistics.misses == 8)
  }
}

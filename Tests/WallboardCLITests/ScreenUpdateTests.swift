import Kiosk
import Raster
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// A frame where little changed redoes only that on a turned, moved or dimmed screen, and the
/// screen then shows exactly what a whole frame would.
@Suite("Updating a turned, moved or dimmed screen")
struct ScreenUpdateTests {
  static func noise(_ c: inout Canvas, _ r: IRect, _ random: inout TestRandom) {
    for y in r.y..<(r.y + r.height) {
      for x in r.x..<(r.x + r.width) { c[x: x, y: y] = 0xFF00_0000 | UInt32(random.next() & 0xFF_FFFF) }
    }
  }

  @Test(arguments: [0, 90, 180, 270])
  func updatedRectanglesGiveTheWholeFrame(rotation: Int) {
    var random = TestRandom(state: UInt64(rotation + 1))
    let screen = Screen(width: 97, height: 61, rotation: rotation)
    let (bw, bh) = screen.canvasSize
    let background = RGBA(r: 10, g: 20, b: 30)
    for night in [NightSchedule.State.day, .dim(0.4), .blank] {
      for offset in [(0, 0), (1, -1), (-2, 3)] {
        var board = Canvas(width: bw, height: bh, background: background)
        Self.noise(&board, board.bounds, &random)
        var out = screen.frame(for: board, offset: offset, night: night, background: background)
        for round in 0..<12 {
          // Rectangles inside the board, and some that run over its edges (clipped).
          var dirty: [IRect] = []
          for _ in 0..<(1 + random.below(3)) {
            let r = IRect(
              x: random.below(bw + 4) - 2, y: random.below(bh + 4) - 2, width: 1 + random.below(30),
              height: 1 + random.below(20))
            let inside = r.intersection(board.bounds)
            if !inside.isEmpty { Self.noise(&board, inside, &random) }
            dirty.append(r)
          }
          let redrawn = screen.update(&out, from: board, dirty: dirty, offset: offset, night: night)
          let whole = screen.frame(for: board, offset: offset, night: night, background: background)
          #expect(out.pixels == whole.pixels, "rotation \(rotation), \(night), offset \(offset), round \(round)")
          if case .blank = night { #expect(redrawn.isEmpty) }
          for r in redrawn { #expect(r.intersection(out.bounds) == r && !r.isEmpty) }
        }
      }
    }
  }
}

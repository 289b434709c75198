import Raster
import TerminalDisplay
import Testing

/// A canvas whose pixels come from `color(x, y)`.
func makeCanvas(width: Int, height: Int, stride: Int? = nil, _ color: (Int, Int) -> RGBA) -> Canvas {
  var canvas = Canvas(width: width, height: height, stride: stride, background: RGBA(r: 9, g: 99, b: 199))
  for y in 0..<height {
    for x in 0..<width { canvas[x: x, y: y] = Canvas.pack(color(x, y)) }
  }
  return canvas
}

/// A deterministic pseudo-random colour per pixel.
func noise(_ x: Int, _ y: Int, seed: UInt64 = 1) -> RGBA {
  var z = UInt64(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663) &+ seed &* 0x9E37_79B9_7F4A_7C15
  z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
  z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
  z ^= z >> 31
  return RGBA(
    r: UInt8(truncatingIfNeeded: z), g: UInt8(truncatingIfNeeded: z >> 8), b: UInt8(truncatingIfNeeded: z >> 16))
}

/// The area-weighted average computed the slow way: every pixel against every half-cell, with
/// the overlap of the two rectangles in coordinates scaled by `columns` and `2 · rows`.
func referenceGrid(_ canvas: Canvas, columns: Int, rows: Int) -> CellGrid {
  let halves = 2 * rows
  func overlap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Int { max(0, min(a1, b1) - max(a0, b0)) }
  var cells: [CellGrid.Cell] = []
  for row in 0..<rows {
    for column in 0..<columns {
      var colors: [RGBA] = []
      for h in [2 * row, 2 * row + 1] {
        var sum = [0, 0, 0]
        for y in 0..<canvas.height {
          let wy = overlap(y * halves, (y + 1) * halves, h * canvas.height, (h + 1) * canvas.height)
          if wy == 0 { continue }
          for x in 0..<canvas.width {
            let wx = overlap(x * columns, (x + 1) * columns, column * canvas.width, (column + 1) * canvas.width)
            let p = canvas.pixel(x, y)
            sum[0] += Int(p.r) * wx * wy
            sum[1] += Int(p.g) * wx * wy
            sum[2] += Int(p.b) * wx * wy
          }
        }
        let total = canvas.width * canvas.height
        let c = sum.map { UInt8(($0 + total / 2) / total) }
        colors.append(RGBA(r: c[0], g: c[1], b: c[2]))
      }
      cells.append(CellGrid.Cell(top: colors[0], bottom: colors[1]))
    }
  }
  return CellGrid(columns: columns, rows: rows, cells: cells)
}

@Suite struct DownsamplerTests {
  static let black = RGBA(r: 0, g: 0, b: 0)
  static let white = RGBA(r: 255, g: 255, b: 255)

  @Test(arguments: [(16, 8, 2, 2), (1920, 1080, 200, 60), (37, 23, 7, 5), (5, 3, 8, 4)])
  func solidColourStaysExact(width: Int, height: Int, columns: Int, rows: Int) {
    let c = RGBA(r: 17, g: 201, b: 254)
    let grid = Downsampler.grid(from: Canvas(width: width, height: height, background: c), columns: columns, rows: rows)
    #expect(grid == CellGrid(columns: columns, rows: rows, fill: CellGrid.Cell(top: c, bottom: c)))
  }

  @Test func onePixelCheckerboardAveragesToGrey() {
    let canvas = makeCanvas(width: 16, height: 16) { x, y in (x + y) % 2 == 0 ? Self.white : Self.black }
    let grid = Downsampler.grid(from: canvas, columns: 8, rows: 4)
    let grey = RGBA(r: 128, g: 128, b: 128)  // 127.5 rounded half up
    #expect(grid == CellGrid(columns: 8, rows: 4, fill: CellGrid.Cell(top: grey, bottom: grey)))
  }

  @Test func twoPixelCheckerboardAveragesToGreyInLargerBoxes() {
    let canvas = makeCanvas(width: 32, height: 32) { x, y in (x / 2 + y / 2) % 2 == 0 ? Self.white : Self.black }
    let grid = Downsampler.grid(from: canvas, columns: 8, rows: 4)  // 4x4-pixel halves
    #expect(grid.cells.allSatisfy { $0.top == RGBA(r: 128, g: 128, b: 128) && $0.bottom == $0.top })
  }

  @Test func onePixelLineTintsTheCellsItCrosses() {
    // A 1-pixel vertical white line at x = 13 on black, 8 pixels per column: column 1 only.
    let canvas = makeCanvas(width: 64, height: 32) { x, _ in x == 13 ? Self.white : Self.black }
    let grid = Downsampler.grid(from: canvas, columns: 8, rows: 4)
    let tint = RGBA(r: 32, g: 32, b: 32)  // 255 / 8 = 31.875
    for row in 0..<4 {
      for column in 0..<8 {
        let want = column == 1 ? tint : Self.black
        #expect(grid[column, row] == CellGrid.Cell(top: want, bottom: want), "cell (\(column), \(row))")
      }
    }
  }

  @Test func oneOfTenPixelLinesNeverVanishes() {
    // 1920 / 200 = 9.6 pixels per column: boxes have fractional edges.
    for x in stride(from: 0, to: 1920, by: 7) {
      let canvas = makeCanvas(width: 1920, height: 4) { px, _ in px == x ? Self.white : Self.black }
      let grid = Downsampler.grid(from: canvas, columns: 200, rows: 1)
      #expect(grid.cells.contains { $0.top.r > 0 }, "line at x = \(x) vanished")
    }
  }

  @Test(arguments: [(37, 23, 7, 5), (40, 30, 3, 4), (19, 11, 19, 6), (3, 2, 5, 3), (64, 48, 10, 7)])
  func matchesTheBruteForceAverage(width: Int, height: Int, columns: Int, rows: Int) {
    let canvas = makeCanvas(width: width, height: height) { noise($0, $1) }
    #expect(
      Downsampler.grid(from: canvas, columns: columns, rows: rows)
        == referenceGrid(canvas, columns: columns, rows: rows))
  }

  @Test func readsRowsThroughTheStride() {
    let padded = makeCanvas(width: 30, height: 20, stride: 41) { noise($0, $1, seed: 7) }
    let packed = makeCanvas(width: 30, height: 20) { noise($0, $1, seed: 7) }
    #expect(Downsampler.grid(from: padded, columns: 6, rows: 4) == Downsampler.grid(from: packed, columns: 6, rows: 4))
    #expect(Downsampler.grid(from: padded, columns: 6, rows: 4) == referenceGrid(packed, columns: 6, rows: 4))
  }

  @Test func topAndBottomHalvesComeFromTheirOwnRows() {
    let red = RGBA(r: 255, g: 0, b: 0)
    let blue = RGBA(r: 0, g: 0, b: 255)
    let canvas = makeCanvas(width: 4, height: 4) { _, y in y % 2 == 0 ? red : blue }
    #expect(
      Downsampler.grid(from: canvas, columns: 4, rows: 2)
        == CellGrid(columns: 4, rows: 2, fill: .init(top: red, bottom: blue)))
  }
}

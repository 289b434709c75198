public import Raster

/// Shrinks a canvas to a `CellGrid` with an exact, area-weighted box filter.
///
/// Each cell covers `canvas.width / columns` pixels across and each of its halves
/// `canvas.height / (2 · rows)` pixels down; neither needs to be whole. A half's colour is the
/// average of the canvas over its box, every pixel weighted by the area of the box it covers —
/// so a pixel straddling two cells counts partly in each, and a one-pixel line always tints the
/// cells it crosses instead of vanishing between samples.
///
/// The arithmetic is exact integer arithmetic: coordinates are scaled so that every box edge
/// falls on an integer (x by `columns`, y by `2 · rows`), the weights are integer overlaps, and
/// each channel is `(Σ weight · value + total / 2) / total` with `total = width · height` — the
/// true average rounded half up. The result depends only on the canvas and the grid size.
/// A canvas smaller than the grid is magnified by the same rule (each cell takes the pixel,
/// or pixels, under it). Alpha is ignored: the canvas is opaque.
public enum Downsampler {
  /// The canvas averaged into `columns × rows` half-block cells.
  public static func grid(from canvas: Canvas, columns: Int, rows: Int) -> CellGrid {
    precondition(columns > 0 && rows > 0, "cannot downsample into \(columns)x\(rows) cells")
    let halves = 2 * rows
    let xs = spans(pixels: canvas.width, boxes: columns)
    let ys = spans(pixels: canvas.height, boxes: halves)
    let total = canvas.width * canvas.height
    var acc = [Int](repeating: 0, count: halves * columns * 3)
    var rowSums = [Int](repeating: 0, count: columns * 3)
    var cachedRow = -1
    canvas.withUnsafePixels { pixels in
      acc.withUnsafeMutableBufferPointer { acc in
        rowSums.withUnsafeMutableBufferPointer { sums in
          for h in 0..<halves {
            let span = ys[h]
            let base = h * columns * 3
            for y in span.first...span.last {
              if y != cachedRow {
                sumRow(pixels, from: y * canvas.stride, xs: xs, interiorWeight: columns, into: sums)
                cachedRow = y
              }
              let w = span.weight(of: y, interior: halves)
              for i in 0..<(columns * 3) { acc[base + i] += sums[i] * w }
            }
          }
        }
      }
    }
    var cells = [CellGrid.Cell]()
    cells.reserveCapacity(columns * rows)
    @inline(__always) func color(_ i: Int) -> RGBA {
      let half = total / 2
      return RGBA(
        r: UInt8((acc[i] + half) / total), g: UInt8((acc[i + 1] + half) / total),
        b: UInt8((acc[i + 2] + half) / total))
    }
    for row in 0..<rows {
      let top = 2 * row * columns * 3
      let bottom = top + columns * 3
      for column in 0..<columns {
        cells.append(CellGrid.Cell(top: color(top + column * 3), bottom: color(bottom + column * 3)))
      }
    }
    return CellGrid(columns: columns, rows: rows, cells: cells)
  }

  /// The pixels one box covers, in coordinates scaled by `boxes` (pixel `p` spans
  /// `[p · boxes, (p + 1) · boxes)`, box `b` spans `[b · pixels, (b + 1) · pixels)`).
  struct Span {
    /// The first and last pixel the box touches.
    var first: Int
    var last: Int
    /// The scaled overlap of the first and the last pixel (equal when `first == last`).
    var firstWeight: Int
    var lastWeight: Int

    /// The weight of pixel `p` (in `first...last`); pixels strictly inside weigh `interior`.
    @inline(__always)
    func weight(of p: Int, interior: Int) -> Int {
      p == first ? firstWeight : (p == last ? lastWeight : interior)
    }
  }

  /// The span of each of `boxes` boxes laid evenly over `pixels` pixels.
  static func spans(pixels: Int, boxes: Int) -> [Span] {
    (0..<boxes).map { b in
      let lo = b * pixels
      let hi = (b + 1) * pixels
      let first = lo / boxes
      let last = (hi - 1) / boxes
      let firstWeight = min(hi, (first + 1) * boxes) - lo
      let lastWeight = hi - max(lo, last * boxes)
      return Span(first: first, last: last, firstWeight: firstWeight, lastWeight: lastWeight)
    }
  }

  /// Writes the weighted channel sums of one canvas row for every column box into `sums`
  /// (`r, g, b` per column).
  @inline(__always)
  private static func sumRow(
    _ pixels: UnsafeBufferPointer<UInt32>, from start: Int, xs: [Span], interiorWeight: Int,
    into sums: UnsafeMutableBufferPointer<Int>
  ) {
    for (column, span) in xs.enumerated() {
      let p0 = pixels[start + span.first]
      var r = Int((p0 >> 16) & 0xFF) * span.firstWeight
      var g = Int((p0 >> 8) & 0xFF) * span.firstWeight
      var b = Int(p0 & 0xFF) * span.firstWeight
      if span.last > span.first {
        var (ir, ig, ib) = (0, 0, 0)
        var x = start + span.first + 1
        let end = start + span.last
        while x < end {
          let p = pixels[x]
          ir += Int((p >> 16) & 0xFF)
          ig += Int((p >> 8) & 0xFF)
          ib += Int(p & 0xFF)
          x += 1
        }
        let p1 = pixels[end]
        r += ir * interiorWeight + Int((p1 >> 16) & 0xFF) * span.lastWeight
        g += ig * interiorWeight + Int((p1 >> 8) & 0xFF) * span.lastWeight
        b += ib * interiorWeight + Int(p1 & 0xFF) * span.lastWeight
      }
      sums[column * 3] = r
      sums[column * 3 + 1] = g
      sums[column * 3 + 2] = b
    }
  }
}

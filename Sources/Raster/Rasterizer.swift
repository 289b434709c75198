/// A scanline rasterizer: nonzero winding, 16 sample rows per pixel row, exact horizontal coverage.
///
/// For every sample row the crossings of the active edges are sorted by x and walked with a
/// winding counter; each span where the winding is nonzero adds its coverage to a delta buffer
/// (+c where it starts and −c where it ends, split across two cells at fractional ends). One
/// prefix sum per pixel row turns the deltas into coverage, so a span's length costs nothing.
struct Rasterizer {
  /// Sample rows per pixel row.
  static let subsamples = 16

  /// An edge with y0 < y1; `dir` is +1 when it runs downwards in its contour, else −1.
  ///
  /// `first` and `end` number the sample rows it crosses (counted from the area's top): it is
  /// active for `first..<end`. Edges meeting at a vertex share that vertex's number, so one
  /// hands over to the next on exactly the same sample row.
  struct Edge {
    var x0: Double
    var y0: Double
    var dxdy: Double
    var first: Int32
    var end: Int32
    var dir: Int32
  }

  /// An edge crossing the current sample row.
  struct Active {
    var x: Double
    var dx: Double
    var end: Int32
    var dir: Int32
  }

  private var edges: [Edge] = []
  private var sorted: [Edge] = []
  private var active: [Active] = []
  private var cells: [Float] = []
  /// One bit per cell: set where the current pixel row's deltas are nonzero.
  private var touched: [UInt64] = []

  /// Fills `path` into `canvas` (within its clip) with `color` times the coverage, source-over.
  mutating func fill(_ path: Path, _ color: RGBA, into canvas: inout Canvas) {
    let clip = canvas.clip
    guard color.a > 0, !clip.isEmpty, let b = path.bounds, b.minX.isFinite, b.maxX.isFinite,
      b.minY.isFinite, b.maxY.isFinite
    else { return }
    // Clamped both ways: a path far off the canvas (1e308) is as empty as one just off it.
    let bx0 = max(clip.x, Int(saturating: b.minX, .down))
    let bx1 = min(clip.maxX, Int(saturating: b.maxX, .up))
    let by0 = max(clip.y, Int(saturating: b.minY, .down))
    let by1 = min(clip.maxY, Int(saturating: b.maxY, .up))
    guard bx0 < bx1, by0 < by1 else { return }
    buildEdges(path, top: Double(by0), bottom: Double(by1), right: Double(bx1))
    guard !edges.isEmpty else { return }
    let cellCount = bx1 - bx0 + 2
    if cells.count < cellCount { cells = [Float](repeating: 0, count: cellCount) }
    let words = (cellCount + 63) / 64
    if touched.count < words { touched = [UInt64](repeating: 0, count: words) }
    active.removeAll(keepingCapacity: true)
    scan(rows: by0..<by1, left: bx0, right: bx1, color: color, canvas: &canvas)
  }

  /// Collects the path's edges that cross a sample row of rows top..<bottom left of `right`,
  /// sorted by their first sample row (a counting sort).
  private mutating func buildEdges(_ path: Path, top: Double, bottom: Double, right: Double) {
    edges.removeAll(keepingCapacity: true)
    let s = Double(Rasterizer.subsamples)
    let samples = Int32((bottom - top) * s)
    /// The first sample row at or below y.
    @inline(__always) func sample(_ y: Double) -> Int32 {
      Int32(max(0, min(Double(samples), ((y - top) * s - 0.5).rounded(.up))))
    }
    for i in 0..<path.contourCount {
      let contour = path.contour(i)
      guard contour.count >= 2, var prev = contour.last else { continue }
      for p in contour {
        defer { prev = p }
        let (a, b, dir): (Point, Point, Int32) = p.y > prev.y ? (prev, p, 1) : (p, prev, -1)
        // Edges right of the area cannot change any covered sample.
        if min(a.x, b.x) >= right { continue }
        let first = sample(a.y)
        let end = sample(b.y)
        if first >= end { continue }
        edges.append(Edge(x0: a.x, y0: a.y, dxdy: (b.x - a.x) / (b.y - a.y), first: first, end: end, dir: dir))
      }
    }
    var counts = [Int](repeating: 0, count: Int(samples) + 1)
    for e in edges { counts[Int(e.first) + 1] += 1 }
    for i in 1..<counts.count { counts[i] += counts[i - 1] }
    sorted.removeAll(keepingCapacity: true)
    sorted.append(contentsOf: edges)
    for e in edges {
      sorted[counts[Int(e.first)]] = e
      counts[Int(e.first)] += 1
    }
    swap(&edges, &sorted)
  }

  private mutating func scan(rows: Range<Int>, left: Int, right: Int, color: RGBA, canvas: inout Canvas) {
    let s = Rasterizer.subsamples
    let step = 1 / Double(s)
    let leftD = Double(left)
    let rightD = Double(right)
    let edgeCount = edges.count
    let stride = canvas.stride
    let ca = Float(color.a)
    let packed = Canvas.pack(color)
    let opaque = color.a == 255
    if active.count < edgeCount {
      active = [Active](repeating: Active(x: 0, dx: 0, end: 0, dir: 0), count: edgeCount)
    }
    /// Adds a covered span from `a` to `b` with `weight` (1/16 per sample row), clamped to the area.
    @inline(__always) func addSpan(
      _ a: Double, _ b: Double, _ weight: Float, _ cells: UnsafeMutableBufferPointer<Float>,
      _ touched: UnsafeMutableBufferPointer<UInt64>, _ minCell: inout Int, _ maxCell: inout Int
    ) {
      let a = max(a, leftD)
      let b = min(b, rightD)
      guard a < b else { return }
      let ia = Int(a)
      let ib = Int(b)
      let i0 = ia - left
      let i1 = ib - left
      if i0 == i1 {
        let c = Float(b - a) * weight
        cells[i0] += c
        cells[i0 + 1] -= c
      } else {
        let fa = Float(a - Double(ia))
        let fb = Float(b - Double(ib))
        cells[i0] += weight * (1 - fa)
        cells[i0 + 1] += weight * fa
        cells[i1] -= weight * (1 - fb)
        cells[i1 + 1] -= weight * fb
        touched[i1 >> 6] |= 1 << UInt64(i1 & 63)
        touched[(i1 + 1) >> 6] |= 1 << UInt64((i1 + 1) & 63)
      }
      touched[i0 >> 6] |= 1 << UInt64(i0 & 63)
      touched[(i0 + 1) >> 6] |= 1 << UInt64((i0 + 1) & 63)
      if i0 < minCell { minCell = i0 }
      if i1 + 1 > maxCell { maxCell = i1 + 1 }
    }
    /// Walks the sorted crossings with a winding counter, adding each covered span.
    @inline(__always) func walk(
      _ act: UnsafeMutableBufferPointer<Active>, _ count: Int, _ weight: Float,
      _ cells: UnsafeMutableBufferPointer<Float>, _ touched: UnsafeMutableBufferPointer<UInt64>,
      _ minCell: inout Int, _ maxCell: inout Int
    ) {
      var winding: Int32 = 0
      var start = 0.0
      for i in 0..<count {
        let was = winding
        winding += act[i].dir
        if was == 0 {
          start = act[i].x
        } else if winding == 0 {
          addSpan(start, act[i].x, weight, cells, touched, &minCell, &maxCell)
        }
      }
      // Edges right of the area were dropped; a span still open runs to its right side.
      if winding != 0 { addSpan(start, rightD, weight, cells, touched, &minCell, &maxCell) }
    }
    edges.withUnsafeBufferPointer { edges in
      active.withUnsafeMutableBufferPointer { act in
        cells.withUnsafeMutableBufferPointer { cells in
          touched.withUnsafeMutableBufferPointer { touched in
            canvas.withDrawablePixels { pixels, origin in
              var next = 0
              var count = 0
              var y = rows.lowerBound
              while y < rows.upperBound {
                if count == 0 {
                  guard next < edgeCount else { return }
                  // Jump over rows no edge reaches.
                  let first = rows.lowerBound + Int(edges[next].first) / s
                  if first > y { y = first }
                  if y >= rows.upperBound { return }
                }
                var minCell = Int.max
                var maxCell = -1
                let top = Double(y)
                let base = Int32((y - rows.lowerBound) * s)
                let nextBase = base + Int32(s)
                // Fast path: only vertical edges spanning the whole row, none starting in it —
                // every sample row is the same, so one walk at full weight does.
                var uniform = count > 0 && (next == edgeCount || edges[next].first >= nextBase)
                if uniform {
                  for i in 0..<count where act[i].dx != 0 || act[i].end < nextBase {
                    uniform = false
                    break
                  }
                }
                if uniform {
                  Rasterizer.sortByX(act, count)
                  walk(act, count, 1, cells, touched, &minCell, &maxCell)
                } else {
                  for sub in 0..<s {
                    let ys = top + (Double(sub) + 0.5) * step
                    let j = base + Int32(sub)
                    // Drop finished edges; add edges that start on this sample row.
                    var kept = 0
                    for i in 0..<count where act[i].end > j {
                      act[kept] = act[i]
                      kept += 1
                    }
                    count = kept
                    while next < edgeCount && edges[next].first <= j {
                      let e = edges[next]
                      next += 1
                      act[count] = Active(x: e.x0 + (ys - e.y0) * e.dxdy, dx: e.dxdy * step, end: e.end, dir: e.dir)
                      count += 1
                    }
                    if count == 0 { continue }
                    Rasterizer.sortByX(act, count)
                    walk(act, count, Float(step), cells, touched, &minCell, &maxCell)
                    for i in 0..<count { act[i].x += act[i].dx }
                  }
                }
                if maxCell >= 0 {
                  Rasterizer.blendRow(
                    pixels, row: origin + y * stride + left, cells: cells, touched: touched, from: minCell,
                    through: maxCell,
                    width: right - left, color: color, packed: packed, ca: ca, opaque: opaque)
                }
                y += 1
              }
            }
          }
        }
      }
    }
  }

  /// Insertion sort by x: the order barely changes from one sample row to the next.
  @inline(__always)
  private static func sortByX(_ act: UnsafeMutableBufferPointer<Active>, _ count: Int) {
    var i = 1
    while i < count {
      let v = act[i]
      var j = i
      while j > 0 && act[j - 1].x > v.x {
        act[j] = act[j - 1]
        j -= 1
      }
      act[j] = v
      i += 1
    }
  }

  /// Turns a pixel row's deltas into coverage with one running sum and blends it, clearing the
  /// deltas. Between touched cells the coverage is constant, so whole runs are written (full
  /// coverage), blended at one alpha, or skipped (none) without looking at each cell.
  @inline(__always)
  private static func blendRow(
    _ pixels: UnsafeMutableBufferPointer<UInt32>, row: Int, cells: UnsafeMutableBufferPointer<Float>,
    touched: UnsafeMutableBufferPointer<UInt64>, from first: Int, through last: Int, width: Int,
    color: RGBA, packed: UInt32, ca: Float, opaque: Bool
  ) {
    var acc: Float = 0
    var k = first
    var word = first >> 6
    var bits = touched[word] & (~0 << UInt64(first & 63))
    while true {
      // The next touched cell at or after k (or past `last`).
      while bits == 0 && word < (last >> 6) {
        touched[word] = 0
        word += 1
        bits = touched[word]
      }
      let p = bits == 0 ? last + 1 : (word << 6) + bits.trailingZeroBitCount
      // Cells k..<p share the coverage `acc`.
      let runEnd = min(p, width)
      if k < runEnd && acc > 0.001 {
        if acc >= 0.999 && opaque {
          (pixels.baseAddress! + row + k).update(repeating: packed, count: runEnd - k)
        } else {
          let alpha = UInt32(min(acc, 1) * ca + 0.5)
          if alpha > 0 {
            for i in (row + k)..<(row + runEnd) { pixels[i] = Canvas.blendPixel(pixels[i], color, alpha: alpha) }
          }
        }
      }
      if p > last { break }
      bits &= bits - 1
      acc += cells[p]
      cells[p] = 0
      if p < width && acc > 0.001 {
        if acc >= 0.999 && opaque {
          pixels[row + p] = packed
        } else {
          let alpha = UInt32(min(acc, 1) * ca + 0.5)
          if alpha > 0 { pixels[row + p] = Canvas.blendPixel(pixels[row + p], color, alpha: alpha) }
        }
      }
      k = p + 1
    }
    touched[word] = 0
  }
}

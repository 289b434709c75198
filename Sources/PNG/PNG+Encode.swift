public import Raster

extension PNG {
  /// The canvas as a PNG: 8-bit RGB (colour type 2), non-interlaced, zlib level 6.
  ///
  /// Each row's filter is the one of None, Sub, Up and Paeth whose output has the smallest sum
  /// of absolute values (as signed bytes), the usual cheap heuristic.
  public static func encode(_ canvas: Canvas) -> [UInt8] {
    let w = canvas.width
    let h = canvas.height
    let rowBytes = w * 3
    var raw = [UInt8](repeating: 0, count: h * (rowBytes + 1))
    var previous = [UInt8](repeating: 0, count: rowBytes)
    var current = [UInt8](repeating: 0, count: rowBytes)
    var candidate = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<h {
      let src = y * canvas.stride
      for x in 0..<w {
        let p = canvas.pixels[src + x]
        current[x * 3] = UInt8(truncatingIfNeeded: p >> 16)
        current[x * 3 + 1] = UInt8(truncatingIfNeeded: p >> 8)
        current[x * 3 + 2] = UInt8(truncatingIfNeeded: p)
      }
      var best: UInt8 = 0
      var bestCost = Int.max
      let out = y * (rowBytes + 1)
      for filter: UInt8 in [0, 1, 2, 4] {
        let cost = Filter.apply(filter, current, previous, into: &candidate)
        if cost < bestCost {
          bestCost = cost
          best = filter
          raw.replaceSubrange((out + 1)..<(out + 1 + rowBytes), with: candidate)
        }
      }
      raw[out] = best
      swap(&previous, &current)
    }
    var png = signature
    var header: [UInt8] = []
    header.appendBigEndian(UInt32(w))
    header.appendBigEndian(UInt32(h))
    header += [8, 2, 0, 0, 0]
    png.appendChunk("IHDR", header)
    png.appendChunk("IDAT", Zlib.compress(raw, level: 6))
    png.appendChunk("IEND", [])
    return png
  }
}

/// PNG's per-row filters for 3 or 4 bytes per pixel.
enum Filter {
  /// Filters `row` (above it `prior`) with `type` into `out`; returns the sum of |signed byte|.
  static func apply(_ type: UInt8, _ row: [UInt8], _ prior: [UInt8], into out: inout [UInt8], bpp: Int = 3) -> Int {
    var cost = 0
    row.withUnsafeBufferPointer { r in
      prior.withUnsafeBufferPointer { p in
        out.withUnsafeMutableBufferPointer { o in
          for i in 0..<r.count {
            let a = i >= bpp ? r[i - bpp] : 0
            let c = i >= bpp ? p[i - bpp] : 0
            let predicted: UInt8
            switch type {
            case 1: predicted = a
            case 2: predicted = p[i]
            case 3: predicted = UInt8((UInt16(a) + UInt16(p[i])) / 2)
            case 4: predicted = paeth(a, p[i], c)
            default: predicted = 0
            }
            let v = r[i] &- predicted
            o[i] = v
            cost += Int(Int8(bitPattern: v).magnitude)
          }
        }
      }
    }
    return cost
  }

  /// The Paeth predictor: whichever of left, above, upper-left is nearest to left + above − upper-left.
  @inline(__always)
  static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
    let p = Int(a) + Int(b) - Int(c)
    let pa = abs(p - Int(a))
    let pb = abs(p - Int(b))
    let pc = abs(p - Int(c))
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
  }
}

extension [UInt8] {
  mutating func appendBigEndian(_ v: UInt32) {
    append(contentsOf: [
      UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8),
      UInt8(truncatingIfNeeded: v),
    ])
  }

  /// Appends a chunk: length, type, data and the CRC of type and data.
  mutating func appendChunk(_ type: String, _ data: [UInt8]) {
    appendBigEndian(UInt32(data.count))
    let typed = Array(type.utf8) + data
    append(contentsOf: typed)
    appendBigEndian(Zlib.crc32(typed))
  }
}

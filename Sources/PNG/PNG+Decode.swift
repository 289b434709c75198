public import Raster

extension PNG {
  /// The image fields of an IHDR chunk.
  struct Header {
    var width: Int
    var height: Int
    /// 2 (RGB) or 6 (RGBA).
    var colorType: UInt8
    var bytesPerPixel: Int { colorType == 6 ? 4 : 3 }
  }

  /// Decodes a PNG of colour type 2 (RGB) or 6 (RGBA) at bit depth 8, not interlaced.
  ///
  /// Alpha is composited over black (each channel becomes c·a/255, rounded), because a canvas is
  /// opaque. Every chunk's CRC is checked; ancillary chunks are skipped. The expected size of the
  /// image data is checked against the dimensions (at most `maxDimension` each and `maxPixels`
  /// in all) and against what the compressed data could possibly hold before anything is
  /// allocated, and inflation never writes past that size.
  public static func decode(_ bytes: [UInt8], maxPixels: Int = defaultMaxPixels) throws(PNGError) -> Canvas {
    guard bytes.count >= 8, bytes[0..<8].elementsEqual(signature) else {
      throw PNGError(.signature, "not a PNG file (the first 8 bytes are not the PNG signature)")
    }
    var pos = 8
    var header: Header?
    var data: [UInt8] = []
    var idatState = 0  // 0 none yet, 1 in the IDAT run, 2 after it
    while true {
      guard bytes.count - pos >= 12 else {
        throw PNGError(.truncated, "data ends at byte \(bytes.count) before the IEND chunk")
      }
      let length = Int(bytes.bigEndian32(at: pos))
      let typeBytes = bytes[(pos + 4)..<(pos + 8)]
      guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
        throw PNGError(.chunk, "invalid chunk type bytes \(Array(typeBytes)) at byte \(pos)")
      }
      let type = String(decoding: typeBytes, as: UTF8.self)
      guard length <= 0x7FFF_FFFF else {
        throw PNGError(.chunk, "chunk \(type) at byte \(pos) states a length of \(length) (over 2^31 − 1)")
      }
      guard bytes.count - pos - 12 >= length else {
        throw PNGError(
          .truncated,
          "chunk \(type) at byte \(pos) needs \(length + 12) bytes but only \(bytes.count - pos) remain")
      }
      let body = bytes[(pos + 8)..<(pos + 8 + length)]
      let stored = bytes.bigEndian32(at: pos + 8 + length)
      let computed = Zlib.crc32(bytes[(pos + 4)..<(pos + 8 + length)])
      guard stored == computed else {
        throw PNGError(
          .crc, "chunk \(type) at byte \(pos) has CRC \(hex(stored)) but its contents give \(hex(computed))")
      }
      if header == nil && type != "IHDR" {
        throw PNGError(.chunk, "the first chunk is \(type), not IHDR")
      }
      if idatState == 1 && type != "IDAT" { idatState = 2 }
      switch type {
      case "IHDR":
        guard header == nil else { throw PNGError(.chunk, "a second IHDR chunk at byte \(pos)") }
        header = try parseHeader(body, maxPixels: maxPixels)
      case "IDAT":
        guard idatState != 2 else { throw PNGError(.chunk, "IDAT chunks are not consecutive (byte \(pos))") }
        idatState = 1
        data.append(contentsOf: body)
      case "IEND":
        guard let header else { throw PNGError(.chunk, "IEND before IHDR") }
        guard idatState != 0 else { throw PNGError(.chunk, "no IDAT chunk before IEND") }
        return try image(header, data)
      default:
        // Ancillary chunks (lowercase first letter) and the optional PLTE of an RGB image are skipped.
        guard typeBytes.first! >= 97 || type == "PLTE" else {
          throw PNGError(.chunk, "unknown critical chunk \(type) at byte \(pos)")
        }
      }
      pos += 12 + length
    }
  }

  static func parseHeader(_ b: ArraySlice<UInt8>, maxPixels: Int) throws(PNGError) -> Header {
    guard b.count == 13 else { throw PNGError(.header, "IHDR is \(b.count) bytes long, not 13") }
    let h = Array(b)
    let width = Int(h.bigEndian32(at: 0))
    let height = Int(h.bigEndian32(at: 4))
    guard width > 0, height > 0 else { throw PNGError(.header, "IHDR size \(width)x\(height) is empty") }
    guard width <= maxDimension, height <= maxDimension, width * height <= maxPixels else {
      throw PNGError(
        .tooLarge,
        "image size \(width)x\(height) exceeds the limit (\(maxDimension) per side, \(maxPixels) pixels)")
    }
    guard h[8] == 8 else { throw PNGError(.header, "bit depth \(h[8]) is not supported (only 8)") }
    guard h[9] == 2 || h[9] == 6 else {
      throw PNGError(.header, "colour type \(h[9]) is not supported (only 2, RGB, and 6, RGBA)")
    }
    guard h[10] == 0 else { throw PNGError(.header, "compression method \(h[10]) is not 0") }
    guard h[11] == 0 else { throw PNGError(.header, "filter method \(h[11]) is not 0") }
    guard h[12] == 0 else { throw PNGError(.header, "interlace method \(h[12]) is not supported (only 0)") }
    return Header(width: width, height: height, colorType: h[9])
  }

  /// Inflates, unfilters and converts the image data.
  static func image(_ header: Header, _ compressed: [UInt8]) throws(PNGError) -> Canvas {
    let bpp = header.bytesPerPixel
    let rowBytes = header.width * bpp
    let expected = header.height * (rowBytes + 1)
    // Deflate cannot expand more than 1032:1; less data than that cannot hold the image.
    guard expected <= compressed.count * 1032 + 1024 else {
      throw PNGError(
        .data,
        "\(compressed.count) bytes of IDAT data cannot hold a \(header.width)x\(header.height) image"
          + " (\(expected) bytes once inflated)")
    }
    var raw = [UInt8](repeating: 0, count: expected)
    switch Zlib.uncompress(compressed, into: &raw) {
    case .ok: break
    case .short(let n): throw PNGError(.data, "image data inflates to \(n) bytes, not the expected \(expected)")
    case .tooLong: throw PNGError(.data, "image data inflates to more than the expected \(expected) bytes")
    case .corrupt: throw PNGError(.data, "image data is not a valid zlib stream (corrupt or truncated)")
    }
    var canvas = Canvas(width: header.width, height: header.height)
    let failure: PNGError? = canvas.withUnsafeMutablePixels { px in
      raw.withUnsafeMutableBufferPointer { buf in
        for y in 0..<header.height {
          let start = y * (rowBytes + 1)
          let filter = buf[start]
          guard filter <= 4 else { return PNGError(.filter, "row \(y) has unknown filter type \(filter)") }
          unfilter(buf, filter: filter, row: start + 1, prior: y > 0 ? start + 1 - (rowBytes + 1) : nil, rowBytes, bpp)
          let out = y * header.width
          for x in 0..<header.width {
            let i = start + 1 + x * bpp
            var r = UInt32(buf[i])
            var g = UInt32(buf[i + 1])
            var b = UInt32(buf[i + 2])
            if bpp == 4 {
              let a = UInt32(buf[i + 3])
              r = (r * a + 127) / 255
              g = (g * a + 127) / 255
              b = (b * a + 127) / 255
            }
            px[out + x] = 0xFF00_0000 | r << 16 | g << 8 | b
          }
        }
        return nil
      }
    }
    if let failure { throw failure }
    return canvas
  }

  /// Reverses a row's filter in place.
  static func unfilter(
    _ buf: UnsafeMutableBufferPointer<UInt8>, filter: UInt8, row: Int, prior: Int?, _ n: Int, _ bpp: Int
  ) {
    @inline(__always) func up(_ i: Int) -> UInt8 { prior.map { buf[$0 + i] } ?? 0 }
    switch filter {
    case 1:
      for i in bpp..<max(bpp, n) { buf[row + i] &+= buf[row + i - bpp] }
    case 2:
      for i in 0..<n { buf[row + i] &+= up(i) }
    case 3:
      for i in 0..<n {
        let a = i >= bpp ? UInt16(buf[row + i - bpp]) : 0
        buf[row + i] &+= UInt8((a + UInt16(up(i))) / 2)
      }
    case 4:
      for i in 0..<n {
        let a = i >= bpp ? buf[row + i - bpp] : 0
        let c = i >= bpp ? up(i - bpp) : 0
        buf[row + i] &+= Filter.paeth(a, up(i), c)
      }
    default: break
    }
  }

  static func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - s.count) + s
  }
}

extension [UInt8] {
  func bigEndian32(at i: Int) -> UInt32 {
    UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
  }
}
